#!/usr/bin/env python3
"""Data pipeline throughput: Sprout's sprout.dataset against a PyTorch DataLoader doing the same work.

    python benchmarks/data/pipelines.py [--rows N] [--workers 1,2]

Runs in Sprout's venv; the PyTorch side runs in the bench venv (.bench-venv, see ../peers_env.sh) as
a subprocess in the same run, on the same generated files. Pipelines (from the data pipeline issue):
  mnist: IDX files -> Rescale -> Normalize -> HWC2CHW -> batch 64, shuffled
  jpeg:  JPEG folder -> Decode -> RandomResizedCrop 224 -> RandomHorizontalFlip -> Normalize -> HWC2CHW
         -> batch 32 (PyTorch needs a JPEG decoder: torchvision, else Pillow with the same transforms; without
         one its column says so)
Prints a Markdown table of rows per second (best of --repeats epochs after one warm-up batch).
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def make_mnist(folder, rows):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (rows, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, 10, rows, dtype=np.uint8)
    with open(os.path.join(folder, "train-images-idx3-ubyte"), "wb") as f:
        f.write(struct.pack(">IIII", 0x803, rows, 28, 28) + images.tobytes())
    with open(os.path.join(folder, "train-labels-idx1-ubyte"), "wb") as f:
        f.write(struct.pack(">II", 0x801, rows) + labels.tobytes())


def make_jpegs(folder, rows):
    sys.path.insert(0, os.path.join(REPO, "python"))
    from sprout import _C

    rng = np.random.default_rng(1)
    yy, xx = np.mgrid[0:256, 0:320]
    for c in range(4):
        os.makedirs(os.path.join(folder, f"class{c}"), exist_ok=True)
    for i in range(rows):
        image = np.stack([(yy + i) % 256, (xx * 2 + i) % 256, rng.integers(0, 256, yy.shape)], -1).astype(np.uint8)
        with open(os.path.join(folder, f"class{i % 4}", f"{i}.jpg"), "wb") as f:
            f.write(_C.dataset.encode_image(image, ".jpg").tobytes())


def sprout_rate(kind, folder, workers, repeats):
    sys.path.insert(0, os.path.join(REPO, "python"))
    import sprout.dataset as ds
    from sprout.dataset import vision as V

    if kind == "mnist":
        d = ds.MnistDataset(folder, usage="train", shuffle=True, num_parallel_workers=workers)
        d = d.map([V.Rescale(1 / 255, 0), V.Normalize([0.1307], [0.3081]), V.HWC2CHW()], input_columns="image",
                  num_parallel_workers=workers).batch(64, num_parallel_workers=workers)
    else:
        d = ds.ImageFolderDataset(folder, shuffle=True, num_parallel_workers=workers)
        d = d.map([V.Decode(), V.RandomResizedCrop(224), V.RandomHorizontalFlip(),
                   V.Normalize([123.7, 116.3, 103.5], [58.4, 57.1, 57.4]), V.HWC2CHW()],
                  input_columns="image", num_parallel_workers=workers).batch(32, num_parallel_workers=workers)
    return best_rate(d.create_tuple_iterator(num_epochs=repeats + 1), repeats)


def best_rate(iterator, repeats):
    for _ in iterator:  # warm-up epoch: files cached, threads started
        pass
    best = 0.0
    for _ in range(repeats):
        rows, start = 0, time.perf_counter()
        for batch in iterator:
            rows += len(batch[0])
        best = max(best, rows / (time.perf_counter() - start))
    return best


TORCH_SIDE = r'''
import json, os, sys, time
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset
torch.set_num_threads(1)
kind, folder, workers, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

class Mnist(Dataset):
    def __init__(self, folder):
        raw = np.fromfile(os.path.join(folder, "train-images-idx3-ubyte"), np.uint8)
        n = int.from_bytes(raw[4:8].tobytes(), "big")
        self.images = raw[16:].reshape(n, 28, 28, 1)
        self.labels = np.fromfile(os.path.join(folder, "train-labels-idx1-ubyte"), np.uint8)[8:].astype(np.int32)
    def __len__(self):
        return len(self.labels)
    def __getitem__(self, i):
        x = torch.from_numpy(self.images[i]).float() * (1 / 255)
        x = (x - 0.1307) / 0.3081
        return x.permute(2, 0, 1).contiguous(), int(self.labels[i])

def jpeg_dataset(folder):
    try:
        import torchvision.transforms as T
        from torchvision.datasets import ImageFolder
    except ImportError:  # no torchvision: the same transforms written on Pillow, as torchvision does them
        try:
            return PillowFolder(folder)
        except ImportError:
            return None
    t = T.Compose([T.RandomResizedCrop(224), T.RandomHorizontalFlip(), T.ToTensor(),
                   T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])
    return ImageFolder(folder, transform=t)


class PillowFolder(Dataset):
    """ImageFolder + RandomResizedCrop(224) + RandomHorizontalFlip + ToTensor + Normalize on Pillow:
    torchvision's own algorithm (area 8-100%, ratio 3/4-4/3, bilinear resize)."""
    def __init__(self, folder):
        from PIL import Image
        self.Image = Image
        classes = sorted(os.listdir(folder))
        self.items = [(os.path.join(folder, c, f), k) for k, c in enumerate(classes)
                      for f in sorted(os.listdir(os.path.join(folder, c)))]
        self.mean = np.array([0.485, 0.456, 0.406], np.float32).reshape(3, 1, 1)
        self.std = np.array([0.229, 0.224, 0.225], np.float32).reshape(3, 1, 1)
        self.rng = np.random.default_rng()
    def __len__(self):
        return len(self.items)
    def __getitem__(self, i):
        import math
        path, label = self.items[i]
        img = self.Image.open(path).convert("RGB")
        w, h = img.size
        area = w * h
        for _ in range(10):
            target = area * self.rng.uniform(0.08, 1.0)
            ratio = math.exp(self.rng.uniform(math.log(3 / 4), math.log(4 / 3)))
            cw, ch = int(round(math.sqrt(target * ratio))), int(round(math.sqrt(target / ratio)))
            if 0 < cw <= w and 0 < ch <= h:
                x0, y0 = int(self.rng.integers(0, w - cw + 1)), int(self.rng.integers(0, h - ch + 1))
                break
        else:
            cw, ch, x0, y0 = w, h, 0, 0
        img = img.resize((224, 224), self.Image.BILINEAR, box=(x0, y0, x0 + cw, y0 + ch))
        if self.rng.random() < 0.5:
            img = img.transpose(self.Image.FLIP_LEFT_RIGHT)
        x = np.asarray(img, np.float32).transpose(2, 0, 1) * (1 / 255)
        return torch.from_numpy((x - self.mean) / self.std), label

dataset = Mnist(folder) if kind == "mnist" else jpeg_dataset(folder)
if dataset is None:
    print(json.dumps(None)); sys.exit(0)
loader = DataLoader(dataset, batch_size=64 if kind == "mnist" else 32, shuffle=True, num_workers=workers,
                    persistent_workers=workers > 0)
for _ in loader:
    pass
best = 0.0
for _ in range(repeats):
    rows, start = 0, time.perf_counter()
    for x, y in loader:
        rows += len(x)
    best = max(best, rows / (time.perf_counter() - start))
print(json.dumps(best))
'''


def torch_rate(python, kind, folder, workers, repeats):
    out = subprocess.run([python, "-c", TORCH_SIDE, kind, folder, str(workers), str(repeats)], capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mnist-rows", type=int, default=20000)
    ap.add_argument("--jpeg-rows", type=int, default=400)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--bench-venv", default=os.path.join(REPO, ".bench-venv"),
                    help="the peers' venv (made by benchmarks/peers_env.sh)")
    args = ap.parse_args()
    workers = [int(w) for w in args.workers.split(",")]
    lines = ["| pipeline | workers | Sprout rows/s | PyTorch DataLoader rows/s | Sprout / PyTorch |",
             "|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        mnist, jpeg = os.path.join(tmp, "mnist"), os.path.join(tmp, "jpeg")
        os.makedirs(mnist)
        make_mnist(mnist, args.mnist_rows)
        make_jpegs(jpeg, args.jpeg_rows)
        for kind, folder in (("mnist", mnist), ("jpeg", jpeg)):
            for w in workers:
                ours = sprout_rate(kind, folder, w, args.repeats)
                try:
                    theirs = torch_rate(os.path.join(args.bench_venv, "bin", "python"), kind, folder, w, args.repeats)
                except (OSError, subprocess.CalledProcessError) as e:
                    theirs = None
                    print(f"PyTorch side failed: {e}", file=sys.stderr)
                ratio = f"{ours / theirs:.2f}x" if theirs else "-"
                theirs_text = f"{theirs:,.0f}" if theirs else ("no JPEG decoder in the bench venv" if kind == "jpeg"
                                                                else "failed (see stderr)")
                lines.append(f"| {kind} | {w} | {ours:,.0f} | {theirs_text} | {ratio} |")
                print(lines[-1], flush=True)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
