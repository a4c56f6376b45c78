"""Data pipelines (the dataset issue's two reference pipelines), in rows per
second: one epoch per step, over files the parent writes once per run (every
framework reads the same bytes).

  mnist: IDX files -> Rescale -> Normalize -> HWC2CHW -> batch 64, shuffled
  jpeg:  a JPEG folder of 4 classes -> Decode -> RandomResizedCrop 224 ->
         RandomHorizontalFlip -> Normalize -> HWC2CHW -> batch 32, shuffled

Sprout and MindSpore run the same `dataset` code (the APIs match) with
num_parallel_workers = the harness's thread count. PyTorch runs a DataLoader
with that many worker processes (persistent, as a training loop keeps them)
over a Dataset doing the same work per row; torchvision does not install beside
the local torch wheel, so the JPEG rows are decoded and transformed with Pillow,
following torchvision's RandomResizedCrop (area 8-100%, ratio 3/4-4/3,
bilinear). JAX and NumPy have no data pipeline.

Each step takes a NEW iterator over one epoch (for Sprout and MindSpore,
`create_tuple_iterator(num_epochs=1)`, what `for row in dataset` does). A
long-lived iterator would let a pipeline's threads fill their queues while the
harness measures another framework, so a sample would start with rows made in
someone else's time. A new iterator's start-up (threads, the pipeline tree) is
counted, as a user looping over epochs pays it. The step raises if an epoch
yields a wrong number of rows, so a framework dropping rows cannot look fast.
"""
import importlib
import os
import struct

from ..registry import workload

MNIST_ROWS, SMOKE_MNIST_ROWS = 10000, 256
JPEG_ROWS, SMOKE_JPEG_ROWS = 200, 8
JPEG_HW = (256, 320)
CLASSES = 4
MNIST_MEAN, MNIST_STD = 0.1307, 0.3081
# On 0-255 pixels for Sprout and MindSpore; PyTorch's ToTensor scales to 0-1 first, then /255 of these.
RGB_MEAN, RGB_STD = (123.7, 116.3, 103.5), (58.4, 57.1, 57.4)


def _mnist_rows(smoke):
    return SMOKE_MNIST_ROWS if smoke else MNIST_ROWS


def _jpeg_rows(smoke):
    return SMOKE_JPEG_ROWS if smoke else JPEG_ROWS


def _workers():
    """The harness's thread count: the worker process is pinned to that many CPUs."""
    return len(os.sched_getaffinity(0))


def _write_mnist(folder, smoke):
    import numpy as np
    rows = _mnist_rows(smoke)
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (rows, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, 10, rows, dtype=np.uint8)
    with open(os.path.join(folder, "train-images-idx3-ubyte"), "wb") as f:
        f.write(struct.pack(">IIII", 0x803, rows, 28, 28) + images.tobytes())
    with open(os.path.join(folder, "train-labels-idx1-ubyte"), "wb") as f:
        f.write(struct.pack(">II", 0x801, rows) + labels.tobytes())


def _write_jpegs(folder, smoke):
    """Photo-sized images with smooth gradients and noise, encoded by Sprout's own codec (the parent
    runs in Sprout's environment; a peer's environment need not have an encoder)."""
    import numpy as np
    from sprout import _C
    rows = _jpeg_rows(smoke)
    rng = np.random.default_rng(1)
    yy, xx = np.mgrid[0:JPEG_HW[0], 0:JPEG_HW[1]]
    for c in range(CLASSES):
        os.makedirs(os.path.join(folder, f"class{c}"))
    for i in range(rows):
        image = np.stack([(yy + i) % 256, (xx * 2 + i) % 256, rng.integers(0, 256, yy.shape)], -1)
        with open(os.path.join(folder, f"class{i % CLASSES}", f"{i}.jpg"), "wb") as f:
            f.write(_C.dataset.encode_image(image.astype(np.uint8), ".jpg").tobytes())


def _check_batch(channels, low, high):
    def check(np, next_batch):
        x = next_batch()
        if x.dtype != np.float32 or x.ndim != 4 or x.shape[1] != channels:
            raise AssertionError(f"last batch: {x.dtype} {x.shape}, expected float32 (N, {channels}, H, W)")
        if not (np.isfinite(x).all() and low - 1e-3 <= x.min() and x.max() <= high + 1e-3 and x.std() > 0.1):
            raise AssertionError(f"last batch not normalized pixels: min {x.min()}, max {x.max()}, std {x.std()}")
    return check


MNIST = workload(
    name="data_mnist_pipeline", kind="throughput",
    doc=f"MNIST IDX files ({MNIST_ROWS:,} rows) -> Rescale -> Normalize -> HWC2CHW -> batch 64, shuffled; "
        "one epoch per step, from a new iterator",
    inputs=lambda np, smoke: {"rows": _mnist_rows(smoke)}, files=_write_mnist,
    check=_check_batch(1, -MNIST_MEAN / MNIST_STD, (1 - MNIST_MEAN) / MNIST_STD),
    amount=_mnist_rows)

JPEG = workload(
    name="data_jpeg_pipeline", kind="throughput",
    doc=f"a folder of {JPEG_ROWS} JPEGs ({JPEG_HW[0]}x{JPEG_HW[1]}, 4 classes) -> Decode -> RandomResizedCrop 224 "
        "-> RandomHorizontalFlip -> Normalize -> HWC2CHW -> batch 32, shuffled; one epoch per step, from a new "
        "iterator",
    inputs=lambda np, smoke: {"rows": _jpeg_rows(smoke)}, files=_write_jpegs,
    check=_check_batch(3, min(-m / s for m, s in zip(RGB_MEAN, RGB_STD)),
                       max((255 - m) / s for m, s in zip(RGB_MEAN, RGB_STD))),
    amount=_jpeg_rows)


def _epoch(make_iterator, expected_rows):
    """A step: one epoch; returns its last batch of images."""
    def step():
        rows, last = 0, None
        for images, _labels in make_iterator():
            rows += images.shape[0]
            last = images
        if rows != expected_rows:
            raise AssertionError(f"an epoch gave {rows} rows, expected {expected_rows}")
        return last
    return step


# ---- Sprout and MindSpore: the same dataset code ----

def _dataset_modules(ms):
    return importlib.import_module(ms.__name__ + ".dataset"), importlib.import_module(ms.__name__ + ".dataset.vision")


@MNIST.impl("sprout", "mindspore")
def _(ms, d):
    ds, V = _dataset_modules(ms)
    workers = _workers()
    data = ds.MnistDataset(d["folder"], usage="train", shuffle=True, num_parallel_workers=workers)
    data = data.map([V.Rescale(1 / 255, 0), V.Normalize([MNIST_MEAN], [MNIST_STD]), V.HWC2CHW()],
                    input_columns="image", num_parallel_workers=workers)
    data = data.batch(64, num_parallel_workers=workers)
    return _epoch(lambda: data.create_tuple_iterator(num_epochs=1), d["rows"])


@JPEG.impl("sprout", "mindspore")
def _(ms, d):
    ds, V = _dataset_modules(ms)
    workers = _workers()
    data = ds.ImageFolderDataset(d["folder"], shuffle=True, num_parallel_workers=workers)
    data = data.map([V.Decode(), V.RandomResizedCrop(224), V.RandomHorizontalFlip(),
                     V.Normalize(list(RGB_MEAN), list(RGB_STD)), V.HWC2CHW()],
                    input_columns="image", num_parallel_workers=workers)
    data = data.batch(32, num_parallel_workers=workers)
    return _epoch(lambda: data.create_tuple_iterator(num_epochs=1), d["rows"])


# ---- PyTorch: a DataLoader over Datasets doing the same work per row ----

def _loader(torch, dataset, batch):
    return torch.utils.data.DataLoader(dataset, batch_size=batch, shuffle=True, num_workers=_workers(),
                                       persistent_workers=True)


@MNIST.impl("torch")
def _(torch, d):
    import numpy as np

    class Mnist(torch.utils.data.Dataset):
        def __init__(self, folder):
            raw = np.fromfile(os.path.join(folder, "train-images-idx3-ubyte"), np.uint8)
            self.images = raw[16:].reshape(-1, 28, 28, 1)
            self.labels = np.fromfile(os.path.join(folder, "train-labels-idx1-ubyte"), np.uint8)[8:].astype(np.int32)

        def __len__(self):
            return len(self.labels)

        def __getitem__(self, i):
            x = torch.from_numpy(self.images[i]).float() * (1 / 255)
            x = (x - MNIST_MEAN) / MNIST_STD
            return x.permute(2, 0, 1).contiguous(), int(self.labels[i])

    loader = _loader(torch, Mnist(d["folder"]), 64)
    return _epoch(lambda: loader, d["rows"])


@JPEG.impl("torch")
def _(torch, d):
    import math
    import random  # the DataLoader seeds it per worker process (NumPy's generator it does not)

    import numpy as np
    from PIL import Image

    class PillowFolder(torch.utils.data.Dataset):
        """torchvision's ImageFolder + RandomResizedCrop(224) + RandomHorizontalFlip + ToTensor + Normalize,
        written on Pillow as torchvision does them."""
        def __init__(self, folder):
            classes = sorted(os.listdir(folder))
            self.items = [(os.path.join(folder, c, f), k) for k, c in enumerate(classes)
                          for f in sorted(os.listdir(os.path.join(folder, c)))]
            self.mean = (np.array(RGB_MEAN, np.float32) / 255).reshape(3, 1, 1)
            self.std = (np.array(RGB_STD, np.float32) / 255).reshape(3, 1, 1)

        def __len__(self):
            return len(self.items)

        def crop_box(self, w, h):
            for _ in range(10):
                target = w * h * random.uniform(0.08, 1.0)
                ratio = math.exp(random.uniform(math.log(3 / 4), math.log(4 / 3)))
                cw, ch = int(round(math.sqrt(target * ratio))), int(round(math.sqrt(target / ratio)))
                if 0 < cw <= w and 0 < ch <= h:
                    x0, y0 = random.randint(0, w - cw), random.randint(0, h - ch)
                    return x0, y0, x0 + cw, y0 + ch
            return 0, 0, w, h

        def __getitem__(self, i):
            path, label = self.items[i]
            img = Image.open(path).convert("RGB")
            img = img.resize((224, 224), Image.BILINEAR, box=self.crop_box(*img.size))
            if random.random() < 0.5:
                img = img.transpose(Image.FLIP_LEFT_RIGHT)
            x = np.asarray(img, np.float32).transpose(2, 0, 1) * (1 / 255)
            return torch.from_numpy((x - self.mean) / self.std), label

    loader = _loader(torch, PillowFolder(d["folder"]), 32)
    return _epoch(lambda: loader, d["rows"])
