"""FileWriter: writes MindRecord files (layout in _layout.py) that MindSpore's readers accept.

Rows are validated against the schema as they are added and written at commit(): every file goes to
a temporary name first and is renamed into place only when all of them are complete, so a crash
before commit leaves no file that claims to be a finished MindRecord.
"""
import os
import sqlite3
import struct

import numpy as np

from sprout.mindrecord import _layout
from sprout.mindrecord._msgpack import packb


class FileWriter:
    def __init__(self, file_name, shard_num=1, overwrite=False):
        if not isinstance(file_name, (str, os.PathLike)) or not os.fspath(file_name):
            raise TypeError(f"FileWriter: 'file_name' must be a path, but got {file_name!r}")
        if isinstance(shard_num, bool) or not isinstance(shard_num, int) or not 1 <= shard_num <= 1000:
            raise ValueError(f"FileWriter: 'shard_num' must be an int in [1, 1000], but got {shard_num!r}")
        base = os.path.abspath(os.fspath(file_name))
        self._paths = [base] if shard_num == 1 else [f"{base}{i}" for i in range(shard_num)]
        for path in self._paths:
            if not os.path.isdir(os.path.dirname(path)):
                raise ValueError(f"FileWriter: the folder of '{path}' does not exist")
            for p in (path, path + ".db"):
                if os.path.exists(p) and not overwrite:
                    raise ValueError(f"FileWriter: '{p}' already exists; pass overwrite=True to replace it")
        self._schema, self._desc, self._index_fields, self._rows = None, "", [], []
        self._header_size, self._page_size = _layout.DEFAULT_HEADER_SIZE, _layout.DEFAULT_PAGE_SIZE
        self._committed = False

    def set_header_size(self, header_size):
        if not isinstance(header_size, int) or not 1 << 14 <= header_size <= 1 << 30:
            raise ValueError(f"FileWriter.set_header_size: must be an int in [16 KB, 1 GB], but got {header_size!r}")
        self._header_size = header_size

    def set_page_size(self, page_size):
        if not isinstance(page_size, int) or not 1 << 15 <= page_size <= 1 << 31:
            raise ValueError(f"FileWriter.set_page_size: must be an int in [32 KB, 2 GB], but got {page_size!r}")
        self._page_size = page_size

    def add_schema(self, content, desc=None):
        if self._schema is not None:
            raise RuntimeError("FileWriter.add_schema: a MindRecord file has one schema, and it is already set")
        _layout.check_schema(content)
        self._schema, self._desc = dict(content), desc or ""  # returns None, as MindSpore 2.10's does

    def add_index(self, index_fields):
        self._need_schema("add_index")
        if not isinstance(index_fields, list) or not index_fields:
            raise ValueError(f"FileWriter.add_index: 'index_fields' must be a non-empty list, but got {index_fields!r}")
        for field in index_fields:
            spec = self._schema.get(field)
            if spec is None or spec["type"] == "bytes" or "shape" in spec:
                raise ValueError(f"FileWriter.add_index: field {field!r} must be a scalar field of the schema "
                                 "(not bytes, not an array)")
        self._index_fields = list(index_fields)

    def write_raw_data(self, raw_data, parallel_writer=False):
        self._need_schema("write_raw_data")
        if self._committed:
            raise RuntimeError("FileWriter.write_raw_data: the writer is already committed")
        if not isinstance(raw_data, list):
            raise TypeError(f"FileWriter.write_raw_data: 'raw_data' must be a list of dicts, but got "
                            f"{type(raw_data).__name__}")
        checked = [self._check_row(row, len(self._rows) + i) for i, row in enumerate(raw_data)]
        self._rows.extend(checked)

    def _need_schema(self, api):
        if self._schema is None:
            raise RuntimeError(f"FileWriter.{api}: call add_schema first")

    def _check_row(self, row, number):
        if not isinstance(row, dict):
            raise TypeError(f"FileWriter.write_raw_data: row {number} must be a dict, but got {type(row).__name__}")
        extra = sorted(set(row) - set(self._schema))
        missing = sorted(set(self._schema) - set(row))
        if extra or missing:
            raise ValueError(f"FileWriter.write_raw_data: row {number} does not match the schema: "
                             f"missing fields {missing}, unknown fields {extra}")
        out = {}
        for name, spec in self._schema.items():
            value, t = row[name], spec["type"]
            where = f"FileWriter.write_raw_data: row {number} field '{name}'"
            if "shape" in spec:
                array = np.asarray(value)
                if array.dtype.kind not in "biuf":
                    raise TypeError(f"{where} must be a {t} array, but got dtype {array.dtype}")
                array = np.ascontiguousarray(array, dtype=_layout.NUMBER_TYPES[t])
                try:
                    array.reshape(spec["shape"])
                except ValueError:
                    raise ValueError(f"{where} has shape {array.shape}, which does not fit the schema shape "
                                     f"{spec['shape']}") from None
                out[name] = array.tobytes()
            elif t == "bytes":
                if not isinstance(value, (bytes, bytearray, np.ndarray)):
                    raise TypeError(f"{where} must be bytes, but got {type(value).__name__}")
                out[name] = bytes(value) if not isinstance(value, np.ndarray) else value.tobytes()
            elif t == "string":
                if not isinstance(value, (str, np.str_)):
                    raise TypeError(f"{where} must be a str, but got {type(value).__name__}")
                out[name] = str(value)
            else:
                if isinstance(value, np.ndarray) and value.ndim == 0:
                    value = value.item()
                ok = isinstance(value, (int, np.integer)) if t.startswith("int") else isinstance(
                    value, (int, float, np.integer, np.floating))
                if isinstance(value, bool) or not ok:
                    raise TypeError(f"{where} must be {'an int' if t.startswith('int') else 'a number'} ({t}), "
                                    f"but got {type(value).__name__} {value!r}")
                out[name] = int(value) if t.startswith("int") else float(value)
        return out

    def commit(self):
        self._need_schema("commit")
        if self._committed:
            raise RuntimeError("FileWriter.commit: already committed")
        counts = [len(self._rows) // len(self._paths)] * len(self._paths)
        for i in range(len(self._rows) % len(self._paths)):
            counts[i] += 1
        temps, start = [], 0
        try:
            for shard_id, (path, count) in enumerate(zip(self._paths, counts)):
                rows = self._rows[start:start + count]
                start += count
                temps.append(self._write_shard(shard_id, path, rows))
            for tmp_data, tmp_db, path in temps:  # all complete: move them into place
                os.replace(tmp_data, path)
                os.replace(tmp_db, path + ".db")
        except BaseException:
            for tmp_data, tmp_db, _ in temps:
                for p in (tmp_data, tmp_db):
                    if os.path.exists(p):
                        os.remove(p)
            raise
        self._committed = True
        self._rows = []

    def _write_shard(self, shard_id, path, rows):
        blobs = _layout.blob_fields(self._schema)
        raw_rows, blob_rows = [], []
        for row in rows:
            raw = packb({k: v for k, v in row.items() if k not in blobs})
            raw_rows.append(struct.pack("<Q", len(raw)) + raw)
            blob = _layout.merge_blobs([row[k] for k in blobs]) if blobs else b""
            blob_rows.append(struct.pack("<Q", len(blob)) + blob)
        # Row groups: consecutive rows whose raw and blob bytes each fit in one page.
        groups, current, raw_bytes, blob_bytes = [], [], 0, 0
        for i in range(len(rows)):
            if current and (raw_bytes + len(raw_rows[i]) > self._page_size or
                            blob_bytes + len(blob_rows[i]) > self._page_size):
                groups.append(current)
                current, raw_bytes, blob_bytes = [], 0, 0
            if len(raw_rows[i]) > self._page_size or len(blob_rows[i]) > self._page_size:
                raise ValueError(f"FileWriter.commit: row {i} of shard {shard_id} needs more than page_size "
                                 f"{self._page_size} bytes; raise it with set_page_size")
            current.append(i)
            raw_bytes += len(raw_rows[i])
            blob_bytes += len(blob_rows[i])
        if current:
            groups.append(current)
        pages, index_rows, body = [], [], []
        for group_id, group in enumerate(groups):
            blob_page, raw_page = 2 * group_id, 2 * group_id + 1
            blob_data, raw_data = b"", b""
            for i in group:
                index_rows.append((i, group_id, raw_page, len(raw_data), len(raw_data) + len(raw_rows[i]),
                                   blob_page, len(blob_data), len(blob_data) + len(blob_rows[i]), rows[i]))
                raw_data += raw_rows[i]
                blob_data += blob_rows[i]
            start_row, end_row = group[0], group[-1] + 1
            pages.append({"page_id": blob_page, "shard_id": shard_id, "page_type": "BLOB_DATA",
                          "page_type_id": group_id, "start_row_id": start_row, "end_row_id": end_row,
                          "row_group_ids": [], "page_size": len(blob_data)})
            pages.append({"page_id": raw_page, "shard_id": shard_id, "page_type": "RAW_DATA",
                          "page_type_id": group_id, "start_row_id": 0, "end_row_id": 0,
                          "row_group_ids": [{"id": group_id, "offset": 0}], "page_size": len(raw_data)})
            body.append(blob_data + b"\0" * (self._page_size - len(blob_data)))
            last = group_id == len(groups) - 1
            body.append(raw_data if last else raw_data + b"\0" * (self._page_size - len(raw_data)))
        header = {
            "header_size": self._header_size,
            # MindSpore serializes an empty list of index fields or statistics as null.
            "index_fields": [{"schema_id": 0, "index_field": f} for f in self._index_fields] or None,
            "page": pages,
            "page_size": self._page_size,
            "schema": [{"desc": self._desc, "blob_fields": blobs, "schema": self._schema}],
            "shard_addresses": [os.path.basename(p) for p in self._paths],
            "shard_id": shard_id,
            "statistics": None,
            "version": _layout.VERSION,
        }
        tmp_data = f"{path}.writing-{os.getpid()}"
        tmp_db = f"{path}.db.writing-{os.getpid()}"
        with open(tmp_data, "wb") as f:
            f.write(_layout.encode_header(header, self._header_size))
            for chunk in body:
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
        self._write_index(tmp_db, os.path.basename(path), index_rows)
        return tmp_data, tmp_db, path

    def _write_index(self, db_path, shard_name, index_rows):
        if os.path.exists(db_path):
            os.remove(db_path)
        db = sqlite3.connect(db_path)
        try:
            fields = [(f"INC_{k}", f"{name}_0", _layout.SQL_TYPES[self._schema[name]["type"]], name)
                      for k, name in enumerate(self._index_fields)]
            columns = "".join(f",{inc} INT, {col} {sql}" for inc, col, sql, _ in fields)
            keys = "".join(f",{inc}" for inc, _, _, _ in fields)
            db.execute("CREATE TABLE INDEXES(ROW_ID INT NOT NULL, PAGE_ID_RAW INT NOT NULL, "
                       "PAGE_OFFSET_RAW INT NOT NULL, PAGE_OFFSET_RAW_END INT NOT NULL, ROW_GROUP_ID INT NOT NULL, "
                       "PAGE_ID_BLOB INT NOT NULL, PAGE_OFFSET_BLOB INT NOT NULL, PAGE_OFFSET_BLOB_END INT NOT NULL"
                       f"{columns}, PRIMARY KEY(ROW_ID{keys}));")
            names = "".join(f",{inc},{col}" for inc, col, _, _ in fields)
            marks = ",?" * (8 + 2 * len(fields))
            db.executemany(
                "INSERT INTO INDEXES (ROW_ID,ROW_GROUP_ID,PAGE_ID_RAW,PAGE_OFFSET_RAW,PAGE_OFFSET_RAW_END,"
                f"PAGE_ID_BLOB,PAGE_OFFSET_BLOB,PAGE_OFFSET_BLOB_END{names}) VALUES ({marks[1:]})",
                [(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7],
                  *[v for _, _, _, name in fields for v in (0, r[8][name])]) for r in index_rows])
            db.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL);")
            db.execute("INSERT INTO SHARD_NAME (NAME) VALUES (?)", (shard_name,))
            db.commit()
        finally:
            db.close()
