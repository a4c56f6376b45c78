"""What the eager tape keeps alive between the forward and the backward pass (Note [Saving only what
backward reads]), measured through sprout.runtime's allocator counters; and that API itself."""
import numpy as np

import sprout as ms
from sprout import nn, ops
from sprout import runtime

N = 1 << 18  # elements per activation: 1 MiB in float32
ACTIVATION = N * 4


def _live_after_forward(fn, *args):
    """Bytes held by tensors at the end of fn's forward pass, run under ms.grad, and the gradient."""
    held = {}

    def forward(*xs):
        out = fn(*xs)
        held["bytes"] = runtime.memory_allocated()
        return out

    runtime.empty_cache()
    before = runtime.memory_allocated()
    grad = ms.grad(forward)(*args)
    return held["bytes"] - before, grad


def test_add_then_relu_chain_keeps_one_activation_per_layer():
    # Add's rule reads neither input; ReLU's reads its output only. So of each layer's two results
    # only the ReLU's stays alive until the backward pass.
    layers = 8

    def chain(x):
        for _ in range(layers):
            x = ops.relu(x + 0.5)
        return x.sum()

    x = ms.Tensor(np.linspace(-1, 1, N, dtype=np.float32))
    live, grad = _live_after_forward(chain, x)
    assert live < (layers + 2) * ACTIVATION, f"{live / ACTIVATION:.1f} activations alive, expected about {layers}"
    assert live >= layers * ACTIVATION
    expected = (x.asnumpy() + 0.5 > 0).astype(np.float32)  # after the first layer everything is positive
    np.testing.assert_array_equal(grad.asnumpy(), expected)


def test_conv_batchnorm_relu_block_keeps_two_activations():
    # Conv2D's rule reads its inputs, not its output; BatchNorm's reads its input and statistics, not
    # its output; ReLU's reads its output. Per block: the conv's output and the ReLU's output.
    ms.set_seed(0)
    blocks = 4
    channels = 16
    net = nn.SequentialCell([nn.SequentialCell([nn.Conv2d(channels, channels, 3, pad_mode="same", has_bias=False),
                                                nn.BatchNorm2d(channels), nn.ReLU()]) for _ in range(blocks)])
    net.set_train(True)
    x = ms.Tensor(np.random.default_rng(0).standard_normal((4, channels, 32, 32)).astype(np.float32))
    activation = x.nbytes
    live, _ = _live_after_forward(lambda t: net(t).sum(), x)
    assert live < (2 * blocks + 1) * activation, f"{live / activation:.1f} activations alive, expected {2 * blocks}"


def test_gradients_through_unsaved_values_match_finite_differences():
    # Rules that read outputs (Exp, Sigmoid, Sqrt) next to ones that read nothing (Add, Neg): the saved
    # placeholders never reach an emitted op. Checked in float64 against central differences.
    def f(x):
        return (ops.sqrt(ops.exp(-x) + 1.0) * ops.sigmoid(x + 0.25)).sum()

    x0 = np.random.default_rng(3).standard_normal(6)
    grad = ms.grad(f)(ms.Tensor(x0)).asnumpy()
    eps = 1e-6
    numeric = np.array([(f(ms.Tensor(x0 + eps * e)).item() - f(ms.Tensor(x0 - eps * e)).item()) / (2 * eps)
                        for e in np.eye(6)])
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-9)


def test_second_derivative_through_rules_that_save_nothing():
    # d2/dx2 of relu(x + 1)**3 = 6 (x + 1) for x > -1: the outer grad differentiates the inner backward,
    # which used only what the inner tape saved.
    def f(x):
        return (ops.relu(x + 1.0) ** 3).sum()

    x = ms.Tensor(np.array([0.5, 1.0, 2.0]))
    second = ms.grad(lambda t: ms.grad(f)(t).sum())(x)
    np.testing.assert_allclose(second.asnumpy(), 6 * (x.asnumpy() + 1.0))


def test_runtime_memory_counters():
    runtime.reset_peak_memory_stats()
    base = runtime.memory_allocated()
    t = ms.Tensor(np.ones(N, np.float32)) * 2.0
    assert runtime.memory_allocated() - base >= ACTIVATION
    assert runtime.max_memory_allocated() >= runtime.memory_allocated()
    del t
    assert runtime.memory_allocated() == base
    assert runtime.memory_reserved() >= runtime.memory_allocated() + ACTIVATION  # the block stays cached
    runtime.empty_cache()
    assert runtime.memory_reserved() == runtime.memory_allocated()
    stats = runtime.memory_stats()
    assert {"allocated_bytes", "peak_allocated_bytes", "cached_bytes"} <= set(stats)
    runtime.reset_max_memory_allocated()
    assert runtime.max_memory_allocated() == runtime.memory_allocated()
