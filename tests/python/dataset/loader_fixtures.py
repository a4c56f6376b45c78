"""Tiny files in the published formats of the datasets test_dataset_loaders_more.py reads.

Only NumPy and the standard library: the same writers made the files that MindSpore 2.10 read while
the expected values in the tests were taken down.
"""
import bz2
import json
import os
import struct

import numpy as np


def write_idx_images(path, images):
    n, h, w = images.shape
    with open(path, "wb") as f:
        f.write(struct.pack(">IIII", 0x803, n, h, w) + images.astype(np.uint8).tobytes())


def write_idx_labels(path, labels):
    with open(path, "wb") as f:
        f.write(struct.pack(">II", 0x801, len(labels)) + np.asarray(labels, np.uint8).tobytes())


def write_idx_int_matrix(path, matrix):
    """QMNIST's labels: an IDX file of big-endian int32 (type 0x0C), two dimensions."""
    matrix = np.asarray(matrix, ">i4")
    with open(path, "wb") as f:
        f.write(struct.pack(">III", 0xC02, *matrix.shape) + matrix.tobytes())


def images(seed, n, h=28, w=28):
    return np.random.default_rng(seed).integers(0, 256, (n, h, w)).astype(np.uint8)


def write_mnist_like(folder, prefix_train="train", prefix_test="t10k", train=(4, [3, 1, 4, 1]), test=(2, [5, 9])):
    """The files MNIST, Fashion-MNIST and KMNIST share; returns {usage: (images, labels)}."""
    out = {}
    for seed, (usage, prefix, (n, labels)) in enumerate((("train", prefix_train, train), ("test", prefix_test, test))):
        imgs = images(seed, n)
        write_idx_images(os.path.join(folder, f"{prefix}-images-idx3-ubyte"), imgs)
        write_idx_labels(os.path.join(folder, f"{prefix}-labels-idx1-ubyte"), labels)
        out[usage] = (imgs, np.asarray(labels))
    return out


def write_emnist(folder, name):
    return write_mnist_like(folder, f"emnist-{name}-train", f"emnist-{name}-test")


def qmnist_labels(n, first):
    """n rows of QMNIST's 8 label columns: class, NIST hsf, writer, digit index, NIST class, ..."""
    rows = np.arange(n * 8, dtype=np.int32).reshape(n, 8) + 100 * first
    rows[:, 0] = (np.arange(n) + first) % 10
    return rows


def write_qmnist(folder):
    out = {}
    for seed, (usage, prefix, n) in enumerate((("train", "qmnist-train", 3), ("test", "qmnist-test", 2),
                                               ("nist", "xnist", 2))):
        imgs = images(10 + seed, n)
        labels = qmnist_labels(n, seed)
        write_idx_images(os.path.join(folder, f"{prefix}-images-idx3-ubyte"), imgs)
        write_idx_int_matrix(os.path.join(folder, f"{prefix}-labels-idx2-int"), labels)
        out[usage] = (imgs, labels)
    return out


def usps_values(seed, n):
    """USPS pixels as its libsvm files hold them: floats in [-1, 1], six decimals."""
    return np.round(np.random.default_rng(seed).uniform(-1, 1, (n, 256)), 6)


def write_usps(folder, compress=False):
    out = {}
    for seed, (usage, name, labels) in enumerate((("train", "usps", [1, 10, 3]), ("test", "usps.t", [7, 2]))):
        values = usps_values(20 + seed, len(labels))
        # libsvm lines as USPS has them: a space after the last value too (MindSpore requires it)
        lines = [f"{label} " + " ".join(f"{i + 1}:{v:.6f}" for i, v in enumerate(row)) + " "
                 for label, row in zip(labels, values)]
        data = ("\n".join(lines) + "\n").encode()
        if compress:
            with open(os.path.join(folder, name + ".bz2"), "wb") as f:
                f.write(bz2.compress(data))
        else:
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)
        out[usage] = (values, np.asarray(labels))
    return out


def write_semeion(folder, n=3):
    rng = np.random.default_rng(30)
    bits = rng.integers(0, 2, (n, 256))
    labels = [4, 0, 9][:n]
    with open(os.path.join(folder, "semeion.data"), "w") as f:
        for row, label in zip(bits, labels):
            onehot = ["1" if k == label else "0" for k in range(10)]
            f.write(" ".join(f"{b}.0000" for b in row) + " " + " ".join(onehot) + " \n")
    return bits, np.asarray(labels)


def write_stl10(folder):
    """STL-10's binary files: images column-major (3, 96, 96) per record, labels 1..10 one byte each."""
    out = {}
    for seed, (usage, n, labels) in enumerate((("train", 2, [1, 10]), ("test", 1, [4]), ("unlabeled", 1, None))):
        imgs = np.random.default_rng(40 + seed).integers(0, 256, (n, 3, 96, 96)).astype(np.uint8)
        with open(os.path.join(folder, f"{usage}_X.bin"), "wb") as f:
            f.write(imgs.transpose(0, 1, 3, 2).tobytes())  # each channel stored column by column
        if labels is not None:
            with open(os.path.join(folder, f"{usage}_y.bin"), "wb") as f:
                f.write(np.asarray(labels, np.uint8).tobytes())
        out[usage] = (imgs.transpose(0, 2, 3, 1), labels)
    return out


# --- image datasets with annotations -------------------------------------------------------------------
def write_bytes(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def fake_image_bytes(k):
    """Distinct small byte strings standing in for JPEGs (their first three bytes are what loaders check)."""
    return bytes([0xFF, 0xD8, 0xFF, k, k + 1, k + 2, 0xFF, 0xD9])


def write_coco(folder):
    os.makedirs(os.path.join(folder, "images"), exist_ok=True)
    for k, name in enumerate(["000000000009.jpg", "000000000025.jpg", "000000000030.jpg"]):
        write_bytes(os.path.join(folder, "images", name), fake_image_bytes(k))
    images = [{"id": 9, "file_name": "000000000009.jpg", "height": 4, "width": 5},
              {"id": 25, "file_name": "000000000025.jpg", "height": 4, "width": 5},
              {"id": 30, "file_name": "000000000030.jpg", "height": 4, "width": 5}]
    detection = {
        "images": images,
        "annotations": [
            {"id": 1, "image_id": 9, "bbox": [1.0, 2.0, 3.0, 4.0], "category_id": 1, "iscrowd": 0, "area": 12.0,
             "segmentation": [[1.0, 2.0, 3.0, 2.0, 3.0, 5.0]], "num_keypoints": 1,
             "keypoints": [1, 2, 2, 0, 0, 0]},
            {"id": 2, "image_id": 9, "bbox": [5.5, 6.5, 7.5, 8.5], "category_id": 3, "iscrowd": 1, "area": 30.0,
             "segmentation": [[4.0, 4.0, 6.0, 4.0, 6.0, 6.0, 4.0, 6.0]], "num_keypoints": 2,
             "keypoints": [3, 4, 2, 5, 6, 1]},
            {"id": 3, "image_id": 25, "bbox": [0.0, 0.0, 2.0, 2.0], "category_id": 2, "iscrowd": 0, "area": 4.0,
             "segmentation": [[0.0, 0.0, 2.0, 0.0, 2.0, 2.0]], "num_keypoints": 0,
             "keypoints": [0, 0, 0, 0, 0, 0]},
            {"id": 4, "image_id": 30, "bbox": [1.0, 1.0, 1.0, 1.0], "category_id": 1, "iscrowd": 0, "area": 1.0,
             "segmentation": [[1.0, 1.0, 2.0, 1.0, 2.0, 2.0]], "num_keypoints": 1,
             "keypoints": [1, 1, 2, 0, 0, 0]},
        ],
        "categories": [{"id": 1, "name": "person", "supercategory": "human"},
                       {"id": 2, "name": "car", "supercategory": "vehicle"},
                       {"id": 3, "name": "dog", "supercategory": "animal"}],
    }
    captions = {"images": images, "annotations": [
        {"id": 11, "image_id": 9, "caption": "A cat on a mat."},
        {"id": 12, "image_id": 25, "caption": "Two cars."},
        {"id": 13, "image_id": 9, "caption": "A mat with a cat."},
        {"id": 14, "image_id": 30, "caption": "A person."},
    ]}
    # Stuff annotations: polygons of different lengths (crowd regions, which hold RLE counts, left out)
    stuff = {"images": images, "annotations": [
        dict(a, iscrowd=0) for a in detection["annotations"]], "categories": detection["categories"]}
    paths = {}
    for task, content in (("detection", detection), ("captions", captions), ("stuff", stuff)):
        paths[task] = os.path.join(folder, f"{task}.json")
        with open(paths[task], "w") as f:
            json.dump(content, f)
    return os.path.join(folder, "images"), paths


VOC_XML = """<annotation>
  <filename>{name}.jpg</filename>
  <size><width>10</width><height>8</height><depth>3</depth></size>
{objects}</annotation>
"""
VOC_OBJECT = """  <object>
    <name>{label}</name>
    <truncated>{truncated}</truncated>
    <difficult>{difficult}</difficult>
    <bndbox><xmin>{xmin}</xmin><ymin>{ymin}</ymin><xmax>{xmax}</xmax><ymax>{ymax}</ymax></bndbox>
  </object>
"""


def write_voc(folder):
    names = ["2007_000027", "2007_000032"]
    objects = {"2007_000027": [("person", 0, 0, (2, 3, 6, 7))],
               "2007_000032": [("aeroplane", 1, 0, (1, 1, 9, 5)), ("person", 0, 1, (4, 2, 5, 8))]}
    for k, name in enumerate(names):
        write_bytes(os.path.join(folder, "JPEGImages", f"{name}.jpg"), fake_image_bytes(k))
        write_bytes(os.path.join(folder, "SegmentationClass", f"{name}.png"), fake_image_bytes(50 + k))
        body = "".join(VOC_OBJECT.format(label=lab, truncated=t, difficult=d, xmin=b[0], ymin=b[1], xmax=b[2],
                                         ymax=b[3]) for lab, t, d, b in objects[name])
        write_bytes(os.path.join(folder, "Annotations", f"{name}.xml"),
                    VOC_XML.format(name=name, objects=body).encode())
    for task in ("Segmentation", "Main"):
        write_bytes(os.path.join(folder, "ImageSets", task, "train.txt"), ("\n".join(names) + "\n").encode())
        write_bytes(os.path.join(folder, "ImageSets", task, "val.txt"), (names[1] + "\n").encode())
    return names, objects


def write_celeba(folder):
    names = ["000001.jpg", "000002.jpg", "000003.jpg"]
    for k, name in enumerate(names):
        write_bytes(os.path.join(folder, name), fake_image_bytes(k))
    attrs = [[1, -1, 1], [-1, -1, 1], [1, 1, -1]]
    lines = ["3", "5_o_Clock_Shadow Arched_Eyebrows Attractive"]
    lines += [f"{n} " + " ".join(f"{a:2d}" for a in row) for n, row in zip(names, attrs)]
    write_bytes(os.path.join(folder, "list_attr_celeba.txt"), ("\n".join(lines) + "\n").encode())
    write_bytes(os.path.join(folder, "list_eval_partition.txt"),
                "".join(f"{n} {p}\n" for n, p in zip(names, [0, 1, 2])).encode())
    return names, attrs


def write_manifest(folder):
    entries = []
    for k, (usage, labels) in enumerate((("train", ["dog"]), ("train", ["cat", "dog"]), ("eval", ["cat"]),
                                          ("train", ["bird"]))):
        path = os.path.join(folder, f"img{k}.jpg")
        write_bytes(path, fake_image_bytes(k))
        entries.append({"source": path, "usage": usage.upper(),
                        "annotation": [{"type": "modelarts/image_classification", "name": n} for n in labels]})
    manifest = os.path.join(folder, "data.manifest")
    with open(manifest, "w") as f:
        f.write("".join(json.dumps(e) + "\n" for e in entries))
    return manifest, entries


# --- text datasets ----------------------------------------------------------------------------------------------
CSV_TEXT_DATASETS = {  # name: (its files, its number of columns)
    "AGNewsDataset": (("train.csv", "test.csv"), 3), "AmazonReviewDataset": (("train.csv", "test.csv"), 3),
    "DBpediaDataset": (("train.csv", "test.csv"), 3), "SogouNewsDataset": (("train.csv", "test.csv"), 3),
    "YahooAnswersDataset": (("train.csv", "test.csv"), 4), "YelpReviewDataset": (("train.csv", "test.csv"), 2),
}


def write_csv_text(folder, name):
    """Quoted CSV records as the torchtext/Xiang Zhang text-classification sets have them (no header)."""
    files, width = CSV_TEXT_DATASETS[name]
    out = {}
    for f, n in zip(files, (2, 1)):
        records = [[str(k + 1)] + [f"{f[:-4]} r{k} c{c}, with \"\"quotes\"\"" for c in range(1, width)]
                   for k in range(n)]
        with open(os.path.join(folder, f), "w") as fh:
            fh.write("".join(",".join(f'"{v}"' for v in r) + "\n" for r in records))
        out[f] = [[v.replace('""', '"') for v in r] for r in records]
    return out


def write_lines(folder, files):
    """Text files of lines (Penn Treebank, WikiText, EnWik9), with a blank line in each."""
    out = {}
    for f in files:
        lines = [f" {f} line one ", "", f"{f} line three"]
        with open(os.path.join(folder, f), "w") as fh:
            fh.write("\n".join(lines) + "\n")
        out[f] = lines
    return out
