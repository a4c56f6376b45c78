"""nn.LSTM and nn.GRU (MatMul + the fused cell ops) against a NumPy reference of the recurrence, and their
gradients (input and every weight) against float64 finite differences, in PYNATIVE and GRAPH_MODE."""
import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops


def _sigmoid(v):
    return 1 / (1 + np.exp(-v))


def lstm_reference(x, h, c, w_ih, w_hh, b_ih, b_hh):
    outs = []
    for t in range(x.shape[0]):
        i, f, g, o = np.split(x[t] @ w_ih.T + b_ih + h @ w_hh.T + b_hh, 4, axis=1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        h = _sigmoid(o) * np.tanh(c)
        outs.append(h)
    return np.stack(outs), h, c


def gru_reference(x, h, w_ih, w_hh, b_ih, b_hh):
    outs = []
    for t in range(x.shape[0]):
        (xr, xz, xn), (hr, hz, hn) = np.split(x[t] @ w_ih.T + b_ih, 3, axis=1), np.split(h @ w_hh.T + b_hh, 3, axis=1)
        r, z = _sigmoid(xr + hr), _sigmoid(xz + hz)
        n = np.tanh(xn + r * hn)
        h = (1 - z) * n + z * h
        outs.append(h)
    return np.stack(outs), h


# (layer, has_bias): hidden 5 leaves a SIMD tail; no bias exercises the zero biases lstm_cell passes.
CASES = [(nn.LSTM, True), (nn.LSTM, False), (nn.GRU, True), (nn.GRU, False)]


def _make(cls, has_bias):
    ms.set_seed(7)
    return cls(3, 5, has_bias=has_bias, dtype=ms.float64)


def _reference(net, x, h0, c0):
    p = [w.asnumpy() for w in net.trainable_params()]
    w_ih, w_hh = p[0], p[1]
    b_ih, b_hh = (p[2], p[3]) if len(p) == 4 else (0.0, 0.0)
    if isinstance(net, nn.LSTM):
        out, h, c = lstm_reference(x, h0, c0, w_ih, w_hh, b_ih, b_hh)
        return out, h, c
    out, h = gru_reference(x, h0, w_ih, w_hh, b_ih, b_hh)
    return out, h


def _run(net, x, h0, c0):
    if isinstance(net, nn.LSTM):
        out, (h, c) = net(x, (h0, c0))
        return out, h[0], c[0]
    out, h = net(x, h0)
    return out, h[0]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("cls,has_bias", CASES, ids=[f"{c.__name__}-bias{b}" for c, b in CASES])
def test_recurrence_matches_numpy(cls, has_bias, mode):
    net = _make(cls, has_bias)
    rng = np.random.default_rng(0)
    x, h0, c0 = rng.standard_normal((4, 2, 3)), rng.standard_normal((2, 5)), rng.standard_normal((2, 5))
    ms.set_context(mode=mode)
    got = _run(net, ms.Tensor(x), ms.Tensor(h0[None]), ms.Tensor(c0[None]))
    for g, e in zip(got, _reference(net, x, h0, c0)):
        np.testing.assert_allclose(g.asnumpy(), e, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("cls,has_bias", CASES, ids=[f"{c.__name__}-bias{b}" for c, b in CASES])
def test_gradients_match_finite_differences(cls, has_bias, mode):
    net = _make(cls, has_bias)
    rng = np.random.default_rng(1)
    x, h0, c0 = rng.standard_normal((3, 2, 3)), rng.standard_normal((1, 2, 5)), rng.standard_normal((1, 2, 5))
    # Weights for every output, so that each of them (the final state too) carries a gradient.
    weights = [rng.standard_normal(s) for s in ((3, 2, 5), (2, 5), (2, 5))]

    def loss(x):
        outs = _run(net, x, ms.Tensor(h0), ms.Tensor(c0))
        return sum((o * ms.Tensor(w)).sum() for o, w in zip(outs, weights))

    grad_fn = ms.grad(loss, grad_position=0, weights=net.trainable_params())
    if mode == ms.GRAPH_MODE:
        eager_grad_fn = grad_fn
        grad_fn = ms.jit(lambda x: eager_grad_fn(x))
    dx, dws = grad_fn(ms.Tensor(x))

    def numeric(values, eps=1e-6):
        """Central differences of the loss in each element of `values` (the input array or a Parameter)."""
        param = values if isinstance(values, ms.Parameter) else None
        base = (param.asnumpy() if param is not None else values).copy()
        grad = np.zeros_like(base)
        for k in range(base.size):
            total = 0.0
            for sign in (1, -1):
                shifted = base.copy()
                shifted.reshape(-1)[k] += sign * eps
                if param is not None:
                    param.set_data(ms.Tensor(shifted))
                    total += sign * float(loss(ms.Tensor(x)).asnumpy())
                else:
                    total += sign * float(loss(ms.Tensor(shifted)).asnumpy())
            grad.reshape(-1)[k] = total / (2 * eps)
        if param is not None:
            param.set_data(ms.Tensor(base))
        return grad

    np.testing.assert_allclose(dx.asnumpy(), numeric(x), rtol=1e-6, atol=1e-8, err_msg="input")
    for p, g in zip(net.trainable_params(), dws):
        np.testing.assert_allclose(g.asnumpy(), numeric(p), rtol=1e-6, atol=1e-8, err_msg=p.name)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("bidirectional", [False, True], ids=["one-way", "bidirectional"])
@pytest.mark.parametrize("cls", [nn.LSTM, nn.GRU], ids=["LSTM", "GRU"])
def test_second_derivative_matches_finite_differences(cls, bidirectional, mode):
    # A layer's steps are one op whose gradient op has its own rule (Note [The recurrence as one op]):
    # the gradient of <d loss/d x, v> must match central differences of the first gradient.
    ms.set_seed(3)
    net = cls(3, 4, bidirectional=bidirectional, dtype=ms.float64)
    rng = np.random.default_rng(4)
    x, v = rng.standard_normal((3, 2, 3)), rng.standard_normal((3, 2, 3))
    out_w = rng.standard_normal((3, 2, 8 if bidirectional else 4))

    def loss(x):
        out, state = net(x)
        last = state[1] if cls is nn.LSTM else state  # the LSTM's c_n, the GRU's h_n
        return (ops.tanh(out) * ms.Tensor(out_w)).sum() + (last * last).sum()

    first = ms.grad(loss)
    second = ms.grad(lambda x: (first(x) * ms.Tensor(v)).sum())
    if mode == ms.GRAPH_MODE:
        first_eager, second_eager = first, second
        first, second = ms.jit(lambda x: first_eager(x)), ms.jit(lambda x: second_eager(x))
    ms.set_context(mode=mode)
    got = second(ms.Tensor(x)).asnumpy()
    eps, expected = 1e-6, np.zeros_like(x)
    for k in range(x.size):
        shifted = [x.copy(), x.copy()]
        shifted[0].reshape(-1)[k] += eps
        shifted[1].reshape(-1)[k] -= eps
        g_plus, g_minus = (float((first(ms.Tensor(s)).asnumpy() * v).sum()) for s in shifted)
        expected.reshape(-1)[k] = (g_plus - g_minus) / (2 * eps)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("cls", [nn.LSTM, nn.GRU], ids=["LSTM", "GRU"])
def test_bad_state_and_empty_inputs(cls):
    net = cls(3, 4)
    x = ms.Tensor(np.zeros((2, 2, 3), np.float32))
    bad = ms.Tensor(np.zeros((2, 2, 4), np.float32))  # two layers' worth of state for one layer
    with pytest.raises(ValueError, match=rf"{cls.__name__}: 'hx' must have shape \(num_layers \* num_directions, "
                                         r"batch, hidden_size\) = \(1, 2, 4\), but got \(2, 2, 4\)"):
        net(x, (bad, bad) if cls is nn.LSTM else bad)
    with pytest.raises(TypeError, match=rf"{cls.__name__}: 'hx' must be a Tensor or a tuple of Tensors, but got "
                                        r"\(NoneType, NoneType\)"):
        net(x, (None, None))
    with pytest.raises(TypeError, match=rf"{cls.__name__}: 'hx' must be a Tensor or a tuple of Tensors, but got int"):
        net(x, 5)
    with pytest.raises(ValueError, match=rf"{cls.__name__}: the input must have at least one step, but got shape"):
        net(ms.Tensor(np.zeros((0, 2, 3), np.float32)))
    # An empty batch runs: empty outputs, and zero weight gradients.
    empty = ms.Tensor(np.zeros((2, 0, 3), np.float32))
    out, _ = net(empty)
    assert out.shape == (2, 0, 4)
    grads = ms.grad(lambda t: net(t)[0].sum(), None, net.trainable_params())(empty)
    assert all(g.shape == p.shape and not g.asnumpy().any() for g, p in zip(grads, net.trainable_params()))
