"""Every file source against small files written here in the real formats."""
import os
import struct

import numpy as np
import pytest

import sprout.dataset as ds
from sprout import _C
from sprout.dataset import vision


def rows(dataset):
    return list(dataset.create_tuple_iterator(output_numpy=True, num_epochs=1))


# --- MNIST (IDX) -------------------------------------------------------------------------------------
def write_idx(folder, prefix, images, labels):
    n, h, w = images.shape
    with open(os.path.join(folder, f"{prefix}-images-idx3-ubyte"), "wb") as f:
        f.write(struct.pack(">IIII", 0x803, n, h, w) + images.astype(np.uint8).tobytes())
    with open(os.path.join(folder, f"{prefix}-labels-idx1-ubyte"), "wb") as f:
        f.write(struct.pack(">II", 0x801, n) + labels.astype(np.uint8).tobytes())


@pytest.fixture
def mnist_dir(tmp_path):
    rng = np.random.default_rng(0)
    train = rng.integers(0, 256, (6, 28, 28)), np.array([5, 0, 4, 1, 9, 2])
    test = rng.integers(0, 256, (3, 28, 28)), np.array([7, 2, 1])
    write_idx(tmp_path, "train", *train)
    write_idx(tmp_path, "t10k", *test)
    return tmp_path, train, test


def test_mnist_reads_images_and_labels(mnist_dir):
    folder, (images, labels), (test_images, test_labels) = mnist_dir
    got = rows(ds.MnistDataset(str(folder), usage="train", shuffle=False))
    assert len(got) == 6
    image, label = got[3]
    assert image.shape == (28, 28, 1) and image.dtype == np.uint8 and label.dtype == np.int32
    np.testing.assert_array_equal(image[:, :, 0], images[3])
    assert [int(r[1]) for r in got] == labels.tolist()
    assert ds.MnistDataset(str(folder), usage="test").get_dataset_size() == 3
    all_rows = rows(ds.MnistDataset(str(folder), shuffle=False))
    assert [int(r[1]) for r in all_rows] == labels.tolist() + test_labels.tolist()


def test_mnist_bad_files(mnist_dir, tmp_path_factory):
    folder = mnist_dir[0]
    path = os.path.join(folder, "train-images-idx3-ubyte")
    data = open(path, "rb").read()
    open(path, "wb").write(data[:1000])
    with pytest.raises(RuntimeError, match=r"MnistDataset: '.*train-images-idx3-ubyte' is truncated: its header says "
                                           r"6 images of 28x28 \(4720 bytes\) but the file has 1000"):
        ds.MnistDataset(str(folder), usage="train").get_dataset_size()
    open(path, "wb").write(b"\x00\x00\x08\x01" + data[4:])
    with pytest.raises(RuntimeError, match="is not an IDX image file"):
        ds.MnistDataset(str(folder), usage="train").get_dataset_size()
    empty = tmp_path_factory.mktemp("empty")
    with pytest.raises(ValueError, match=r"MnistDataset: file '.*t10k-images-idx3-ubyte' not found"):
        ds.MnistDataset(str(empty), usage="test").get_dataset_size()
    with pytest.raises(ValueError, match="MnistDataset: dataset_dir '/no/such/dir' is not a directory"):
        ds.MnistDataset("/no/such/dir")
    with pytest.raises(ValueError, match="'usage' must be one of"):
        ds.MnistDataset(str(folder), usage="val")


def test_mnist_sharding_covers_every_row_once(mnist_dir):
    folder = str(mnist_dir[0])
    seen = []
    for shard in range(3):
        seen += [r[0].tobytes() for r in rows(ds.MnistDataset(folder, usage="train", num_shards=3, shard_id=shard))]
    assert len(seen) == len(set(seen)) == 6


# --- CIFAR (binary) ----------------------------------------------------------------------------------
def cifar_records(n, rng, label_bytes):
    images = rng.integers(0, 256, (n, 32, 32, 3), dtype=np.uint8)
    labels = rng.integers(0, 10, (n, label_bytes), dtype=np.uint8)
    blob = b"".join(labels[i].tobytes() + images[i].transpose(2, 0, 1).tobytes() for i in range(n))
    return images, labels, blob


def test_cifar10(tmp_path):
    rng = np.random.default_rng(1)
    parts = []
    for name, n in [("data_batch_1.bin", 3), ("data_batch_2.bin", 2), ("test_batch.bin", 4)]:
        images, labels, blob = cifar_records(n, rng, 1)
        (tmp_path / name).write_bytes(blob)
        parts.append((images, labels))
    got = rows(ds.Cifar10Dataset(str(tmp_path), usage="train", shuffle=False))
    assert len(got) == 5
    np.testing.assert_array_equal(got[4][0], parts[1][0][1])  # HWC, converted from the file's CHW
    assert int(got[4][1]) == parts[1][1][1, 0]
    assert ds.Cifar10Dataset(str(tmp_path), usage="test").get_dataset_size() == 4
    (tmp_path / "test_batch.bin").write_bytes(b"\x01" * 3000)
    with pytest.raises(RuntimeError, match=r"Cifar10Dataset: '.*test_batch.bin' has 3000 bytes, not a positive "
                                           r"multiple of the 3073-byte record"):
        ds.Cifar10Dataset(str(tmp_path), usage="test").get_dataset_size()


def test_cifar100(tmp_path):
    rng = np.random.default_rng(2)
    images, labels, blob = cifar_records(3, rng, 2)
    (tmp_path / "train.bin").write_bytes(blob)
    d = ds.Cifar100Dataset(str(tmp_path), usage="train", shuffle=False)
    assert d.get_col_names() == ["image", "coarse_label", "fine_label"]
    got = rows(d)
    np.testing.assert_array_equal(got[2][0], images[2])
    assert [int(got[2][1]), int(got[2][2])] == labels[2].tolist()


# --- ImageFolder (PNG and JPEG) ----------------------------------------------------------------------
@pytest.fixture
def image_dir(tmp_path):
    rng = np.random.default_rng(3)
    images = {}
    for cls, ext in [("cat", ".png"), ("dog", ".jpg")]:
        (tmp_path / cls).mkdir()
        for i in range(3):
            if ext == ".png":
                image = rng.integers(0, 256, (8 + i, 10, 3), dtype=np.uint8)
            else:  # JPEG keeps smooth images close; noise would not survive its compression
                yy, xx = np.mgrid[0:8 + i, 0:10]
                image = np.stack([yy * 20, xx * 20, (yy + xx) * 10], -1).astype(np.uint8)
            (tmp_path / cls / f"{i}{ext}").write_bytes(_C.dataset.encode_image(image, ext).tobytes())
            images[(cls, i)] = image
    (tmp_path / "dog" / "notes.txt").write_text("not an image")
    return tmp_path, images


def test_image_folder_bytes_and_decode(image_dir):
    folder, images = image_dir
    d = ds.ImageFolderDataset(str(folder), shuffle=False, extensions=[".png", ".JPG"])
    assert d.get_dataset_size() == 6 and d.get_class_indexing() == {"cat": 0, "dog": 1}
    raw, label = rows(d)[0]
    assert raw.dtype == np.uint8 and raw.ndim == 1 and raw[:4].tobytes() == b"\x89PNG" and int(label) == 0
    decoded = rows(ds.ImageFolderDataset(str(folder), shuffle=False, extensions=[".png", ".jpg"], decode=True))
    np.testing.assert_array_equal(decoded[1][0], images[("cat", 1)])  # PNG is lossless
    jpeg, label = decoded[4]
    assert jpeg.shape == (9, 10, 3) and int(label) == 1
    assert np.abs(jpeg.astype(int) - images[("dog", 1)]).mean() < 8


@pytest.mark.parametrize("workers", [1, 2])
def test_image_folder_through_random_crop_decode_resize(image_dir, workers):
    # The pipeline a training script writes: file bytes straight into RandomCropDecodeResize, whatever the
    # format (JPEG decodes only the window, PNG whole), then batched; a seed gives the same rows.
    folder, _ = image_dir

    def batches():
        ds.config.set_seed(21)
        d = ds.ImageFolderDataset(str(folder), shuffle=True, extensions=[".png", ".jpg"], num_parallel_workers=workers)
        d = d.map(vision.RandomCropDecodeResize((6, 5)), input_columns="image", num_parallel_workers=workers)
        return [b[0] for b in d.batch(4).create_tuple_iterator(output_numpy=True, num_epochs=1)]

    first = batches()
    assert [b.shape for b in first] == [(4, 6, 5, 3), (2, 6, 5, 3)] and all(b.dtype == np.uint8 for b in first)
    for a, b in zip(first, batches()):
        np.testing.assert_array_equal(a, b)


def test_image_folder_class_indexing_and_errors(image_dir):
    folder, _ = image_dir
    d = ds.ImageFolderDataset(str(folder), class_indexing={"dog": 7}, extensions=[".jpg"], shuffle=False)
    assert [int(r[1]) for r in rows(d)] == [7, 7, 7]
    with pytest.raises(ValueError, match=r"class_indexing names folders \['cow'\]"):
        ds.ImageFolderDataset(str(folder), class_indexing={"cow": 0}).get_dataset_size()
    corrupt = ds.ImageFolderDataset(str(folder), decode=True, shuffle=False)  # notes.txt is no image
    with pytest.raises(RuntimeError, match=r"Decode: '.*notes.txt' \(12 bytes\) is not an image OpenCV can decode"):
        rows(corrupt)


# --- text and CSV ------------------------------------------------------------------------------------
def test_text_file_dataset(tmp_path):
    (tmp_path / "a.txt").write_text("first\nsecond line\r\n\nlast")
    (tmp_path / "b.txt").write_text("b1\nb2\n")
    d = ds.TextFileDataset(str(tmp_path / "*.txt"), shuffle=False)
    assert d.get_col_names() == ["text"]
    assert [str(r[0]) for r in rows(d)] == ["first", "second line", "", "last", "b1", "b2"]
    ds.config.set_seed(4)
    files = [str(r[0]) for r in rows(ds.TextFileDataset(str(tmp_path / "*.txt"), shuffle=ds.Shuffle.FILES))]
    assert files in (["first", "second line", "", "last", "b1", "b2"], ["b1", "b2", "first", "second line", "", "last"])
    infile = [str(r[0]) for r in rows(ds.TextFileDataset(str(tmp_path / "*.txt"), shuffle=ds.Shuffle.INFILE))]
    assert sorted(infile[:4]) == sorted(["first", "second line", "", "last"]) and sorted(infile[4:]) == ["b1", "b2"]
    with pytest.raises(ValueError, match="TextFileDataset: no file matches"):
        ds.TextFileDataset(str(tmp_path / "*.csv"))


def test_csv_dataset_types_quotes_and_defaults(tmp_path):
    (tmp_path / "d.csv").write_text('id,score,name\n1,0.5,"Smith, J"\n2,,"say ""hi"""\n3,2.25,"two\nlines"\n')
    d = ds.CSVDataset(str(tmp_path / "d.csv"), column_defaults=[0, -1.0, "?"], shuffle=False)
    assert d.get_col_names() == ["id", "score", "name"]
    got = rows(d)
    assert [int(r[0]) for r in got] == [1, 2, 3] and got[0][0].dtype == np.int32
    assert [float(r[1]) for r in got] == [0.5, -1.0, 2.25] and got[0][1].dtype == np.float32
    assert [str(r[2]) for r in got] == ["Smith, J", 'say "hi"', "two\nlines"]
    strings = rows(ds.CSVDataset(str(tmp_path / "d.csv"), column_names=["a", "b", "c"], shuffle=False))
    assert str(strings[0][0]) == "id" and len(strings) == 4  # with column_names, the header is a row


def test_csv_errors_name_file_and_line(tmp_path):
    (tmp_path / "bad.csv").write_text("a,b\n1,2\n3\n")
    with pytest.raises(ValueError, match=r"CSVDataset: '.*bad.csv' line 3 has 1 fields, but the dataset has 2"):
        ds.CSVDataset(str(tmp_path / "bad.csv")).get_dataset_size()
    (tmp_path / "nan.csv").write_text("a\nx\n")
    with pytest.raises(ValueError, match=r"'.*nan.csv' line 2 field 0 is 'x', not an int"):
        ds.CSVDataset(str(tmp_path / "nan.csv"), column_defaults=[0]).get_dataset_size()
    with pytest.raises(ValueError, match="column_defaults for 1 columns"):
        ds.CSVDataset(str(tmp_path / "nan.csv"), column_defaults=[0, 1])
    with pytest.raises(ValueError, match=r"CSVDataset: file '.*missing.csv' not found"):
        ds.CSVDataset([str(tmp_path / "missing.csv")])
