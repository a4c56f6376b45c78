"""MindRecord: FileWriter/FileReader/MindDataset round trips, the published layout, bad files, save."""
import json
import os
import sqlite3
import struct

import numpy as np
import pytest

import sprout.dataset as ds
from sprout.mindrecord import FileReader, FileWriter
from sprout.mindrecord._msgpack import packb, unpackb

SCHEMA = {"label": {"type": "int32"}, "name": {"type": "string"}, "image": {"type": "bytes"},
          "score": {"type": "float64"}, "feature": {"type": "float32", "shape": [-1, 2]}}


def sample_rows(n):
    return [{"label": i % 3, "name": f"row{i}", "image": bytes(range(i, i + 5)), "score": i / 4,
             "feature": np.arange(2 * (i + 1), dtype=np.float32).reshape(-1, 2)} for i in range(n)]


def write(path, rows, shards=1, index=True):
    w = FileWriter(str(path), shards)
    w.set_header_size(1 << 14)
    w.set_page_size(1 << 15)
    w.add_schema(SCHEMA, "test")
    if index:
        w.add_index(["label"])
    w.write_raw_data(rows)
    w.commit()


def test_round_trip_through_file_reader(tmp_path):
    rows = sample_rows(10)
    write(tmp_path / "a.mindrecord", rows)
    got = list(FileReader(str(tmp_path / "a.mindrecord")).get_next())
    assert len(got) == 10
    for want, row in zip(rows, got):
        assert int(row["label"]) == want["label"] and str(row["name"]) == want["name"]
        assert row["image"] == want["image"] and float(row["score"]) == want["score"]
        np.testing.assert_array_equal(row["feature"], want["feature"])


def test_the_published_layout(tmp_path):
    path = tmp_path / "b.mindrecord"
    write(path, sample_rows(4))
    data = path.read_bytes()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    assert header["version"] == "3.0" and header["header_size"] == 1 << 14 and header["page_size"] == 1 << 15
    assert header["shard_addresses"] == ["b.mindrecord"] and header["shard_id"] == 0
    # Sorted by name, as MindSpore writes them and its reader assumes (checked against MindSpore 2.10
    # by benchmarks/interop/mindspore_files.py).
    assert header["schema"][0]["blob_fields"] == ["feature", "image"]
    assert header["index_fields"] == [{"schema_id": 0, "index_field": "label"}]
    assert {p["page_type"] for p in header["page"]} == {"RAW_DATA", "BLOB_DATA"}
    db = sqlite3.connect(str(path) + ".db")
    assert db.execute("SELECT NAME FROM SHARD_NAME").fetchall() == [("b.mindrecord",)]
    row = db.execute("SELECT ROW_ID, PAGE_ID_RAW, PAGE_OFFSET_RAW, PAGE_OFFSET_RAW_END, label_0 FROM INDEXES "
                     "WHERE ROW_ID = 2").fetchone()
    start = header["header_size"] + row[1] * header["page_size"] + row[2]
    (length,) = struct.unpack("<Q", data[start:start + 8])
    assert unpackb(data[start + 8:start + 8 + length]) == {"label": 2, "name": "row2", "score": 0.5}
    assert row[4] == 2


def test_msgpack_codec_round_trips():
    value = {"a": [1, -1, -40, 300, 2**40, -2**40, 1.5, None, True, "x" * 40, b"\x00" * 300], "b": {"c": "é"}}
    assert unpackb(packb(value)) == value


def test_mind_dataset_sharding_shuffle_and_columns(tmp_path):
    write(tmp_path / "c.mindrecord", sample_rows(9), shards=2)
    assert sorted(os.listdir(tmp_path)) == ["c.mindrecord0", "c.mindrecord0.db", "c.mindrecord1", "c.mindrecord1.db"]
    d = ds.MindDataset(str(tmp_path / "c.mindrecord0"), columns_list=["name", "label"], shuffle=False)
    assert d.get_col_names() == ["name", "label"] and d.get_dataset_size() == 9
    assert [str(r[0]) for r in d.create_tuple_iterator(output_numpy=True)] == [f"row{i}" for i in range(9)]
    seen = []
    for shard in range(3):
        part = ds.MindDataset(str(tmp_path / "c.mindrecord0"), num_shards=3, shard_id=shard)
        seen += [str(r[1]) for r in part.create_tuple_iterator(output_numpy=True)]
    assert sorted(seen) == sorted(f"row{i}" for i in range(9))
    batch = next(ds.MindDataset(str(tmp_path / "c.mindrecord1"), ["label", "image"]).batch(2)
                 .create_tuple_iterator(output_numpy=True))
    assert batch[1].shape == (2, 5) and batch[1].dtype == np.uint8


def test_writer_rejects_bad_rows_and_schemas(tmp_path):
    w = FileWriter(str(tmp_path / "d.mindrecord"))
    with pytest.raises(RuntimeError, match="call add_schema first"):
        w.write_raw_data([{}])
    with pytest.raises(ValueError, match="field 'x' must be"):
        w.add_schema({"x": {"type": "complex"}})
    w.add_schema(SCHEMA)
    with pytest.raises(ValueError, match=r"row 0 does not match the schema: missing fields \['score'\]"):
        w.write_raw_data([{k: v for k, v in sample_rows(1)[0].items() if k != "score"}])
    bad = sample_rows(2)
    bad[1]["label"] = "three"
    with pytest.raises(TypeError, match=r"row 1 field 'label' must be an int \(int32\), but got str"):
        w.write_raw_data(bad)
    bad = sample_rows(1)
    bad[0]["feature"] = np.zeros(3)
    with pytest.raises(ValueError, match=r"row 0 field 'feature' has shape \(3,\), which does not fit"):
        w.write_raw_data(bad)
    with pytest.raises(ValueError, match="'image' must be a scalar field"):
        w.add_index(["image"])
    write(tmp_path / "e.mindrecord", sample_rows(1))
    with pytest.raises(ValueError, match="already exists; pass overwrite=True"):
        FileWriter(str(tmp_path / "e.mindrecord"))


def test_nothing_claims_to_be_complete_before_commit(tmp_path):
    w = FileWriter(str(tmp_path / "f.mindrecord"))
    w.add_schema(SCHEMA)
    w.write_raw_data(sample_rows(3))
    assert os.listdir(tmp_path) == []  # rows wait in memory; files appear whole at commit
    w.commit()
    assert sorted(os.listdir(tmp_path)) == ["f.mindrecord", "f.mindrecord.db"]


def test_truncated_and_foreign_files(tmp_path):
    path = tmp_path / "g.mindrecord"
    write(path, sample_rows(5))
    data = path.read_bytes()
    path.write_bytes(data[:len(data) - 10])
    with pytest.raises(RuntimeError, match=r"MindDataset: '.*g.mindrecord' is truncated: row 4 ends at byte"):
        ds.MindDataset(str(path))
    (tmp_path / "h.mindrecord").write_bytes(b"\x05\x00\x00\x00\x00\x00\x00\x00hello")
    with pytest.raises(RuntimeError, match="is not a MindRecord file"):
        FileReader(str(tmp_path / "h.mindrecord"))
    os.remove(str(path) + ".db")
    with pytest.raises(ValueError, match=r"index file '.*g.mindrecord.db' not found"):
        ds.MindDataset(str(path))


def test_dataset_save_and_read_back(tmp_path):
    images = np.random.default_rng(0).integers(0, 256, (6, 4, 4, 3)).astype(np.uint8)
    d = ds.NumpySlicesDataset({"image": images, "label": np.arange(6, dtype=np.int32),
                               "weight": np.linspace(0, 1, 6).astype(np.float32)}, shuffle=False)
    d.save(str(tmp_path / "saved.mindrecord"))
    back = ds.MindDataset(str(tmp_path / "saved.mindrecord"), shuffle=False)
    assert back.get_col_names() == ["image", "label", "weight"]
    rows = list(back.create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(rows[3][0], images[3].astype(np.int32))
    assert int(rows[3][1]) == 3 and rows[3][2].dtype == np.float32
