"""Cell.recompute(): the same gradients, fewer activations kept (PYNATIVE), the same results compiled."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn, ops


class Block(nn.Cell):
    """Dense -> BatchNorm -> GeLU -> Dropout -> Dense: parameters, state written in forward, randomness."""

    def __init__(self, width=8, hidden=16):
        super().__init__()
        self.a = nn.Dense(width, hidden)
        self.bn = nn.BatchNorm1d(hidden)
        self.drop = nn.Dropout(p=0.3)
        self.b = nn.Dense(hidden, width)

    def construct(self, x):
        return self.b(self.drop(ops.gelu(self.bn(self.a(x)))))


def train_gradients(recompute, mode=ms.PYNATIVE_MODE):
    ms.set_seed(1)
    net = nn.SequentialCell([Block(), Block()])
    net.set_train()
    if recompute:
        net[0].recompute()
    x = Tensor(np.random.default_rng(0).standard_normal((4, 8)).astype(np.float32))
    ms.set_seed(5)
    ms.set_context(mode=mode)
    try:
        step = ms.value_and_grad(lambda x: (net(x) ** 2).sum(), 0, net.trainable_params())
        loss, (gx, gw) = step(x)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    return loss.asnumpy(), gx.asnumpy(), [g.asnumpy() for g in gw], net[0].bn.moving_mean.asnumpy()


def test_recompute_gives_the_same_loss_gradients_and_batchnorm_statistics():
    plain, recomputed = train_gradients(False), train_gradients(True)
    # Exactly equal: the recomputation replays the dropout mask and writes the moving statistics once.
    assert plain[0] == recomputed[0]
    np.testing.assert_array_equal(plain[1], recomputed[1])
    for p, r in zip(plain[2], recomputed[2]):
        np.testing.assert_array_equal(p, r)
    np.testing.assert_array_equal(plain[3], recomputed[3])


def test_recompute_in_compiled_code_gives_the_same_results():
    plain = train_gradients(False, ms.GRAPH_MODE)
    recomputed = train_gradients(True, ms.GRAPH_MODE)
    for p, r in zip(plain[2], recomputed[2]):
        np.testing.assert_array_equal(p, r)


def test_recompute_keeps_fewer_activations():
    class Wide(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a, self.b = nn.Dense(64, 512), nn.Dense(512, 64)

        def construct(self, x):
            return self.b(ops.gelu(ops.tanh(ops.gelu(self.a(x)))))

    def peak(recompute):
        blocks = [Wide() for _ in range(4)]
        if recompute:
            for b in blocks:
                b.recompute()
        net = nn.SequentialCell(blocks)
        x = Tensor(np.ones((256, 64), np.float32))
        grad_fn = ms.grad(lambda x: net(x).sum(), None, net.trainable_params())
        grad_fn(x)
        ms.runtime.reset_peak_memory_stats()
        base = ms.runtime.memory_allocated()
        grad_fn(x)
        return ms.runtime.max_memory_allocated() - base

    # Not recomputed, every block keeps its (256, 512) activations for backward (about 9 MiB at the peak);
    # recomputed, only the block being differentiated has them (about 5 MiB).
    assert peak(True) < 0.65 * peak(False)


def test_second_order_gradient_through_a_recomputed_cell():
    class Cube(nn.Cell):
        def construct(self, x):
            return x * x * x

    cube = Cube().recompute()
    x = Tensor(np.array([2.0], np.float32))
    assert ms.grad(lambda x: cube(x).sum())(x).asnumpy() == 12.0
    assert ms.grad(ms.grad(lambda x: cube(x).sum()))(x).asnumpy() == 12.0  # the seed's example: 6x


def test_recompute_bad_arguments():
    with pytest.raises(TypeError, match="Cell.recompute: 'use_reentrant' must be a bool, but got int"):
        nn.ReLU().recompute(use_reentrant=1)
    with pytest.raises(TypeError, match="Cell.recompute: unexpected keyword argument 'speed'"):
        nn.ReLU().recompute(speed=True)

    class Listy(nn.Cell):
        def construct(self, x):
            return [x * 2.0]

    with pytest.raises(TypeError, match="Listy.recompute: construct must return a Tensor or a tuple of Tensors"):
        ms.grad(lambda x: Listy().recompute()(x)[0].sum())(Tensor(np.ones(2, np.float32)))
