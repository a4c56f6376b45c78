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
    # BatchNorm writes its statistics: such a block is differentiated as usual, not recomputed.
    plain = train_gradients(False, ms.GRAPH_MODE)
    recomputed = train_gradients(True, ms.GRAPH_MODE)
    for p, r in zip(plain[2], recomputed[2]):
        np.testing.assert_array_equal(p, r)


class Wide(nn.Cell):
    def __init__(self, dropout=0.0):
        super().__init__()
        self.a, self.b = nn.Dense(64, 512), nn.Dense(512, 64)
        self.drop = nn.Dropout(p=dropout) if dropout else None

    def construct(self, x):
        y = ops.gelu(ops.tanh(ops.gelu(self.a(x))))
        if self.drop is not None:
            y = self.drop(y)
        return self.b(y)


def gradients_and_peak(recompute, compiled, blocks=4, dropout=0.0):
    """The gradients of a stack of Wide blocks, and the peak memory their computation took."""
    ms.set_seed(0)
    cells = [Wide(dropout) for _ in range(blocks)]
    if recompute:
        for c in cells:
            c.recompute()
    net = nn.SequentialCell(cells)
    net.set_train()
    x = Tensor(np.random.default_rng(1).standard_normal((256, 64)).astype(np.float32))
    grad_fn = ms.grad(lambda x: net(x).sum(), None, net.trainable_params())
    if compiled:
        grad_fn = ms.jit(grad_fn)
    grad_fn(x)
    ms.set_seed(7)
    ms.runtime.reset_peak_memory_stats()
    base = ms.runtime.memory_allocated()
    grads = [g.asnumpy() for g in grad_fn(x)]
    return grads, ms.runtime.max_memory_allocated() - base


@pytest.mark.parametrize("compiled", [False, True], ids=["pynative", "compiled"])
def test_recompute_keeps_fewer_activations(compiled):
    plain, plain_peak = gradients_and_peak(False, compiled)
    recomputed, recomputed_peak = gradients_and_peak(True, compiled)
    for p, r in zip(plain, recomputed):
        np.testing.assert_array_equal(p, r)
    # Not recomputed, every block keeps its (256, 512) activations for backward (about 7 MiB at the peak
    # compiled, 9 eager); recomputed, only the block being differentiated has them (3 and 5 MiB).
    assert recomputed_peak < 0.6 * plain_peak


def test_compiled_recompute_draws_the_same_dropout_masks():
    # The recomputation's random ops carry the forward's seeds and run once per step, as the forward's do
    # (Note [Recomputed cells in compiled code]): the same masks, the same gradients.
    plain, _ = gradients_and_peak(False, True, blocks=2, dropout=0.3)
    recomputed, _ = gradients_and_peak(True, True, blocks=2, dropout=0.3)
    for p, r in zip(plain, recomputed):
        np.testing.assert_array_equal(p, r)


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
