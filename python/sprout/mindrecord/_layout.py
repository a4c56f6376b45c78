"""The MindRecord file layout, shared by FileWriter and FileReader.

A MindRecord shard file is:
  [8-byte little-endian length][JSON header] padded with zeros to header_size bytes, then pages of
  page_size bytes (the last one may be short). The header holds header_size, page_size, the schema
  (with its blob_fields), index_fields, the pages, shard_addresses, shard_id and version "3.0".
  A raw page holds rows as [8-byte length][msgpack map of the non-blob fields]; a blob page holds
  rows as [8-byte length][blob], where a row with several blob fields concatenates
  [8-byte big-endian length][bytes] per field in schema order, and a row with one blob field is
  just its bytes. Raw row group k pairs with the blob page whose page_type_id is k.
Beside each shard, `<shard>.db` (SQLite) has INDEXES (one row per record: its page ids and byte
offsets, plus the index fields) and SHARD_NAME.
"""
import json
import struct

import numpy as np

VERSION = "3.0"
DEFAULT_HEADER_SIZE = 1 << 24
DEFAULT_PAGE_SIZE = 1 << 25
NUMBER_TYPES = {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}
FIELD_TYPES = set(NUMBER_TYPES) | {"string", "bytes"}
SQL_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float32": "NUMERIC", "float64": "NUMERIC", "string": "TEXT"}


def check_schema(schema):
    """A MindRecord schema: {field: {"type": t} or {"type": number type, "shape": [dims, -1 allowed]}}."""
    if not isinstance(schema, dict) or not schema:
        raise ValueError(f"FileWriter.add_schema: 'schema' must be a non-empty dict, but got {schema!r}")
    for name, spec in schema.items():
        if not isinstance(name, str) or not name.replace("_", "a").isalnum():
            raise ValueError(f"FileWriter.add_schema: field name {name!r} must be letters, digits and '_'")
        if not isinstance(spec, dict) or spec.get("type") not in FIELD_TYPES:
            raise ValueError(f"FileWriter.add_schema: field '{name}' must be {{'type': one of {sorted(FIELD_TYPES)}}}, "
                             f"but got {spec!r}")
        if "shape" in spec:
            shape = spec["shape"]
            if spec["type"] not in NUMBER_TYPES or not isinstance(shape, list) or not shape or not all(
                    isinstance(d, int) and (d > 0 or d == -1) for d in shape) or shape.count(-1) > 1:
                raise ValueError(f"FileWriter.add_schema: field '{name}' shape must be a list of positive ints with "
                                 f"at most one -1, on a number type, but got {spec!r}")
        if set(spec) - {"type", "shape"}:
            raise ValueError(f"FileWriter.add_schema: field '{name}' has unknown keys {sorted(set(spec) - {'type', 'shape'})}")


def blob_fields(schema):
    """Fields stored in blob pages: bytes, and arrays (a shape); sorted by name, the order MindSpore
    writes them in and the one its reader assumes (it does not follow the header's list)."""
    return sorted(name for name, spec in schema.items() if spec["type"] == "bytes" or "shape" in spec)


def merge_blobs(values):
    if len(values) == 1:
        return bytes(values[0])
    return b"".join(struct.pack(">Q", len(v)) + bytes(v) for v in values)


def split_blobs(data, count):
    if count == 1:
        return [data]
    out, pos = [], 0
    for _ in range(count):
        (n,) = struct.unpack_from(">Q", data, pos)
        out.append(data[pos + 8:pos + 8 + n])
        pos += 8 + n
    return out


def encode_header(header, header_size):
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    if len(text) + 8 > header_size:
        raise ValueError(f"FileWriter: the header needs {len(text) + 8} bytes, more than header_size {header_size}; "
                         "raise it with set_header_size")
    return struct.pack("<Q", len(text)) + text + b"\0" * (header_size - 8 - len(text))


def read_header(api, path):
    try:
        with open(path, "rb") as f:
            head = f.read(8)
            if len(head) < 8:
                raise RuntimeError(f"{api}: '{path}' is truncated: {len(head)} bytes, no MindRecord header")
            (n,) = struct.unpack("<Q", head)
            text = f.read(n)
    except FileNotFoundError:
        raise ValueError(f"{api}: MindRecord file '{path}' not found") from None
    if len(text) < n:
        raise RuntimeError(f"{api}: '{path}' is truncated: its header needs {n} bytes, the file has {len(text)}")
    try:
        header = json.loads(text)
    except ValueError:
        raise RuntimeError(f"{api}: '{path}' is not a MindRecord file (its header is not JSON)") from None
    for key in ("header_size", "page_size", "schema", "shard_addresses", "version"):
        if key not in header:
            raise RuntimeError(f"{api}: '{path}' is not a MindRecord file (its header has no '{key}')")
    return header


def decode_field(name, spec, value):
    """A stored value -> the NumPy value FileReader and MindDataset return."""
    t = spec["type"]
    if "shape" in spec:
        return np.frombuffer(value, dtype=NUMBER_TYPES[t]).reshape(spec["shape"])
    if t == "bytes":
        return np.frombuffer(value, dtype=np.uint8)
    if t == "string":
        return np.array(value)
    return np.array(value, dtype=NUMBER_TYPES[t])
