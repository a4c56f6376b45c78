"""Reading MindRecord files: the shard index (_Shards), FileReader, and the row source of MindDataset."""
import os
import sqlite3
import struct

from sprout.mindrecord import _layout
from sprout.mindrecord._msgpack import unpackb


class _Shards:
    """The rows of a set of MindRecord shards: where each row's raw and blob bytes are."""

    def __init__(self, api, files):
        if isinstance(files, (str, os.PathLike)):
            first = os.path.abspath(os.fspath(files))
            header = _layout.read_header(api, first)
            folder = os.path.dirname(first)
            paths = [os.path.join(folder, name) for name in header["shard_addresses"]]
        elif isinstance(files, (list, tuple)) and files:
            paths = [os.path.abspath(os.fspath(f)) for f in files]
        else:
            raise TypeError(f"{api}: 'dataset_files' must be a path or a non-empty list of paths, but got {files!r}")
        self.api, self.paths, self.rows, self.fds = api, paths, [], []
        self.schema = None
        for shard, path in enumerate(paths):
            header = _layout.read_header(api, path)
            schema = header["schema"][0]
            if self.schema is None:
                self.schema, self.blob_fields = schema["schema"], schema["blob_fields"]
            elif schema["schema"] != self.schema:
                raise ValueError(f"{api}: '{path}' has a different schema from '{paths[0]}'")
            self._load_index(shard, path, header)

    def _load_index(self, shard, path, header):
        db_path = path + ".db"
        if not os.path.isfile(db_path):
            raise ValueError(f"{self.api}: index file '{db_path}' not found; a MindRecord file is complete only "
                             "with its .db (was the writer committed?)")
        size = os.path.getsize(path)
        base, page = header["header_size"], header["page_size"]
        db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        try:
            index = db.execute("SELECT ROW_ID, PAGE_ID_RAW, PAGE_OFFSET_RAW, PAGE_OFFSET_RAW_END, PAGE_ID_BLOB, "
                               "PAGE_OFFSET_BLOB, PAGE_OFFSET_BLOB_END FROM INDEXES ORDER BY ROW_ID").fetchall()
        except sqlite3.DatabaseError as e:
            raise RuntimeError(f"{self.api}: '{db_path}' is not a MindRecord index: {e}") from None
        finally:
            db.close()
        for row_id, raw_page, raw_start, raw_end, blob_page, blob_start, blob_end in index:
            raw = (base + raw_page * page + raw_start, base + raw_page * page + raw_end)
            blob = (base + blob_page * page + blob_start, base + blob_page * page + blob_end)
            if max(raw[1], blob[1]) > size:
                raise RuntimeError(f"{self.api}: '{path}' is truncated: row {row_id} ends at byte "
                                   f"{max(raw[1], blob[1])} but the file has {size}")
            self.rows.append((shard, raw, blob))
        self.fds.append(os.open(path, os.O_RDONLY))

    def __len__(self):
        return len(self.rows)

    def read(self, i):
        """Row i as {field: stored value} (bytes for blob fields)."""
        shard, (raw_start, raw_end), (blob_start, blob_end) = self.rows[i]
        fd = self.fds[shard]
        raw = os.pread(fd, raw_end - raw_start, raw_start)  # pread: thread-safe, no shared file position
        (n,) = struct.unpack_from("<Q", raw)
        row = unpackb(raw[8:8 + n])
        if self.blob_fields:
            blob = os.pread(fd, blob_end - blob_start, blob_start)
            (n,) = struct.unpack_from("<Q", blob)
            for name, value in zip(self.blob_fields, _layout.split_blobs(blob[8:8 + n], len(self.blob_fields))):
                row[name] = value
        return row

    def close(self):
        for fd in getattr(self, "fds", []):  # __init__ may have failed before opening any
            os.close(fd)
        self.fds = []

    def __del__(self):
        self.close()


class FileReader:
    """Reads MindRecord rows in order as dicts of NumPy values (bytes fields as bytes)."""

    def __init__(self, file_name, num_consumer=4, columns=None, operator=None):
        self._shards = _Shards("FileReader", file_name)
        schema = self._shards.schema
        self._columns = list(columns) if columns else list(schema)
        unknown = sorted(set(self._columns) - set(schema))
        if unknown:
            raise ValueError(f"FileReader: columns {unknown} are not in the schema {sorted(schema)}")

    def get_next(self):
        schema = self._shards.schema
        for i in range(len(self._shards)):
            row = self._shards.read(i)
            yield {c: row[c] if schema[c]["type"] == "bytes" else _layout.decode_field(c, schema[c], row[c])
                   for c in self._columns}

    def len(self):
        return len(self._shards)

    def schema(self):
        return dict(self._shards.schema)

    def close(self):
        self._shards.close()


class MindRecordRows:
    """Random access to rows as tuples of NumPy values in `columns` order (MindDataset's source)."""

    def __init__(self, dataset_files, columns):
        self.shards = _Shards("MindDataset", dataset_files)
        schema = self.shards.schema
        self.columns = list(columns) if columns else list(schema)
        unknown = sorted(set(self.columns) - set(schema))
        if unknown:
            raise ValueError(f"MindDataset: columns_list {unknown} are not in the schema {sorted(schema)}")

    def __len__(self):
        return len(self.shards)

    def __getitem__(self, i):
        row = self.shards.read(i)
        schema = self.shards.schema
        return tuple(_layout.decode_field(c, schema[c], row[c]) for c in self.columns)
