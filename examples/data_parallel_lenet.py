"""LeNet-5 trained data parallel on MNIST digits: every rank of an `mpirun -n N` job trains on its shard
of the digits, and the gradients are averaged across the ranks at every step (nn.DistributedGradReducer,
over MPI), so every rank holds the same weights -- those one process would get with N times the batch.
Rank 0 then evaluates and, with --export, writes the model as MindIR for the C++ inference API
(build/dev/sprout_infer) or MindSpore.

    mpirun -n 2 python examples/data_parallel_lenet.py [--epochs 5] [--data DIR] [--max-steps N] [--export F]
"""
import argparse
import os
import sys
import time

import sprout as ms
from sprout import nn
from sprout.communication import get_group_size, get_rank, init
from sprout.train import Accuracy, LossMonitor, Model

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lenet_mnist import ROOT, LeNet5, create_dataset  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--data", default=None, help="folder with the MNIST IDX files (fetched if absent)")
    parser.add_argument("--max-steps", type=int, default=None, help="batches per epoch (for quick runs)")
    parser.add_argument("--export", default=None, help="rank 0 writes the trained model here (.mindir)")
    args = parser.parse_args(argv)
    init()
    rank, size = get_rank(), get_group_size()
    if args.data is None:
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        import fetch_mnist
        args.data = fetch_mnist.fetch(os.path.join(ROOT, ".cache", "mnist"))

    ms.set_seed(1)
    ms.set_context(mode=ms.GRAPH_MODE, runtime_num_threads=max(1, (os.cpu_count() or 1) // size))
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                 parameter_broadcast=True)
    # A global batch of 64: 64 / N digits per rank and step, rank r reading digits r, r + N, ...
    train = create_dataset(args.data, "train", batch_size=64 // size, max_batches=args.max_steps, augment=True,
                           num_shards=size, shard_id=rank)
    test = create_dataset(args.data, "test", shuffle=False, max_batches=args.max_steps)

    net = LeNet5()
    steps = train.get_dataset_size()
    lr = nn.cosine_decay_lr(0.0003, 0.03, steps * args.epochs, steps, args.epochs)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), learning_rate=lr, momentum=0.9), metrics={"Accuracy": Accuracy()})
    start = time.perf_counter()
    model.train(args.epochs, train, callbacks=[LossMonitor(per_print_times=steps)] if rank == 0 else [])
    elapsed = time.perf_counter() - start
    accuracy = model.eval(test)["Accuracy"]
    if rank == 0:
        print(f"{size} ranks trained {args.epochs} epochs in {elapsed:.1f} s; held-out accuracy {accuracy:.4f}")
        if args.export:
            images, _ = next(test.create_tuple_iterator())
            ms.export(net, images, file_name=args.export)
            print(f"exported {args.export if args.export.endswith('.mindir') else args.export + '.mindir'}")
    return accuracy


if __name__ == "__main__":
    main()
