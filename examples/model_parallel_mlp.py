"""The quick-start MLP (784-512-512-10) trained with its layers sharded across the ranks of an
`mpirun -n N` job (SEMI_AUTO_PARALLEL, Note [Sharded primitives]): the first Dense splits its output
features, the second its input features (Megatron-LM's column- then row-parallel pair), so each rank
multiplies by 1/N of each weight matrix. Every rank feeds the whole batch and ends with the same weights,
those one process would get.

    mpirun -n 2 python examples/model_parallel_mlp.py [--epochs 1] [--data DIR] [--max-steps N]
"""
import argparse
import os
import sys
import time

import sprout as ms
from sprout import nn
from sprout.communication import get_group_size, get_rank, init
from sprout.train import Accuracy, Model

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from quick_start import ROOT, Network, datapipe  # noqa: E402


def shard_layers(net, ranks):
    first, _, second, _, _ = net.dense_relu_sequential
    first.matmul.shard(((1, 1), (ranks, 1)))  # weight (512, 784): rows are output features
    first.bias_add.shard(((1, ranks), (ranks,)))
    second.matmul.shard(((1, ranks), (1, ranks)))  # the contracted 512 features: partial sums added up


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--data", default=None, help="folder with the MNIST IDX files (fetched if absent)")
    parser.add_argument("--max-steps", type=int, default=None, help="batches per epoch (for quick runs)")
    args = parser.parse_args(argv)
    init()
    rank, size = get_rank(), get_group_size()
    if args.data is None:
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        import fetch_mnist
        args.data = fetch_mnist.fetch(os.path.join(ROOT, ".cache", "mnist"))

    ms.set_seed(0)  # the same initial weights on every rank
    ms.set_context(mode=ms.GRAPH_MODE, runtime_num_threads=max(1, (os.cpu_count() or 1) // size))
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, full_batch=True)
    train = datapipe(args.data, "train", 64, args.max_steps)
    test = datapipe(args.data, "test", 64, args.max_steps)

    net = Network()
    shard_layers(net, size)
    model = Model(net, nn.CrossEntropyLoss(), nn.SGD(net.trainable_params(), 1e-2), metrics={"Accuracy": Accuracy()})
    start = time.perf_counter()
    model.train(args.epochs, train)
    elapsed = time.perf_counter() - start
    accuracy = model.eval(test)["Accuracy"]
    if rank == 0:
        print(f"{size} ranks trained {args.epochs} epochs in {elapsed:.1f} s, layers sharded; "
              f"held-out accuracy {accuracy:.4f}")
    return accuracy


if __name__ == "__main__":
    main()
