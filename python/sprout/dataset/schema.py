"""Schema: the columns of a dataset (name, type, shape), in MindSpore's JSON form."""
import json
import os

from sprout import _C

# The type names MindSpore's schemas use. Sprout's tensors lack the unsigned types above uint8 and
# strings; a schema may still name them (to be read or written), RandomDataset refuses them.
SCHEMA_TYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                "float32", "float64", "string", "bytes")


def type_name(api, de_type):
    """A sprout dtype (ms.float32) or a type name ('float32') -> the schema's type name."""
    if isinstance(de_type, _C.DType):
        name = str(de_type).lower()
    elif isinstance(de_type, str):
        name = de_type
    else:
        raise TypeError(f"{api}: 'de_type' must be a sprout dtype such as ms.float32 or a type name such as "
                        f"'float32', but got {type(de_type).__name__} {de_type!r}")
    if name not in SCHEMA_TYPES:
        raise ValueError(f"{api}: type {name!r} is not one of the schema types {list(SCHEMA_TYPES)}")
    return name


class Schema:
    """The columns of a dataset: ``add_column`` one by one, or read a JSON file (``schema_file``) of the form
    ``{"columns": [{"name": ..., "type": ..., "rank": ..., "shape": [...]}, ...], "numRows": n}``
    (``columns`` may also map names to {"type", "shape"}). ``to_json`` writes that form back."""

    def __init__(self, schema_file=None):
        self.schema_file = schema_file
        self.columns = []
        self.num_rows = None
        if schema_file is not None:
            if not isinstance(schema_file, (str, os.PathLike)):
                raise TypeError(f"Schema: 'schema_file' must be a path, but got {type(schema_file).__name__}")
            try:
                with open(schema_file, encoding="utf-8") as f:
                    content = json.load(f)
            except FileNotFoundError:
                raise RuntimeError(f"Schema: schema_file '{os.fspath(schema_file)}' does not exist") from None
            except json.JSONDecodeError as e:
                raise RuntimeError(f"Schema: '{os.fspath(schema_file)}' is not valid JSON: {e}") from None
            self.from_json(content)

    def add_column(self, name, de_type, shape=None):
        """Appends a column: its name, its type (a sprout dtype or a type name) and, optionally, its shape."""
        if not isinstance(name, str) or not name:
            raise TypeError(f"Schema.add_column: 'name' must be a non-empty str, but got {name!r}")
        column = {"name": name, "type": type_name("Schema.add_column", de_type)}
        if shape is not None:
            if not isinstance(shape, (list, tuple)) or not all(
                    isinstance(d, int) and not isinstance(d, bool) and d >= -1 for d in shape):
                raise TypeError(f"Schema.add_column: 'shape' must be a list of ints (-1 for a free size), "
                                f"but got {shape!r}")
            column["shape"] = list(shape)
        self.columns.append(column)

    def parse_columns(self, columns):
        """Replaces the columns by ``columns``: a list of {"name", "type", "shape"} or a dict name -> {"type", "shape"}."""
        if isinstance(columns, dict):
            columns = [dict(spec, name=name) for name, spec in columns.items()]
        if not isinstance(columns, list) or not all(isinstance(c, dict) for c in columns):
            raise TypeError(f"Schema.parse_columns: 'columns' must be a list of dicts or a dict of dicts, "
                            f"but got {columns!r}")
        self.columns = []
        for c in columns:
            if "name" not in c or "type" not in c:
                raise RuntimeError(f"Schema.parse_columns: column {c} needs a 'name' and a 'type'")
            # MindSpore reads a column without a shape as a scalar (rank 0, shape [])
            self.add_column(c["name"], c["type"], c.get("shape") or [])

    def from_json(self, json_obj):
        """Takes the columns (and numRows) of a parsed schema JSON object."""
        if not isinstance(json_obj, dict) or "columns" not in json_obj:
            raise RuntimeError(f"Schema.from_json: expected an object with 'columns', but got {json_obj!r}")
        self.parse_columns(json_obj["columns"])
        self.num_rows = json_obj.get("numRows")

    def get_num_rows(self):
        if self.num_rows is None:
            raise RuntimeError("Schema.get_num_rows: the schema has no numRows")
        return self.num_rows

    def to_json(self):
        """The schema as MindSpore's JSON text; a column without a shape is written with rank 1 as MindSpore does."""
        columns = []
        for c in self.columns:
            entry = {"name": c["name"], "rank": len(c["shape"]) if "shape" in c else 1}
            if "shape" in c:
                entry["shape"] = c["shape"]
            entry["type"] = c["type"]
            columns.append(entry)
        content = {"columns": columns}
        if self.num_rows is not None:
            content["numRows"] = self.num_rows
        return json.dumps(content, indent=2)

    def __str__(self):
        return self.to_json()
