"""The nn functional forms that are compositions of registry ops (cross_entropy, nll_loss on N-d inputs,
mse_loss, l1_loss ...), against NumPy. Single-op functions are covered by their op records."""
import math

import numpy as np
import pytest

import sprout as ms
from sprout import ops


def _log_softmax(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def _ce_indices(x, t, w, ignore, reduction, smoothing):
    """PyTorch's definition, which MindSpore 2.x follows: x (N, C, ...), t (N, ...)."""
    lp = np.moveaxis(_log_softmax(x, 1), 1, -1).reshape(-1, x.shape[1])
    t = t.reshape(-1)
    kept = t != ignore
    safe = np.where(kept, t, 0)
    wt = np.where(kept, w[safe], 0.0)
    nll = -wt * lp[np.arange(len(t)), safe]
    smooth = -(lp * w).sum(-1) * kept / x.shape[1]
    loss = (1 - smoothing) * nll + smoothing * smooth
    if reduction == "none":
        return loss.reshape((x.shape[0],) + x.shape[2:])
    return loss.sum() if reduction == "sum" else loss.sum() / wt.sum()


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("smoothing", [0.0, 0.2])
@pytest.mark.parametrize("shape", [(6, 4), (3, 4, 5), (2, 3, 2, 2)])
def test_cross_entropy_with_class_indices(reduction, smoothing, shape):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape)
    t = rng.integers(0, shape[1], size=(shape[0],) + shape[2:])
    t.reshape(-1)[::3] = -100
    w = rng.uniform(0.5, 2, shape[1])
    got = ops.cross_entropy(ms.Tensor(x), ms.Tensor(t, ms.int32), ms.Tensor(w), reduction=reduction,
                            label_smoothing=smoothing)
    np.testing.assert_allclose(got.asnumpy(), _ce_indices(x, t, w, -100, reduction, smoothing), rtol=1e-10)
    unweighted = ops.cross_entropy(ms.Tensor(x), ms.Tensor(t, ms.int64), reduction=reduction, label_smoothing=smoothing)
    np.testing.assert_allclose(unweighted.asnumpy(), _ce_indices(x, t, np.ones(shape[1]), -100, reduction, smoothing),
                               rtol=1e-10)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_with_class_probabilities(reduction):
    rng = np.random.default_rng(1)
    x, p = rng.standard_normal((4, 5, 3)), rng.uniform(0, 1, (4, 5, 3))
    w = rng.uniform(0.5, 2, 5)
    got = ops.cross_entropy(ms.Tensor(x), ms.Tensor(p), ms.Tensor(w), reduction=reduction, label_smoothing=0.1)
    q = p * 0.9 + 0.1 / 5
    loss = -(_log_softmax(x, 1) * q * w[None, :, None]).sum(1)
    expected = {"none": loss, "sum": loss.sum(), "mean": loss.sum() / 4}[reduction]
    np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-10)


def test_nll_loss_on_one_sample_and_errors():
    lp = _log_softmax(np.array([0.5, -1.0, 2.0]), 0)
    got = ops.nll_loss(ms.Tensor(lp), ms.Tensor(2, ms.int32))
    np.testing.assert_allclose(got.asnumpy(), -lp[2])
    with pytest.raises(ValueError, match=r"nll_loss: 'label_smoothing' must be in \[0, 1\]"):
        ops.nll_loss(ms.Tensor(np.ones((2, 3))), ms.Tensor([0, 1], ms.int32), label_smoothing=2.0)
    with pytest.raises(ValueError, match=r"cross_entropy: 'reduction' must be one of"):
        ops.cross_entropy(ms.Tensor(np.ones((2, 3))), ms.Tensor([0, 1], ms.int32), reduction="avg")
    with pytest.raises(TypeError, match=r"cross_entropy: 'input' must be a floating-point tensor"):
        ops.cross_entropy(ms.Tensor([[1, 2]]), ms.Tensor([0], ms.int32))
    s = ms.Tensor(np.array(1.5, np.float32))
    with pytest.raises(ValueError, match="cross_entropy: 'input' must have a class dimension, but got a 0-d tensor"):
        ops.cross_entropy(s, s)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_and_l1_loss(reduction):
    rng = np.random.default_rng(2)
    x, y = rng.standard_normal((3, 4)), rng.standard_normal((4,))
    red = {"none": lambda v: v, "sum": np.sum, "mean": np.mean}[reduction]
    np.testing.assert_allclose(ops.mse_loss(ms.Tensor(x), ms.Tensor(y), reduction).asnumpy(), red((x - y) ** 2))
    np.testing.assert_allclose(ops.l1_loss(ms.Tensor(x), ms.Tensor(y), reduction).asnumpy(), red(np.abs(x - y)))


def test_binary_cross_entropy_functions_default_weights():
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal((3, 4)), rng.uniform(0, 1, (3, 4))
    sp = lambda v: np.maximum(v, 0) + np.log1p(np.exp(-np.abs(v)))  # noqa: E731
    got = ops.binary_cross_entropy_with_logits(ms.Tensor(x), ms.Tensor(y))
    np.testing.assert_allclose(got.asnumpy(), np.mean(y * sp(-x) + (1 - y) * sp(x)))
    p = 1 / (1 + np.exp(-x))
    got = ops.binary_cross_entropy(ms.Tensor(p), ms.Tensor(y), reduction="none")
    np.testing.assert_allclose(got.asnumpy(), -(y * np.log(p) + (1 - y) * np.log(1 - p)), rtol=1e-12)


def test_activation_edge_values_follow_ieee_limits():
    x = np.array([np.nan, np.inf, -np.inf, 0.0, 1e30, -1e30], np.float32)
    for fn, want in [(ops.sigmoid, [np.nan, 1, 0, 0.5, 1, 0]), (ops.silu, [np.nan, np.inf, 0, 0, 1e30, 0]),
                     (ops.softplus, [np.nan, np.inf, 0, np.log(2), 1e30, 0]), (ops.gelu, [np.nan, np.inf, 0, 0, 1e30, 0]),
                     (ops.mish, [np.nan, np.inf, 0, 0, 1e30, 0]), (ops.hardswish, [np.nan, np.inf, 0, 0, 1e30, 0]),
                     (ops.elu, [np.nan, np.inf, -1, 0, 1e30, -1]), (ops.relu, [np.nan, np.inf, 0, 0, 1e30, 0])]:
        for dtype in (ms.float32, ms.float64, ms.float16):
            with np.errstate(over="ignore"):  # 1e30 is inf in float16, on both sides
                got = fn(ms.Tensor(x, dtype)).asnumpy()
                expected = np.array(want, np.float64).astype(got.dtype)
            np.testing.assert_allclose(got.astype(np.float64), expected, rtol=1e-6, err_msg=f"{fn.__name__} {dtype}")
    big = ms.Tensor(np.array([[1000.0, 0.0, -np.inf]], np.float32))
    np.testing.assert_array_equal(ops.softmax(big).asnumpy(), [[1, 0, 0]])
    np.testing.assert_array_equal(ops.log_softmax(big).asnumpy(), [[0, -1000, -np.inf]])
    # Below float32's normal range a term is the subnormal itself with AVX-512 (Note [Float32 exp by
    # VSCALEFPS]), else flushed to 0.
    tiny = ops.softmax(ms.Tensor(np.array([[0.0, -95.0, -200.0, -np.inf]], np.float32))).asnumpy()
    np.testing.assert_array_equal(tiny[0, [0, 2, 3]], [1, 0, 0])
    assert tiny[0, 1] == 0 or abs(tiny[0, 1] - np.exp(-95.0)) <= 2e-45


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax_of_a_slice_holding_nan_is_nan(dtype):
    # As in PyTorch: NaN anywhere in the reduced slice makes that slice's outputs NaN, the others exact.
    x = np.array([[np.nan, 1.0, 2.0], [1.0, 2.0, 3.0]], dtype)
    for axis in (1, 0):
        ref = np.exp(x - x.max(axis, keepdims=True))
        ref = ref / ref.sum(axis, keepdims=True)
        for fn, want in ((ops.softmax, ref), (ops.log_softmax, np.log(ref))):
            got = fn(ms.Tensor(x), axis).asnumpy()
            np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=f"{fn.__name__} axis {axis}")
            np.testing.assert_allclose(got[~np.isnan(want)], want[~np.isnan(want)], rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_long_row_softmax_keeps_special_values_in_their_own_rows(dtype):
    # Rows of 100 (SIMD loops with a tail) take each row's max in the exp loop of the row before
    # (Note [Softmax rows pipelined]): NaN, inf, all -inf and masked (-1e30) rows at body and tail
    # positions must give what NumPy gives, without reaching their neighbours, on any thread count.
    # 90 rows split into two threads' chunks at row 45, where the pipeline restarts.
    rng = np.random.default_rng(5)
    x = rng.uniform(-30, 30, (90, 100)).astype(dtype)
    x[3, 97] = np.nan
    x[4, 5] = np.nan
    x[5, 40] = np.inf
    x[6] = -np.inf
    x[7, 10:90] = -1e30
    x[8, 99] = 80.0
    x[44, 99] = np.nan  # the last row of the first chunk
    x[45, 0] = np.inf  # the first row of the second
    x[46, 98] = 80.0
    with np.errstate(invalid="ignore"):
        shifted = x.astype(np.float64) - x.max(1, keepdims=True)
        want = {ops.softmax: np.exp(shifted) / np.exp(shifted).sum(1, keepdims=True),
                ops.log_softmax: shifted - np.log(np.exp(shifted).sum(1, keepdims=True))}
    before = ms.get_context("runtime_num_threads")
    try:
        for threads in (1, 2):
            ms.set_context(runtime_num_threads=threads)
            for fn, ref in want.items():
                got = fn(ms.Tensor(x)).asnumpy()
                np.testing.assert_array_equal(np.isnan(got), np.isnan(ref), err_msg=f"{fn.__name__}, {threads} threads")
                ok = ~np.isnan(ref)
                # log_softmax is x - (max + log sum): values near 0 come from cancelling terms near 60,
                # so its error is absolute, a few ulps of 60.
                atol = 4 * np.finfo(dtype).eps * 60 if fn is ops.log_softmax else 1e-30
                np.testing.assert_allclose(got[ok], ref[ok], rtol=1e-5, atol=atol, err_msg=f"{fn.__name__}")
    finally:
        ms.set_context(runtime_num_threads=before)
    assert np.isnan(want[ops.softmax][[3, 4, 5, 6, 44, 45]]).all()
    assert not np.isnan(want[ops.softmax][[2, 7, 8, 43, 46]]).any()


def test_softmax_flushes_what_would_be_subnormal_to_zero():
    # exp of a shifted score below -87.3 would be subnormal in float32: it is 0 (no slow subnormal
    # arithmetic), the rest of the row unchanged. A causal mask of -1e9 gives exact zeros.
    x = np.zeros((3, 40), np.float32)
    x[0, 1:] = -95.0
    x[1, 20:] = -1e9
    x[2] = np.linspace(-100, 0, 40)
    got = ops.softmax(ms.Tensor(x)).asnumpy()
    np.testing.assert_array_equal(got[0], np.eye(1, 40)[0])
    np.testing.assert_array_equal(got[1, 20:], 0)
    np.testing.assert_allclose(got[1, :20], 1 / 20, rtol=1e-6)
    tiny = x[2] < -87.3
    assert (got[2, tiny] == 0).all() and (got[2, ~tiny] > 0).all()


def test_softmax_over_strided_views_and_tensor_methods():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((5, 6, 7))
    t = ms.Tensor(x).transpose(2, 0, 1)  # a non-contiguous view
    want = np.exp(_log_softmax(x.transpose(2, 0, 1), 1))
    np.testing.assert_allclose(ops.softmax(t, 1).asnumpy(), want, rtol=1e-12)
    np.testing.assert_allclose(t.softmax(1).asnumpy(), want, rtol=1e-12)
    np.testing.assert_allclose(ops.sigmoid(t).asnumpy(), 1 / (1 + np.exp(-x.transpose(2, 0, 1))), rtol=1e-12)


def test_dropout_is_reproducible_under_set_seed_and_differs_between_calls():
    x = ms.Tensor(np.ones((64, 64), np.float32))
    ms.set_seed(5)
    a, b = ops.dropout(x, 0.3).asnumpy(), ops.dropout(x, 0.3).asnumpy()
    ms.set_seed(5)
    np.testing.assert_array_equal(ops.dropout(x, 0.3).asnumpy(), a)
    assert (a != b).any()
    assert set(np.unique(a)) <= {0.0, np.float32(1 / 0.7)}
    assert abs((a == 0).mean() - 0.3) < 0.05
    assert ops.dropout(x, 0.3, training=False) is x
    np.testing.assert_array_equal(ops.dropout(x, 1.0).asnumpy(), 0)
    with pytest.raises(ValueError, match=r"dropout: 'p' must be in \[0, 1\]"):
        ops.dropout(x, 1.5)


def test_dropout_mask_does_not_depend_on_thread_count():
    x = ms.Tensor(np.ones(200_001, np.float32))
    masks = []
    before = ms.get_context("runtime_num_threads")
    try:
        for threads in (1, 2, 3):
            ms.set_context(runtime_num_threads=threads)
            masks.append(ops.Dropout(0.5, 3, 9)(x)[1].asnumpy())
    finally:
        ms.set_context(runtime_num_threads=before)
    np.testing.assert_array_equal(masks[0], masks[2])
    np.testing.assert_array_equal(masks[0], masks[1])


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


@pytest.mark.parametrize("mask", ["none", "bool", "float", "causal"])
def test_scaled_dot_product_attention(mask):
    rng = np.random.default_rng(6)
    q, k, v = rng.standard_normal((2, 3, 4, 8)), rng.standard_normal((2, 3, 5, 8)), rng.standard_normal((2, 3, 5, 6))
    scores = q @ k.swapaxes(-1, -2) / np.sqrt(8)
    kwargs = {}
    if mask == "bool":
        m = rng.random((4, 5)) > 0.3
        m[:, 0] = True
        kwargs["attn_mask"] = ms.Tensor(m)
        scores = np.where(m, scores, -np.inf)
    elif mask == "float":
        m = rng.standard_normal((3, 4, 5))
        kwargs["attn_mask"] = ms.Tensor(m)
        scores = scores + m
    elif mask == "causal":
        kwargs["is_causal"] = True
        scores = np.where(np.tril(np.ones((4, 5), bool)), scores, -np.inf)
    got = ops.scaled_dot_product_attention(ms.Tensor(q), ms.Tensor(k), ms.Tensor(v), **kwargs)
    np.testing.assert_allclose(got.asnumpy(), _softmax(scores) @ v, rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError, match="'query' and 'key' must have the same feature size"):
        ops.scaled_dot_product_attention(ms.Tensor(q), ms.Tensor(v), ms.Tensor(v))


def test_scaled_dot_product_attention_on_empty_inputs():
    def zeros(*shape):
        return ms.Tensor(np.zeros(shape, np.float32))

    assert ops.scaled_dot_product_attention(zeros(0, 0), zeros(0, 0), zeros(0, 0)).shape == (0, 0)
    assert ops.scaled_dot_product_attention(zeros(0, 5), zeros(3, 5), zeros(3, 4)).shape == (0, 4)
    # No keys: each query's weights are empty, so its output is an empty sum, as PyTorch's.
    np.testing.assert_array_equal(ops.scaled_dot_product_attention(zeros(2, 5), zeros(0, 5), zeros(0, 4)).asnumpy(),
                                  np.zeros((2, 4)))
    # Features of size 0 scale by 1 / sqrt(0) = inf, as in PyTorch: 0 * inf scores give NaN.
    assert np.isnan(ops.scaled_dot_product_attention(zeros(2, 0), zeros(3, 0), zeros(3, 4)).asnumpy()).all()
    with pytest.raises(TypeError, match="scaled_dot_product_attention: 'dropout_p' must be a float, but got NoneType"):
        ops.scaled_dot_product_attention(zeros(2, 5), zeros(3, 5), zeros(3, 4), dropout_p=None)


def test_normalization_arguments_are_checked_by_name():
    x = ms.Tensor(np.ones((2, 4, 3), np.float32))
    stats = [ms.Tensor(np.ones(4, np.float32)) for _ in range(4)]
    with pytest.raises(TypeError, match="layer_norm: 'normalized_shape' must be an int or a tuple of ints, but got "
                                        "None"):
        ops.layer_norm(x, None)
    with pytest.raises(TypeError, match="layer_norm: 'eps' must be a float, but got NoneType"):
        ops.layer_norm(x, (3,), eps=None)
    with pytest.raises(TypeError, match="batch_norm: 'eps' must be a float, but got str"):
        ops.batch_norm(x, *stats, eps="a")
    with pytest.raises(TypeError, match="batch_norm: 'momentum' must be a float, but got NoneType"):
        ops.batch_norm(x, *stats, momentum=None)
    with pytest.raises(TypeError, match="group_norm: 'weight' must be a Tensor, but got str"):
        ops.group_norm(x, 2, weight="abc")
    with pytest.raises(TypeError, match="group_norm: 'eps' must be a float, but got NoneType"):
        ops.group_norm(x, 2, eps=None)
    np.testing.assert_allclose(ops.layer_norm(x, [3], eps=np.float32(1e-5)).asnumpy(), 0.0)  # NumPy floats are floats


def _sig(x):
    return 1 / (1 + np.exp(-x))


def test_lstm_and_gru_cells():
    rng = np.random.default_rng(7)
    n, d, h = 3, 5, 4
    x, hx, cx = rng.standard_normal((n, d)), rng.standard_normal((n, h)), rng.standard_normal((n, h))
    w_ih, w_hh, b_ih, b_hh = (rng.standard_normal(s) for s in ((4 * h, d), (4 * h, h), (4 * h,), (4 * h,)))
    gates = x @ w_ih.T + b_ih + hx @ w_hh.T + b_hh
    i, f, g, o = np.split(gates, 4, axis=1)
    c = _sig(f) * cx + _sig(i) * np.tanh(g)
    got_h, got_c = ops.lstm_cell(*(ms.Tensor(a) for a in (x, hx, cx, w_ih, w_hh, b_ih, b_hh)))
    np.testing.assert_allclose(got_c.asnumpy(), c, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(got_h.asnumpy(), _sig(o) * np.tanh(c), rtol=1e-12, atol=1e-14)

    w_ih, w_hh, b_ih, b_hh = w_ih[:3 * h], w_hh[:3 * h], b_ih[:3 * h], b_hh[:3 * h]
    gi, gh = x @ w_ih.T + b_ih, hx @ w_hh.T + b_hh
    r, z = _sig(gi[:, :h] + gh[:, :h]), _sig(gi[:, h:2 * h] + gh[:, h:2 * h])
    nn_ = np.tanh(gi[:, 2 * h:] + r * gh[:, 2 * h:])
    got = ops.gru_cell(*(ms.Tensor(a) for a in (x, hx, w_ih, w_hh, b_ih, b_hh)))
    np.testing.assert_allclose(got.asnumpy(), (1 - z) * nn_ + z * hx, rtol=1e-12, atol=1e-14)
    with pytest.raises(ValueError, match=r"gru_cell: 'w_ih' must have shape \(12, 5\)"):
        ops.gru_cell(ms.Tensor(x), ms.Tensor(hx), ms.Tensor(w_ih[:4]), ms.Tensor(w_hh))


def test_embedding_gradient_with_padding_and_frequency_scaling():
    from sprout import _C
    idx = np.array([[0, 2, 2], [1, 2, 0]])
    w = np.random.default_rng(8).standard_normal((4, 3))
    prim = _C.Primitive("Embedding", {"padding_idx": 1, "scale_grad_by_freq": True})
    out = prim(ms.Tensor(idx, ms.int32), ms.Tensor(w))
    np.testing.assert_array_equal(out.asnumpy(), w[idx])
    dout = np.random.default_rng(9).standard_normal(out.shape)
    _, dw = _C.run_bprop(prim, [ms.Tensor(idx, ms.int32), ms.Tensor(w)], [out], [ms.Tensor(dout)])
    expected = np.zeros_like(w)
    np.add.at(expected, idx.reshape(-1), dout.reshape(-1, 3))
    expected /= np.maximum(np.bincount(idx.reshape(-1), minlength=4), 1)[:, None]
    expected[1] = 0
    np.testing.assert_allclose(dw.asnumpy(), expected, rtol=1e-12)


def test_fused_activation_gradients_at_edge_values():
    from sprout import _C
    x = np.array([np.nan, np.inf, -np.inf, 0.0, 1e30, -1e30], np.float32)
    want = {"ReluGrad": [0, 1, 0, 0, 1, 0], "SiLUGrad": [np.nan, 1, 0, 0.5, 1, 0]}
    for approximate in ("none", "tanh"):
        want[("GeLUGrad", approximate)] = [np.nan, 1, 0, 0.5, 1, 0]
    for key, expected in want.items():
        op, attrs = (key, {}) if isinstance(key, str) else (key[0], {"approximate": key[1]})
        for dtype in (ms.float32, ms.float64):
            got = _C.Primitive(op, attrs)(ms.Tensor(np.ones(6), dtype), ms.Tensor(x, dtype)).asnumpy()
            np.testing.assert_allclose(got, expected, err_msg=f"{key} {dtype}")


def test_activations_and_their_gradients_do_not_depend_on_position():
    # Note [Activation loops four vectors wide]: long tensors run four vectors per iteration, tails and
    # short tensors one at a time; an element must come out the same either way, and match float64.
    from sprout import _C
    rng = np.random.default_rng(11)
    x = rng.uniform(-8, 8, 1003).astype(np.float32)
    dy = rng.uniform(-2, 2, 1003).astype(np.float32)
    x64, dy64 = x.astype(np.float64), dy.astype(np.float64)
    cdf = 0.5 * np.vectorize(math.erfc)(-x64 / math.sqrt(2))  # erfc: no cancellation in the lower tail
    sig = 1 / (1 + np.exp(-x64))

    def grad_op(name, **attrs):
        return lambda x, dy: _C.Primitive(name, attrs)(ms.Tensor(dy), ms.Tensor(x))

    cases = [(lambda x, dy: ops.gelu(ms.Tensor(x)), x64 * cdf),
             (lambda x, dy: ops.sigmoid(ms.Tensor(x)), sig),
             (lambda x, dy: ops.silu(ms.Tensor(x)), x64 * sig),
             (lambda x, dy: ops.softplus(ms.Tensor(x)), np.logaddexp(0, x64)),
             (grad_op("GeLUGrad", approximate="none"), dy64 * (cdf + x64 * np.exp(-x64 ** 2 / 2) / math.sqrt(2 * math.pi))),
             (grad_op("SiLUGrad"), dy64 * sig * (1 + x64 * (1 - sig)))]
    for fn, want in cases:
        whole = fn(x, dy).asnumpy()
        pieces = np.concatenate([fn(x[i:i + 7], dy[i:i + 7]).asnumpy() for i in range(0, len(x), 7)])
        # rtol: in the lower tail exp(-x^2 / 2) turns float32 rounding of x^2 into a few 1e-6 relative
        np.testing.assert_allclose(whole, want, rtol=1e-5, atol=1e-30)
        np.testing.assert_array_equal(whole, pieces)


def test_float32_gelu_keeps_relative_accuracy_into_the_lower_tail():
    # Note [Normal CDF tail]: x Phi(x) from Phi's lower tail, not from 1 + erf(x), which would cancel
    # below x = -3 (errors of 100% by x = -6 in float32).
    x = np.linspace(-8, 8, 400_001).astype(np.float32)
    x64 = x.astype(np.float64)
    want = x64 * 0.5 * np.vectorize(math.erfc)(-x64 / math.sqrt(2))
    got = ops.gelu(ms.Tensor(x)).asnumpy().astype(np.float64)
    ulps = np.abs(got - want) / np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
    assert ulps[x >= -3].max() <= 8  # near zero and above: a few ulp
    assert ulps[x < -3].max() <= 40  # exp(-x^2 / 2) magnifies the rounding of its argument


def test_elu_copies_positive_groups_and_computes_the_others():
    # ELU's loop copies groups of four vectors with every lane positive and computes the others: negatives,
    # zeros and NaN placed at every offset of a group, the rest positive, in float32 and float64.
    for dtype in (np.float32, np.float64):
        x = np.abs(np.random.default_rng(4).standard_normal(4096 + 37)).astype(dtype) + 0.1
        x[np.arange(5, x.size, 301)] *= -1
        x[700], x[1500], x[2100] = 0.0, np.nan, -0.0
        want = np.where(x > 0, x, 0.7 * np.expm1(x))
        rtol = 1e-6 if dtype == np.float32 else 1e-14
        np.testing.assert_allclose(ops.elu(ms.Tensor(x), 0.7).asnumpy(), want, rtol=rtol)


def test_composite_activations():
    x = np.random.default_rng(10).uniform(-5, 5, (4, 6))
    t = ms.Tensor(x)
    a, s = 1.6732632423543772, 1.0507009873554805
    cases = [(ops.logsigmoid(t), -np.logaddexp(0, -x)), (ops.softsign(t), x / (1 + np.abs(x))),
             (ops.hardtanh(t, -2, 3), np.clip(x, -2, 3)), (ops.selu(t), s * np.where(x > 0, x, a * np.expm1(x))),
             (ops.celu(t, 2.0), np.where(x > 0, x, 2 * np.expm1(x / 2))),
             (ops.glu(t), x[:, :3] / (1 + np.exp(-x[:, 3:]))), (ops.glu(t, 0), x[:2] / (1 + np.exp(-x[2:])))]
    for got, want in cases:
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-12, atol=1e-15)
    with pytest.raises(ValueError, match="glu: dimension 1 of 'x' must be even"):
        ops.glu(ms.Tensor(np.ones((2, 3))))
    with pytest.raises(ValueError, match="hardtanh: 'min_val' must not exceed 'max_val'"):
        ops.hardtanh(t, 1.0, -1.0)
    np.testing.assert_array_equal(ops.logsigmoid(ms.Tensor(np.array([-1e4, 1e4], np.float32))).asnumpy(), [-1e4, 0])


def test_group_norm_of_mixed_dtypes_computes_in_the_promoted_one():
    # float16 data with float32 parameters (a half-precision model's float32 norm weights) normalizes in
    # float32, as the multiply by a float32 weight always promoted; without parameters it stays float16.
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 4, 3, 3)).astype(np.float16)
    w, b = rng.standard_normal(4).astype(np.float32), rng.standard_normal(4).astype(np.float32)
    got = ops.group_norm(ms.Tensor(x), 2, ms.Tensor(w), ms.Tensor(b))
    assert got.dtype == ms.float32
    grouped = x.astype(np.float64).reshape(2, 2, -1)
    xhat = ((grouped - grouped.mean(2, keepdims=True)) / np.sqrt(grouped.var(2, keepdims=True) + 1e-5)).reshape(x.shape)
    np.testing.assert_allclose(got.asnumpy(), xhat * w.reshape(1, 4, 1, 1) + b.reshape(1, 4, 1, 1), rtol=1e-5, atol=1e-5)
    plain = ops.group_norm(ms.Tensor(x), 2)
    assert plain.dtype == ms.float16
    np.testing.assert_allclose(plain.asnumpy(), xhat, rtol=4e-3, atol=4e-3)
