"""The dataset loaders beyond MNIST/CIFAR/ImageFolder, against tiny files in each published format
(loader_fixtures.py). The expected column names, dtypes, shapes, row orders and values are what
MindSpore 2.10 gave on the same files, except that its uint32 columns are int32 here (Sprout has no
uint32 tensors)."""
import json
import os

import numpy as np
import pytest

import sprout.dataset as ds
from sprout import _C
from loader_fixtures import (CSV_TEXT_DATASETS, fake_image_bytes, write_celeba, write_coco, write_csv_text,
                             write_emnist, write_lines, write_manifest, write_mnist_like, write_qmnist, write_semeion,
                             write_stl10, write_usps, write_voc)


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


# --- image datasets with annotations --------------------------------------------------------------------------
def as_lists(row):
    return [c.tolist() for c in row[1:]]


def test_coco_detection(tmp_path):
    images, annotations = write_coco(str(tmp_path))
    d = ds.CocoDataset(images, annotations["detection"], shuffle=False)
    assert d.get_col_names() == ["image", "bbox", "category_id", "iscrowd"]
    got = rows(d)
    assert len(got) == 3 and got[0][0].dtype == np.uint8 and got[0][0].tobytes() == fake_image_bytes(0)
    assert got[0][1].dtype == np.float32 and got[0][1].shape == (2, 4)
    assert got[0][2].dtype == np.int32 and got[0][2].shape == (2, 1)
    # MindSpore's rows for this file (category_id and iscrowd are uint32 there)
    assert as_lists(got[0]) == [[[1.0, 2.0, 3.0, 4.0], [5.5, 6.5, 7.5, 8.5]], [[1], [3]], [[0], [1]]]
    assert as_lists(got[1]) == [[[0.0, 0.0, 2.0, 2.0]], [[2]], [[0]]]
    assert as_lists(got[2]) == [[[1.0, 1.0, 1.0, 1.0]], [[1]], [[0]]]
    assert d.get_class_indexing() == {"person": [1], "car": [2], "dog": [3]}
    meta = ds.CocoDataset(images, annotations["detection"], shuffle=False, extra_metadata=True)
    assert meta.get_col_names()[-1] == "_meta-filename"
    assert [str(r[-1]) for r in rows(meta)] == ["000000000009", "000000000025", "000000000030"]


def test_coco_other_tasks(tmp_path):
    images, annotations = write_coco(str(tmp_path))
    keypoints = rows(ds.CocoDataset(images, annotations["detection"], task="Keypoint", shuffle=False))
    assert as_lists(keypoints[0]) == [[[1.0, 2.0, 2.0, 0.0, 0.0, 0.0], [3.0, 4.0, 2.0, 5.0, 6.0, 1.0]], [[1], [2]]]
    assert keypoints[0][1].dtype == np.float32 and keypoints[0][2].dtype == np.int32
    stuff = rows(ds.CocoDataset(images, annotations["stuff"], task="Stuff", shuffle=False))
    # polygons of different lengths, padded with -1 (MindSpore's rows)
    assert as_lists(stuff[0]) == [[[1.0, 2.0, 3.0, 2.0, 3.0, 5.0, -1.0, -1.0],
                                   [4.0, 4.0, 6.0, 4.0, 6.0, 6.0, 4.0, 6.0]], [[0], [0]]]
    assert as_lists(stuff[1]) == [[[0.0, 0.0, 2.0, 0.0, 2.0, 2.0]], [[0]]]
    captions = ds.CocoDataset(images, annotations["captions"], task="Captioning", shuffle=False)
    assert captions.get_col_names() == ["image", "captions"]
    got = rows(captions)
    assert got[0][1].shape == (2, 1) and got[0][1].dtype.kind == "U"
    assert [r[1].ravel().tolist() for r in got] == [["A cat on a mat.", "A mat with a cat."], ["Two cars."],
                                                      ["A person."]]
    # a crowd region's segmentation is RLE, and MindSpore's reader insists on its counts
    with pytest.raises(RuntimeError, match="CocoDataset: an annotation of image '000000000009.jpg' .* has no "
                                           "'segmentation.counts' attribute, which task 'Stuff' needs"):
        ds.CocoDataset(images, annotations["detection"], task="Stuff").get_dataset_size()
    with pytest.raises(ValueError, match="get_class_indexing needs task 'Detection', 'Stuff' or 'Panoptic'"):
        captions.get_class_indexing()


def test_coco_panoptic_and_bad_arguments(tmp_path):
    images, annotations = write_coco(str(tmp_path))
    panoptic = os.path.join(tmp_path, "panoptic.json")
    with open(panoptic, "w") as f:
        f.write('{"images": [{"id": 9, "file_name": "000000000009.jpg"}], "annotations": [{"image_id": 9, '
                '"file_name": "000000000009.png", "segments_info": [{"id": 5, "category_id": 2, "area": 40, '
                '"bbox": [1, 2, 3, 4], "iscrowd": 0}]}], "categories": [{"id": 2, "name": "car", "isthing": 1}]}')
    d = ds.CocoDataset(images, panoptic, task="Panoptic", shuffle=False)
    assert d.get_col_names() == ["image", "bbox", "category_id", "iscrowd", "area"]
    assert as_lists(rows(d)[0]) == [[[1.0, 2.0, 3.0, 4.0]], [[2]], [[0]], [[40]]]
    assert d.get_class_indexing() == {"car": [2, 1]}
    with pytest.raises(ValueError, match=r"CocoDataset: 'task' must be one of \['Detection'.*but got 'detection'"):
        ds.CocoDataset(images, annotations["detection"], task="detection")
    with pytest.raises(ValueError, match="CocoDataset: annotation_file '.*missing.json' is not a file"):
        ds.CocoDataset(images, os.path.join(tmp_path, "missing.json"))
    with pytest.raises(ValueError, match="CocoDataset: 'decrypt'"):
        ds.CocoDataset(images, annotations["detection"], decrypt=lambda p: b"")


def test_coco_decode_runs_the_engines_decoder(tmp_path):
    images, annotations = write_coco(str(tmp_path))
    picture = np.random.default_rng(5).integers(0, 256, (4, 5, 3), dtype=np.uint8)
    with open(os.path.join(images, "000000000025.jpg"), "wb") as f:
        f.write(_C.dataset.encode_image(picture, ".png").tobytes())  # PNG bytes: lossless, and Decode sniffs them
    d = ds.CocoDataset(images, annotations["detection"], decode=True, sampler=ds.SubsetSampler([1]))
    image, bbox, _, _ = rows(d)[0]
    np.testing.assert_array_equal(image, picture)
    assert bbox.tolist() == [[0.0, 0.0, 2.0, 2.0]]


def test_voc_segmentation_and_detection(tmp_path):
    write_voc(str(tmp_path))
    seg = ds.VOCDataset(str(tmp_path), shuffle=False)
    assert seg.get_col_names() == ["image", "target"]
    got = rows(seg)
    assert [r[0].tobytes() for r in got] == [fake_image_bytes(0), fake_image_bytes(1)]
    assert [r[1].tobytes() for r in got] == [fake_image_bytes(50), fake_image_bytes(51)]
    det = ds.VOCDataset(str(tmp_path), task="Detection", shuffle=False)
    assert det.get_col_names() == ["image", "bbox", "label", "difficult", "truncate"]
    got = rows(det)
    # MindSpore: bbox as [xmin, ymin, width, height]; labels by sorted object name
    assert as_lists(got[0]) == [[[2.0, 3.0, 4.0, 4.0]], [[1]], [[0]], [[0]]]
    assert as_lists(got[1]) == [[[1.0, 1.0, 8.0, 4.0], [4.0, 2.0, 1.0, 6.0]], [[0], [1]], [[0], [1]], [[1], [0]]]
    assert got[1][1].dtype == np.float32 and got[1][2].dtype == np.int32
    assert det.get_class_indexing() == {"aeroplane": 0, "person": 1}
    val = rows(ds.VOCDataset(str(tmp_path), task="Detection", usage="val", shuffle=False))
    assert len(val) == 1 and val[0][0].tobytes() == fake_image_bytes(1)
    indexed = rows(ds.VOCDataset(str(tmp_path), task="Detection", class_indexing={"person": 7, "aeroplane": 2},
                                 shuffle=False))
    assert [r[2].ravel().tolist() for r in indexed] == [[7], [2, 7]]
    with pytest.raises(RuntimeError, match=r"VOCDataset: '2007_000032.xml' has objects named \['aeroplane'\]"):
        ds.VOCDataset(str(tmp_path), task="Detection", class_indexing={"person": 0}).get_dataset_size()
    with pytest.raises(ValueError, match="VOCDataset: 'class_indexing' is only for task 'Detection'"):
        ds.VOCDataset(str(tmp_path), class_indexing={"person": 0})
    with pytest.raises(ValueError, match="VOCDataset: file '.*ImageSets/Main/trainval.txt' not found"):
        ds.VOCDataset(str(tmp_path), task="Detection", usage="trainval").get_dataset_size()
    meta = rows(ds.VOCDataset(str(tmp_path), shuffle=False, extra_metadata=True))
    assert [str(r[-1]) for r in meta] == ["2007_000027", "2007_000032"]


def test_celeba(tmp_path):
    names, attrs = write_celeba(str(tmp_path))
    d = ds.CelebADataset(str(tmp_path), shuffle=False)
    assert d.get_col_names() == ["image", "attr"]
    got = rows(d)
    # MindSpore: attr one-hot (1 -> 1, -1 -> 0), uint32 there
    assert [r[1].tolist() for r in got] == [[1, 0, 1], [0, 0, 1], [1, 1, 0]]
    assert got[0][1].dtype == np.int32 and got[0][0].tobytes() == fake_image_bytes(0)
    for usage, k in (("train", 0), ("valid", 1), ("test", 2)):
        part = rows(ds.CelebADataset(str(tmp_path), usage=usage, shuffle=False))
        assert [r[0].tobytes() for r in part] == [fake_image_bytes(k)]
    assert ds.CelebADataset(str(tmp_path), extensions=[".png"]).get_dataset_size() == 0
    with pytest.raises(ValueError, match="CelebADataset: 'usage' must be one of"):
        ds.CelebADataset(str(tmp_path), usage="val")


def test_manifest(tmp_path):
    manifest, _ = write_manifest(str(tmp_path))
    d = ds.ManifestDataset(manifest, shuffle=False)
    got = rows(d)
    # MindSpore: labels numbered in sorted name order; two labels give a (2,) label
    assert [r[1].tolist() for r in got] == [2, [1, 2], 0]
    assert got[0][1].dtype == np.int32 and got[0][1].shape == () and got[1][1].shape == (2,)
    assert [r[0].tobytes() for r in got] == [fake_image_bytes(0), fake_image_bytes(1), fake_image_bytes(3)]
    assert d.get_class_indexing() == {"bird": 0, "cat": 1, "dog": 2}
    evaluation = rows(ds.ManifestDataset(manifest, usage="eval", shuffle=False))
    assert [r[1].tolist() for r in evaluation] == [0]  # the only name seen in 'eval' is cat
    indexed = ds.ManifestDataset(manifest, class_indexing={"dog": 5, "cat": 1, "bird": 0}, shuffle=False)
    assert [r[1].tolist() for r in rows(indexed)] == [5, [1, 5], 0]
    only_dogs = ds.ManifestDataset(manifest, class_indexing={"dog": 3}, shuffle=False)
    assert [r[1].tolist() for r in rows(only_dogs)] == [3, 3]
    with pytest.raises(RuntimeError, match="ManifestDataset: .* lists no JPEG/PNG/GIF/BMP image with a label for "
                                           "usage 'inference'"):
        ds.ManifestDataset(manifest, usage="inference").get_dataset_size()


# --- Schema and the generated sources ----------------------------------------------------------------------
def test_schema_json_round_trip(tmp_path):
    import sprout as ms

    schema = ds.Schema()
    schema.add_column("image", de_type=ms.uint8, shape=[2])
    schema.add_column("label", de_type="int32", shape=[1])
    schema.add_column("f", de_type=ms.float32)
    # MindSpore's text for this schema: a column without a shape is written with rank 1 and no shape
    assert json.loads(schema.to_json()) == {"columns": [
        {"name": "image", "rank": 1, "shape": [2], "type": "uint8"},
        {"name": "label", "rank": 1, "shape": [1], "type": "int32"},
        {"name": "f", "rank": 1, "type": "float32"}]}
    assert str(schema) == schema.to_json()
    path = os.path.join(tmp_path, "schema.json")
    with open(path, "w") as f:
        f.write(schema.to_json())
    loaded = ds.Schema(path)
    # ... and read back as a scalar (rank 0, shape []), as MindSpore does
    assert json.loads(loaded.to_json())["columns"][2] == {"name": "f", "rank": 0, "shape": [], "type": "float32"}
    loaded.from_json({"columns": {"x": {"type": "int64", "shape": [3]}}, "numRows": 7})
    assert loaded.get_num_rows() == 7 and json.loads(loaded.to_json())["columns"] == [
        {"name": "x", "rank": 1, "shape": [3], "type": "int64"}]
    with pytest.raises(ValueError, match=r"Schema.add_column: type 'float' is not one of the schema types"):
        schema.add_column("g", "float")
    with pytest.raises(TypeError, match="Schema.add_column: 'shape' must be a list of ints"):
        schema.add_column("g", "float32", shape=3)
    with pytest.raises(RuntimeError, match="Schema: schema_file '.*nowhere.json' does not exist"):
        ds.Schema(os.path.join(tmp_path, "nowhere.json"))


def test_random_dataset_follows_its_schema(tmp_path):
    import sprout as ms

    schema = ds.Schema()
    schema.add_column("image", de_type=ms.uint8, shape=[2])
    schema.add_column("label", de_type=ms.int32, shape=[1])
    schema.add_column("x", de_type=ms.float32, shape=[2, 3])
    d = ds.RandomDataset(schema=schema, total_rows=5, shuffle=False)
    assert d.get_col_names() == ["image", "label", "x"] and d.get_dataset_size() == 5
    got = rows(d)
    assert [(c.dtype, c.shape) for c in got[0]] == [(np.uint8, (2,)), (np.int32, (1,)), (np.float32, (2, 3))]
    assert all(((r[2] >= 0) & (r[2] < 1)).all() for r in got)
    again = rows(ds.RandomDataset(schema=schema, total_rows=5, shuffle=False))
    assert all(np.array_equal(a, b) for ra, rb in zip(got, again) for a, b in zip(ra, rb))  # same seed, same rows
    picked = ds.RandomDataset(schema=schema, total_rows=4, columns_list=["label", "image"])
    assert picked.get_col_names() == ["label", "image"]
    assert [(c.dtype, c.shape) for c in rows(picked)[0]] == [(np.int32, (1,)), (np.uint8, (2,))]
    free = ds.RandomDataset(total_rows=3)
    assert free.get_col_names()[0] == "c0" and len(rows(free)) == 3
    assert len({r[0].shape for r in rows(free)}) == 1  # one random shape per column, so rows batch
    schema.add_column("s", de_type="string", shape=[1])
    with pytest.raises(ValueError, match="RandomDataset: column 's' has type 'string'; Sprout's tensors cannot hold"):
        ds.RandomDataset(schema=schema, total_rows=2)
    with pytest.raises(ValueError, match=r"RandomDataset: columns_list names \['y'\], which the schema lacks"):
        ds.RandomDataset(schema=schema, columns_list=["y"])


def test_fake_image_dataset():
    d = ds.FakeImageDataset(num_images=4, image_size=(3, 4, 3), num_classes=5, base_seed=0, shuffle=False)
    assert d.get_col_names() == ["image", "label"] and d.get_dataset_size() == 4
    got = rows(d)
    assert got[0][0].shape == (3, 4, 3) and got[0][0].dtype == np.uint8 and got[0][1].dtype == np.int32
    assert all(0 <= int(r[1]) < 5 for r in got)
    # image i depends on base_seed + i only: the same under any sampler, shifted by base_seed
    shuffled = rows(ds.FakeImageDataset(4, (3, 4, 3), 5, shuffle=True))
    assert sorted(r[0].tobytes() for r in shuffled) == sorted(r[0].tobytes() for r in got)
    shifted = rows(ds.FakeImageDataset(num_images=3, image_size=(3, 4, 3), num_classes=5, base_seed=1, shuffle=False))
    np.testing.assert_array_equal(shifted[0][0], got[1][0])
    subset = rows(ds.FakeImageDataset(4, (3, 4, 3), 5, sampler=ds.SubsetSampler([2])))
    np.testing.assert_array_equal(subset[0][0], got[2][0])
    with pytest.raises(ValueError, match=r"FakeImageDataset: 'image_size' must be 3 positive ints .* but got \(3, 4\)"):
        ds.FakeImageDataset(image_size=(3, 4))


def test_padded_dataset_pads_shards():
    samples = [{"image": np.zeros(2, np.uint8), "label": np.array(-1, np.int32)},
               {"image": np.ones(3, np.uint8), "label": np.array(-1, np.int32)}]
    padded = ds.PaddedDataset(samples)
    assert padded.get_col_names() == ["image", "label"] and padded.get_dataset_size() == 2
    got = rows(padded)
    assert got[1][0].tolist() == [1, 1, 1] and got[1][1].dtype == np.int32 and got[1][1].shape == ()
    plain = rows(ds.PaddedDataset([{"b": 1, "a": 2.5}]))[0]
    assert (plain[0].dtype, plain[1].dtype) == (np.int64, np.float64)  # NumPy's types for Python numbers
    data = ds.NumpySlicesDataset({"image": np.arange(6, dtype=np.uint8).reshape(3, 2),
                                  "label": np.arange(3, dtype=np.int32)}, shuffle=False)
    whole = data + ds.PaddedDataset([{"image": np.zeros(2, np.uint8), "label": np.array(-1, np.int32)}])
    assert [int(r[1]) for r in rows(whole)] == [0, 1, 2, -1]
    with pytest.raises(ValueError, match="PaddedDataset: 'padded_samples' must not be empty"):
        ds.PaddedDataset([])
    with pytest.raises(TypeError, match="PaddedDataset: padded_samples\\[0\\] must be a dict, but got int"):
        ds.PaddedDataset([1])
    with pytest.raises(ValueError, match=r"PaddedDataset: padded_samples\[1\] has columns \['x'\]"):
        ds.PaddedDataset([{"a": 1}, {"x": 2}])


# --- config ---------------------------------------------------------------------------------------------------
def test_config_settings_keep_mindspores_defaults_and_values():
    c = ds.config
    # MindSpore 2.10's defaults
    assert c.get_callback_timeout() == 60 and c.get_debug_mode() is False and c.get_enable_watchdog() is True
    assert c.get_error_samples_mode() == c.ErrorSamplesMode.RETURN
    assert c.get_multiprocessing_start_method() == "fork" and c.get_multiprocessing_timeout_interval() == 300
    assert c.get_video_backend() == "CPU" and c.get_auto_num_workers() is False and c.get_auto_offload() is False
    assert c.get_autotune_interval() == 0 and c.get_enable_autotune() is False and c.get_enable_shared_mem() is True
    assert c.get_fast_recovery() is True and c.get_monitor_sampling_interval() == 1000
    assert c.get_numa_enable() is False and c.get_dynamic_shape() is False
    assert c.get_iterator_mode() == {"do_copy": False, "parallel_convert": False}
    c.set_callback_timeout(3)
    c.set_debug_mode(True)
    c.set_enable_watchdog(False)
    c.set_error_samples_mode(c.ErrorSamplesMode.SKIP)
    c.set_multiprocessing_start_method("spawn")
    c.set_multiprocessing_timeout_interval(10)
    c.set_video_backend("Ascend")
    c.set_iterator_mode(do_copy=True)
    c.set_sending_batches(4)
    assert (c.get_callback_timeout(), c.get_debug_mode(), c.get_enable_watchdog(), c.get_error_samples_mode(),
            c.get_multiprocessing_start_method(), c.get_multiprocessing_timeout_interval(),
            c.get_video_backend()) == (3, True, False, c.ErrorSamplesMode.SKIP, "spawn", 10, "Ascend")
    assert c.get_iterator_mode() == {"do_copy": True, "parallel_convert": False}


def test_config_settings_check_their_values():
    c = ds.config
    with pytest.raises(ValueError, match=r"config.set_callback_timeout: 'timeout' must be in \[1, 2147483647\], "
                                         "but got 0"):
        c.set_callback_timeout(0)
    with pytest.raises(TypeError, match="config.set_callback_timeout: 'timeout' must be an int, but got bool True"):
        c.set_callback_timeout(True)
    with pytest.raises(ValueError, match=r"config.set_video_backend: 'backend' must be one of \['CPU', 'Ascend'\]"):
        c.set_video_backend("GPU")
    with pytest.raises(ValueError, match="config.set_multiprocessing_start_method: 'start_method' must be one of"):
        c.set_multiprocessing_start_method("forkserver")
    with pytest.raises(TypeError, match="config.set_error_samples_mode: 'error_samples_mode' must be an "
                                        "ErrorSamplesMode, but got int 1"):
        c.set_error_samples_mode(1)
    with pytest.raises(TypeError, match="config.set_enable_watchdog: 'enable' must be a bool, but got int 1"):
        c.set_enable_watchdog(1)
    with pytest.raises(ValueError, match="config.set_autotune_interval: 'interval' must be in"):
        c.set_autotune_interval(-1)


# --- text corpora ------------------------------------------------------------------------------------------------
CSV_COLUMNS = {"AGNewsDataset": ["index", "title", "description"], "AmazonReviewDataset": ["label", "title", "content"],
               "DBpediaDataset": ["class", "title", "content"], "SogouNewsDataset": ["index", "title", "content"],
               "YahooAnswersDataset": ["class", "title", "content", "answer"], "YelpReviewDataset": ["label", "text"]}


@pytest.mark.parametrize("name", sorted(CSV_TEXT_DATASETS))
def test_csv_text_corpora(name, tmp_path):
    records = write_csv_text(str(tmp_path), name)
    cls = getattr(ds, name)
    d = cls(str(tmp_path), shuffle=False)
    assert d.get_col_names() == CSV_COLUMNS[name] and d.get_dataset_size() == 3
    got = [[str(c) for c in r] for r in rows(d)]
    assert all(c.dtype.kind == "U" and c.shape == () for c in rows(d)[0])
    # MindSpore's order for 'all' (one worker): Sogou News and Yelp read train.csv first, the others test.csv
    first, second = (("train.csv", "test.csv") if name in ("SogouNewsDataset", "YelpReviewDataset")
                     else ("test.csv", "train.csv"))
    assert got == records[first] + records[second]
    assert got[0][1].endswith('with "quotes"')  # CSV's doubled quotes undone
    assert [[str(c) for c in r] for r in rows(cls(str(tmp_path), usage="train", shuffle=False))] == records["train.csv"]
    assert cls(str(tmp_path), usage="test").get_dataset_size() == 1
    assert sorted(map(tuple, ([str(c) for c in r] for r in rows(cls(str(tmp_path), shuffle=ds.Shuffle.FILES))))) == \
        sorted(map(tuple, got))


def test_line_corpora(tmp_path):
    ptb = write_lines(str(tmp_path), ["ptb.train.txt", "ptb.test.txt", "ptb.valid.txt"])
    got = [str(r[0]) for r in rows(ds.PennTreebankDataset(str(tmp_path), shuffle=False))]
    # MindSpore: sorted file order, blank lines skipped, spaces kept
    assert got == [line for f in ("ptb.test.txt", "ptb.train.txt", "ptb.valid.txt") for line in ptb[f] if line]
    assert got[0] == " ptb.test.txt line one "
    assert [str(r[0]) for r in rows(ds.PennTreebankDataset(str(tmp_path), usage="valid", shuffle=False))] == \
        [" ptb.valid.txt line one ", "ptb.valid.txt line three"]
    write_lines(str(tmp_path), ["wiki.train.tokens", "wiki.test.tokens", "wiki.valid.tokens"])
    wiki = ds.WikiTextDataset(str(tmp_path), usage="test", shuffle=False)
    assert wiki.get_col_names() == ["text"]
    assert [str(r[0]) for r in rows(wiki)] == [" wiki.test.tokens line one ", "wiki.test.tokens line three"]
    write_lines(str(tmp_path), ["enwik9"])
    # EnWik9 keeps blank lines (MindSpore iterates them; its get_dataset_size leaves them out)
    enwik = ds.EnWik9Dataset(str(tmp_path), shuffle=False)
    assert [str(r[0]) for r in rows(enwik)] == [" enwik9 line one ", "", "enwik9 line three"]
    assert enwik.get_dataset_size() == 3
    with pytest.raises(ValueError, match="PennTreebankDataset: 'usage' must be one of"):
        ds.PennTreebankDataset(str(tmp_path), usage="dev")
    os.remove(os.path.join(tmp_path, "wiki.valid.tokens"))
    with pytest.raises(ValueError, match="WikiTextDataset: file '.*wiki.valid.tokens' not found"):
        ds.WikiTextDataset(str(tmp_path))
