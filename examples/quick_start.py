"""The MindSpore quick start in PYNATIVE mode: a 784-512-512-10 network trained on real MNIST digits with
``value_and_grad`` and an optimizer step written out by hand.

    python examples/quick_start.py [--epochs 3] [--data DIR] [--max-steps N]
"""
import argparse
import os
import sys

import numpy as np

import sprout as ms
from sprout import dataset as ds
from sprout import nn

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, 512), nn.ReLU(), nn.Dense(512, 512), nn.ReLU(), nn.Dense(512, 10))

    def construct(self, x):
        return self.dense_relu_sequential(self.flatten(x))


def datapipe(path, usage, batch_size, max_batches=None):
    data = ds.MnistDataset(path, usage=usage)
    data = data.map(operations=lambda image: (image.astype(np.float32) / 255.0 - 0.1307) / 0.3081,
                    input_columns="image")
    data = data.batch(batch_size)
    return data.take(max_batches) if max_batches else data


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--data", default=None)
    parser.add_argument("--max-steps", type=int, default=None)
    args = parser.parse_args(argv)
    if args.data is None:
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        import fetch_mnist
        args.data = fetch_mnist.fetch(os.path.join(ROOT, ".cache", "mnist"))
    ms.set_seed(0)
    train_dataset = datapipe(args.data, "train", 64, args.max_steps)
    test_dataset = datapipe(args.data, "test", 64, args.max_steps)

    model = Network()
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.SGD(model.trainable_params(), 1e-2)

    def forward_fn(data, label):
        logits = model(data)
        return loss_fn(logits, label), logits

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    for epoch in range(args.epochs):
        model.set_train()
        for batch, (data, label) in enumerate(train_dataset.create_tuple_iterator()):
            loss = train_step(data, label)
            if batch % 20 == 0:
                print(f"epoch {epoch + 1} step {batch:3d}  loss {loss.item():.6f}")
        model.set_train(False)
        correct, total, test_loss = 0, 0, 0.0
        for data, label in test_dataset.create_tuple_iterator():
            pred = model(data)
            test_loss += loss_fn(pred, label).item()
            correct += int((pred.asnumpy().argmax(1) == label.asnumpy()).sum())
            total += label.shape[0]
        print(f"Test: accuracy {100 * correct / total:.1f}%, avg loss {test_loss / max(total // 64, 1):.6f}")
    return correct / total


if __name__ == "__main__":
    main()
