"""The dataset loaders beyond MNIST/CIFAR/ImageFolder, against tiny files in each published format
(loader_fixtures.py). The expected column names, dtypes, shapes, row orders and values are what
MindSpore 2.10 gave on the same files, except that its uint32 columns are int32 here (Sprout has no
uint32 tensors)."""
import os

import numpy as np
import pytest

import sprout.dataset as ds
from loader_fixtures import (write_mnist_like, write_emnist, write_qmnist, write_semeion, write_stl10, write_usps)


def rows(dataset):
    return list(dataset.create_tuple_iterator(output_numpy=True, num_epochs=1))


def labels_of(dataset, column=1):
    return [r[column].tolist() for r in rows(dataset)]


# --- the MNIST family -------------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", [ds.FashionMnistDataset, ds.KMnistDataset])
def test_mnist_like_datasets_read_test_before_train(cls, tmp_path):
    data = write_mnist_like(str(tmp_path))
    every = rows(cls(str(tmp_path), shuffle=False))
    assert cls(str(tmp_path)).get_col_names() == ["image", "label"]
    # MindSpore reads the files in sorted name order: t10k-* before train-*
    assert [int(r[1]) for r in every] == [5, 9, 3, 1, 4, 1]
    image, label = every[2]
    assert image.shape == (28, 28, 1) and image.dtype == np.uint8 and label.shape == () and label.dtype == np.int32
    np.testing.assert_array_equal(image[..., 0], data["train"][0][0])
    assert labels_of(cls(str(tmp_path), usage="train", shuffle=False)) == [3, 1, 4, 1]
    assert labels_of(cls(str(tmp_path), usage="test", shuffle=False)) == [5, 9]
    assert cls(str(tmp_path), usage="train", num_samples=3).get_dataset_size() == 3


def test_emnist_reads_the_named_split(tmp_path):
    data = write_emnist(str(tmp_path), "letters")
    got = rows(ds.EMnistDataset(str(tmp_path), "letters", shuffle=False))
    assert [int(r[1]) for r in got] == [5, 9, 3, 1, 4, 1]
    np.testing.assert_array_equal(got[0][0][..., 0], data["test"][0][0])
    assert labels_of(ds.EMnistDataset(str(tmp_path), name="letters", usage="train", shuffle=False)) == [3, 1, 4, 1]
    with pytest.raises(ValueError, match=r"EMnistDataset: file '.*emnist-mnist-test-images-idx3-ubyte' not found"):
        ds.EMnistDataset(str(tmp_path), "mnist").get_dataset_size()
    with pytest.raises(ValueError, match=r"EMnistDataset: 'name' must be one of \['byclass'.*but got 'Letters'"):
        ds.EMnistDataset(str(tmp_path), "Letters")


def test_mnist_like_errors_name_the_dataset(tmp_path):
    write_mnist_like(str(tmp_path))
    path = os.path.join(tmp_path, "train-images-idx3-ubyte")
    data = open(path, "rb").read()
    open(path, "wb").write(data[:100])
    with pytest.raises(RuntimeError, match=r"^KMnistDataset: '.*train-images-idx3-ubyte' is truncated"):
        ds.KMnistDataset(str(tmp_path), usage="train").get_dataset_size()
    with pytest.raises(ValueError, match=r"FashionMnistDataset: 'usage' must be one of .* but got 'valid'"):
        ds.FashionMnistDataset(str(tmp_path), usage="valid")


def test_qmnist_usages_and_compat(tmp_path):
    data = write_qmnist(str(tmp_path))
    every = rows(ds.QMnistDataset(str(tmp_path), shuffle=False))
    # 'all' (the default): train, test, then nist
    assert [int(r[1]) for r in every] == [0, 1, 2, 1, 2, 2, 3]
    np.testing.assert_array_equal(every[3][0][..., 0], data["test"][0][0])
    assert every[0][0].shape == (28, 28, 1) and every[0][1].dtype == np.int32 and every[0][1].shape == ()
    full = rows(ds.QMnistDataset(str(tmp_path), usage="test", compat=False, shuffle=False))
    assert full[1][1].shape == (8,) and full[1][1].dtype == np.int32
    assert full[1][1].tolist() == [2, 109, 110, 111, 112, 113, 114, 115]
    assert labels_of(ds.QMnistDataset(str(tmp_path), usage="nist", shuffle=False)) == [2, 3]
    assert labels_of(ds.QMnistDataset(str(tmp_path), usage="train", shuffle=False)) == [0, 1, 2]
    # test10k/test50k split the test file at row 10,000 (MindSpore insists on the full-size file)
    assert ds.QMnistDataset(str(tmp_path), usage="test10k").get_dataset_size() == 2
    assert ds.QMnistDataset(str(tmp_path), usage="test50k").get_dataset_size() == 0
    with pytest.raises(TypeError, match="QMnistDataset: 'compat' must be a bool, but got int 1"):
        ds.QMnistDataset(str(tmp_path), compat=1)
    os.remove(os.path.join(tmp_path, "xnist-labels-idx2-int"))
    with pytest.raises(ValueError, match="QMnistDataset: file '.*xnist-labels-idx2-int' not found"):
        ds.QMnistDataset(str(tmp_path), usage="nist").get_dataset_size()


@pytest.mark.parametrize("compress", [False, True])
def test_usps_reads_libsvm_files(tmp_path, compress):
    data = write_usps(str(tmp_path), compress=compress)
    train = rows(ds.USPSDataset(str(tmp_path), usage="train", shuffle=False))
    assert [int(r[1]) for r in train] == [0, 9, 2]
    image, label = train[0]
    assert image.shape == (16, 16, 1) and image.dtype == np.uint8 and label.dtype == np.int32
    # MindSpore's first pixels for these values; (v + 1) / 2 * 255 truncated
    assert image.ravel()[:12].tolist() == [71, 117, 31, 133, 104, 18, 25, 251, 176, 114, 163, 68]
    expected = ((data["train"][0][0].astype(np.float32) + 1) / 2 * 255).astype(np.uint8)
    np.testing.assert_array_equal(image.ravel(), expected)
    # both files, the training file first (MindSpore with one worker; more workers interleave the files)
    assert labels_of(ds.USPSDataset(str(tmp_path), shuffle=False)) == [0, 9, 2, 6, 1]
    assert sorted(labels_of(ds.USPSDataset(str(tmp_path), shuffle=ds.Shuffle.FILES))) == [0, 1, 2, 6, 9]
    assert ds.USPSDataset(str(tmp_path), usage="test").get_dataset_size() == 2
    with pytest.raises(TypeError, match="USPSDataset: 'shuffle' must be a bool, Shuffle.GLOBAL or Shuffle.FILES"):
        ds.USPSDataset(str(tmp_path), shuffle=ds.Shuffle.INFILE)


def test_usps_bad_line(tmp_path):
    write_usps(str(tmp_path))
    with open(os.path.join(tmp_path, "usps.t"), "a") as f:
        f.write("3 1:0.5 2:0.25\n")
    with pytest.raises(RuntimeError, match=r"USPSDataset: '.*usps.t' line 3 has 2 'index:value' fields, expected 256"):
        ds.USPSDataset(str(tmp_path), usage="test").get_dataset_size()


def test_semeion(tmp_path):
    bits, labels = write_semeion(str(tmp_path))
    got = rows(ds.SemeionDataset(str(tmp_path), shuffle=False))
    assert [int(r[1]) for r in got] == [4, 0, 9]
    image, label = got[0]
    # MindSpore: (16, 16) of 0/1, no channel axis
    assert image.shape == (16, 16) and image.dtype == np.uint8 and label.dtype == np.int32
    assert image.ravel()[:12].tolist() == [0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1]
    np.testing.assert_array_equal(image.ravel(), bits[0])
    assert ds.SemeionDataset(str(tmp_path), num_shards=3, shard_id=1).get_dataset_size() == 1


def test_stl10_usages(tmp_path):
    data = write_stl10(str(tmp_path))
    every = rows(ds.STL10Dataset(str(tmp_path), shuffle=False))
    # 'all': test, train, unlabeled; labels - 1, and -1 for unlabeled images
    assert [int(r[1]) for r in every] == [3, 0, 9, -1]
    image, label = every[1]
    assert image.shape == (96, 96, 3) and image.dtype == np.uint8 and label.dtype == np.int32
    assert image.ravel()[:12].tolist() == [143, 186, 221, 186, 150, 56, 5, 198, 40, 177, 221, 51]
    np.testing.assert_array_equal(image, data["train"][0][0])
    assert labels_of(ds.STL10Dataset(str(tmp_path), usage="train+unlabeled", shuffle=False)) == [0, 9, -1]
    assert labels_of(ds.STL10Dataset(str(tmp_path), usage="unlabeled", shuffle=False)) == [-1]
    with pytest.raises(ValueError, match="STL10Dataset: 'usage' must be one of"):
        ds.STL10Dataset(str(tmp_path), usage="extra")
