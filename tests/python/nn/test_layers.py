"""Layers built on the operator library: shapes, parameters, modes, and gradients against finite differences."""
import re

import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops


def finite_difference(f, param, eps=1e-3):
    base = param.asnumpy().copy()
    grad = np.zeros_like(base, dtype=np.float64)
    for i in range(base.size):
        for sign in (1, -1):
            shifted = base.copy()
            shifted.reshape(-1)[i] += sign * eps
            param.set_data(ms.Tensor(shifted))
            grad.reshape(-1)[i] += sign * f().item() / (2 * eps)
    param.set_data(ms.Tensor(base))
    return grad


def check_weight_grads(net, loss_of, rtol=2e-2, atol=2e-3, max_params=2):
    grads = ms.grad(lambda: loss_of(), None, weights=net.trainable_params())()
    for p, g in list(zip(net.trainable_params(), grads))[:max_params]:
        np.testing.assert_allclose(g.asnumpy(), finite_difference(loss_of, p), rtol=rtol, atol=atol, err_msg=p.name)


def test_conv_pool_flatten_shapes_and_names():
    net = nn.SequentialCell(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.MaxPool2d(2, 2), nn.Conv2d(4, 2, 3, pad_mode="valid",
                                                                                          has_bias=True),
                            nn.AvgPool2d(2, 2), nn.Flatten())
    x = ms.Tensor(np.random.rand(2, 3, 12, 12).astype(np.float32))
    assert net(x).shape == (2, 2 * 2 * 2)
    assert [n for n, _ in net.parameters_and_names()] == ["0.weight", "3.weight", "3.bias"]
    assert nn.AdaptiveAvgPool2d((1, 1))(x).shape == (2, 3, 1, 1)
    with pytest.raises(ValueError, match="divisible by group"):
        nn.Conv2d(3, 4, 3, group=2)


def test_bad_layer_arguments_and_inputs_name_the_layer():
    for kernel in (0, -1, (3, 0)):
        with pytest.raises(ValueError, match=r"Conv2d: 'kernel_size' must be a positive int or a tuple of 2 positive "
                                             rf"ints, but got {re.escape(str(kernel))}"):
            nn.Conv2d(3, 4, kernel)
    with pytest.raises(ValueError, match="Conv2d: 'stride' must be a positive int"):
        nn.Conv2d(3, 4, 3, stride=0)
    with pytest.raises(ValueError, match="Conv1d: 'kernel_size' must be a positive int or a tuple of positive ints, "
                                         "but got 0"):
        nn.Conv1d(3, 4, 0)
    with pytest.raises(ValueError, match="Conv2dTranspose: 'kernel_size' must be a positive int"):
        nn.Conv2dTranspose(3, 1, 0)
    with pytest.raises(ValueError, match="Dense: 'activation' must be one of .*relu.*, but got 'bogus'"):
        nn.Dense(3, 4, activation="bogus")
    with pytest.raises(ValueError, match="get_activation: 'name' must be one of"):
        nn.get_activation("bogus")
    dense = nn.Dense(3, 4)
    with pytest.raises(TypeError, match="Dense: 'x' must be a Tensor, but got list"):
        dense([[1.0, 2.0, 3.0]])
    with pytest.raises(ValueError, match=r"Dense: 'x' must be \(..., in_channels=3\), but got a 0-d tensor"):
        dense(ms.Tensor(np.array(1.5, np.float32)))


def test_conv_gradients():
    ms.set_seed(0)
    net = nn.Conv2d(2, 3, 3, pad_mode="pad", padding=1, has_bias=True)
    x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 2, 5, 5)).astype(np.float32))
    check_weight_grads(net, lambda: (net(x) ** 2).mean())


def test_batchnorm_train_and_eval():
    bn = nn.BatchNorm2d(3, momentum=0.9)
    x = np.random.default_rng(1).standard_normal((4, 3, 5, 5)).astype(np.float32) * 2 + 1
    y = bn.set_train()(ms.Tensor(x)).asnumpy()
    mean, var = x.mean(axis=(0, 2, 3)), x.var(axis=(0, 2, 3))
    np.testing.assert_allclose(y, (x - mean[None, :, None, None]) / np.sqrt(var[None, :, None, None] + 1e-5),
                               rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.1 * mean, rtol=1e-4, atol=1e-5)
    y_eval = bn.set_train(False)(ms.Tensor(x)).asnumpy()
    expect = (x - bn.moving_mean.asnumpy()[None, :, None, None]) / np.sqrt(
        bn.moving_variance.asnumpy()[None, :, None, None] + 1e-5)
    np.testing.assert_allclose(y_eval, expect, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("shape", [(8, 16, 20, 20), (3, 5, 7, 9), (64, 6), (32, 24, 4, 4), (5, 3, 2, 2)])
def test_batchnorm_training_matches_float64_on_offset_data(shape):
    """Data far from zero relative to its spread: the statistics (one pass of vector sums in double,
    shifted by the channel's first value; scalar sums for the floats past a run's last whole vector) and
    the normalization must not cancel digits away; the gradient too."""
    rng = np.random.default_rng(4)
    x = (rng.standard_normal(shape) * 0.01 + 1000).astype(np.float32)
    g = rng.standard_normal(shape).astype(np.float32)
    bn = nn.BatchNorm2d(shape[1]) if len(shape) == 4 else nn.BatchNorm1d(shape[1])
    bn.set_train()
    axes = (0, 2, 3) if len(shape) == 4 else (0,)
    x64 = x.astype(np.float64)
    xhat = (x64 - x64.mean(axes, keepdims=True)) / np.sqrt(x64.var(axes, keepdims=True) + 1e-5)
    np.testing.assert_allclose(bn(ms.Tensor(x)).asnumpy(), xhat, atol=4e-3)  # x*gain + shift was off by 1e-2
    # d/dx sum(y * g) = (g - mean(g) - xhat mean(g xhat)) / std
    std = np.sqrt(x64.var(axes, keepdims=True) + 1e-5)
    want = (g - g.mean(axes, keepdims=True) - xhat * (g * xhat).mean(axes, keepdims=True)) / std
    got = ms.grad(lambda t: (bn(t) * ms.Tensor(g)).sum())(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2 * np.abs(want).max())


@pytest.mark.parametrize("shape", [(16, 4, 8, 8), (64, 3)])
def test_batchnorm_statistics_with_an_outlier_first_value(shape):
    """The one-pass statistics shift by each channel's first value; were it an outlier, the sums of squares
    would hold its distance from the mean squared. That distance is at most sqrt(count) standard
    deviations, so double sums keep the variance to float32 precision: checked with an outlier 1e4 away."""
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(shape) + 5).astype(np.float32)
    x[(0, slice(None)) + (0,) * (len(shape) - 2)] = 1e4
    bn = (nn.BatchNorm2d(shape[1], momentum=0.0) if len(shape) == 4 else nn.BatchNorm1d(shape[1], momentum=0.0))
    bn.set_train()
    axes = (0, 2, 3) if len(shape) == 4 else (0,)
    x64 = x.astype(np.float64)
    mean, var = x64.mean(axes), x64.var(axes)
    y = bn(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), mean, rtol=1e-6)  # momentum 0: the batch's own
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), var, rtol=1e-5)
    shape_c = (1, -1) + (1,) * (len(shape) - 2)
    np.testing.assert_allclose(y, (x64 - mean.reshape(shape_c)) / np.sqrt(var.reshape(shape_c) + 1e-5), atol=1e-5)


def test_batchnorm_statistics_of_non_finite_data_follow_numpy():
    """An inf in a channel makes its mean inf and its variance NaN, as in NumPy, whether or not it is the
    channel's first value (the one-pass statistics shift by that value); nothing is clamped to 0."""
    x = np.random.default_rng(8).standard_normal((4, 3, 3, 3)).astype(np.float32)
    x[0, 0, 0, 0] = np.inf  # the first value of channel 0
    x[1, 1, 2, 2] = np.inf  # inside channel 1
    bn = nn.BatchNorm2d(3, momentum=0.0)
    bn.set_train()
    bn(ms.Tensor(x))
    with np.errstate(invalid="ignore"):
        mean, var = x.astype(np.float64).mean((0, 2, 3)), x.astype(np.float64).var((0, 2, 3))
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), mean, rtol=1e-6)
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), var, rtol=1e-5)


def test_layernorm_and_dropout_modes():
    ln = nn.LayerNorm((4,))
    x = np.random.default_rng(2).standard_normal((3, 4)).astype(np.float32)
    y = ln(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(y, (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-7),
                               rtol=1e-4, atol=1e-4)
    drop = nn.Dropout(p=0.5)
    ones = ms.Tensor(np.ones((1000,), np.float32))
    assert drop(ones).asnumpy().sum() == 1000  # not training: identity
    kept = drop.set_train()(ones).asnumpy()
    assert set(np.unique(kept)) <= {0.0, 2.0} and 350 < (kept > 0).sum() < 650


def test_embedding():
    emb = nn.Embedding(10, 3, padding_idx=0)
    out = emb(ms.Tensor(np.array([[1, 0], [9, 1]], np.int32)))
    assert out.shape == (2, 2, 3) and not out.asnumpy()[0, 1].any()
    np.testing.assert_array_equal(out.asnumpy()[0, 0], emb.embedding_table.asnumpy()[1])


def lstm_reference(x, weights, hidden):
    h = np.zeros((x.shape[1], hidden))
    c = np.zeros((x.shape[1], hidden))
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    outs = []
    w_ih, w_hh, b_ih, b_hh = weights
    for t in range(x.shape[0]):
        g = x[t] @ w_ih.T + b_ih + h @ w_hh.T + b_hh
        i, f, gg, o = np.split(g, 4, axis=1)
        c = sig(f) * c + sig(i) * np.tanh(gg)
        h = sig(o) * np.tanh(c)
        outs.append(h)
    return np.stack(outs), h, c


def test_lstm_matches_reference_and_bidirectional_shapes():
    lstm = nn.LSTM(3, 4)
    x = np.random.default_rng(3).standard_normal((5, 2, 3)).astype(np.float32)
    out, (h, c) = lstm(ms.Tensor(x))
    weights = [p.asnumpy() for p in lstm.get_parameters()]
    ref_out, ref_h, ref_c = lstm_reference(x, weights, 4)
    np.testing.assert_allclose(out.asnumpy(), ref_out, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(h.asnumpy()[0], ref_h, rtol=1e-4, atol=1e-5)
    bi = nn.LSTM(3, 4, num_layers=2, bidirectional=True, batch_first=True)
    out, (h, c) = bi(ms.Tensor(x.transpose(1, 0, 2)))
    assert out.shape == (2, 5, 8) and h.shape == (4, 2, 4)
    gru = nn.GRU(3, 4, num_layers=2)
    out, h = gru(ms.Tensor(x))
    assert out.shape == (5, 2, 4) and h.shape == (2, 2, 4)


def test_recurrent_gradients():
    ms.set_seed(4)
    gru = nn.GRU(2, 3)
    x = ms.Tensor(np.random.default_rng(4).standard_normal((3, 2, 2)).astype(np.float32))
    check_weight_grads(gru, lambda: (gru(x)[0] ** 2).sum())


@pytest.mark.parametrize("batch_first", [False, True], ids=["seq-first", "batch-first"])
@pytest.mark.parametrize("inputs", ["self", "copies", "cross"])
def test_multihead_attention_matches_reference(inputs, batch_first):
    # "self": one tensor for query, key and value (projected in one product); "copies": equal values in
    # three tensors (three products); "cross": a different key and value sequence (length 6).
    ms.set_seed(5)
    mha = nn.MultiheadAttention(8, 2, batch_first=batch_first)
    rng = np.random.default_rng(5)
    q = rng.standard_normal((4, 3, 8)).astype(np.float32)
    kv = rng.standard_normal((6, 3, 8)).astype(np.float32) if inputs == "cross" else q
    as_input = (lambda a: ms.Tensor(a.transpose(1, 0, 2).copy())) if batch_first else ms.Tensor
    if inputs == "self":
        x = as_input(q)
        args = (x, x, x)
    else:
        args = (as_input(q), as_input(kv), as_input(kv))
    out, weights = mha(*args)
    if batch_first:
        out = ops.transpose(out, (1, 0, 2))
    w_in, b_in = mha.in_proj_weight.asnumpy(), mha.in_proj_bias.asnumpy()
    proj = [x @ w_in[k * 8:(k + 1) * 8].T + b_in[k * 8:(k + 1) * 8] for k, x in enumerate((q, kv, kv))]
    heads = [p.reshape(p.shape[0], 3, 2, 4).transpose(1, 2, 0, 3) for p in proj]
    scores = heads[0] @ heads[1].transpose(0, 1, 3, 2) / 2.0
    attn = np.exp(scores - scores.max(-1, keepdims=True))
    attn /= attn.sum(-1, keepdims=True)
    ctx = (attn @ heads[2]).transpose(2, 0, 1, 3).reshape(4, 3, 8)
    ref = ctx @ mha.out_proj.weight.asnumpy().T + mha.out_proj.bias.asnumpy()
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(weights.asnumpy(), attn.mean(axis=1), rtol=1e-4, atol=1e-6)
    check_weight_grads(mha, lambda: (mha(*args)[0] ** 2).mean(), max_params=1)


def test_self_attention_compiles_to_the_same_values():
    ms.set_seed(5)
    mha = nn.MultiheadAttention(8, 2, batch_first=True)
    x = ms.Tensor(np.random.default_rng(7).standard_normal((3, 4, 8)).astype(np.float32))
    eager = mha(x, x, x)[0].asnumpy()
    compiled = ms.jit(lambda t: mha(t, t, t)[0])(x).asnumpy()
    np.testing.assert_allclose(compiled, eager, rtol=1e-5, atol=1e-6)


def test_transformer_stack_trains():
    ms.set_seed(6)
    layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0)
    model = nn.TransformerEncoder(layer, 2)
    assert len(model.trainable_params()) == 2 * len(layer.trainable_params())
    x = ms.Tensor(np.random.default_rng(6).standard_normal((5, 2, 8)).astype(np.float32))
    target = ms.Tensor(np.zeros((5, 2, 8), np.float32))
    step = nn.TrainOneStepCell(nn.WithLossCell(model, nn.MSELoss()), nn.Adam(model.trainable_params(), 1e-2))
    first = step(x, target).item()
    for _ in range(20):
        last = step(x, target).item()
    assert last < first
    dec = nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, dropout=0.0, norm_first=True)
    assert dec(x, x, tgt_is_causal=True).shape == (5, 2, 8)


@pytest.mark.parametrize("cell, args", [
    (nn.CrossEntropyLoss(), ("logits", "labels")),
    (nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), ("logits", "labels")),
    (nn.SoftmaxCrossEntropyWithLogits(reduction="sum"), ("logits", "onehot")),
    (nn.NLLLoss(), ("logprobs", "labels")),
    (nn.L1Loss(), ("logits", "target")),
    (nn.SmoothL1Loss(reduction="mean"), ("logits", "target")),
    (nn.BCEWithLogitsLoss(), ("logits", "probs")),
    (nn.BCELoss(), ("probs", "probs")),
    (nn.KLDivLoss(reduction="sum"), ("logprobs", "probs")),
    (nn.KLDivLoss(reduction="batchmean"), ("logprobs", "probs")),
])
def test_losses_match_numpy(cell, args):
    rng = np.random.default_rng(7)
    logits = rng.standard_normal((4, 3)).astype(np.float32)
    labels = np.array([0, 2, 1, 2], np.int32)
    logprobs = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    data = {"logits": logits, "labels": labels, "onehot": np.eye(3, dtype=np.float32)[labels],
            "logprobs": logprobs, "target": rng.standard_normal((4, 3)).astype(np.float32),
            "probs": np.clip(rng.random((4, 3)), 0.05, 0.95).astype(np.float32)}
    a, b = (data[k] for k in args)
    got = cell(ms.Tensor(a), ms.Tensor(b)).asnumpy()
    name = type(cell).__name__
    if name in ("CrossEntropyLoss", "SoftmaxCrossEntropyWithLogits", "NLLLoss"):
        nll = -logprobs[np.arange(4), labels]
        expect = nll.sum() if getattr(cell, "reduction", "mean") == "sum" else nll.mean()
    elif name == "L1Loss":
        expect = np.abs(a - b).mean()
    elif name == "SmoothL1Loss":
        d = np.abs(a - b)
        expect = np.where(d < 1, 0.5 * d * d, d - 0.5).mean()
    elif name == "BCEWithLogitsLoss":
        expect = (np.maximum(a, 0) - a * b + np.log1p(np.exp(-np.abs(a)))).mean()
    elif name == "BCELoss":
        expect = -(b * np.log(a) + (1 - b) * np.log(1 - a)).mean()
    else:
        expect = (b * (np.log(b) - a)).sum() / (4 if cell.reduction == "batchmean" else 1)
    np.testing.assert_allclose(got, expect, rtol=1e-4, atol=1e-5)


def test_conv1d_conv3d_transpose_groupnorm_adaptive_max():
    ms.set_seed(8)
    x1 = ms.Tensor(np.random.rand(2, 3, 10).astype(np.float32))
    assert nn.Conv1d(3, 4, 3)(x1).shape == (2, 4, 10)
    x3 = ms.Tensor(np.random.rand(1, 2, 4, 5, 6).astype(np.float32))
    assert nn.Conv3d(2, 3, 3, pad_mode="valid")(x3).shape == (1, 3, 2, 3, 4)
    x = ms.Tensor(np.random.rand(2, 4, 5, 5).astype(np.float32))
    for mode, expect in (("same", (2, 3, 10, 10)), ("valid", (2, 3, 11, 11)), ("pad", (2, 3, 9, 9))):
        up = nn.Conv2dTranspose(4, 3, 3, stride=2, pad_mode=mode, padding=1 if mode == "pad" else 0, has_bias=True)
        assert up(x).shape == expect, mode
    # the transpose really is the gradient of a convolution with the same weight
    up = nn.Conv2dTranspose(4, 3, 3, pad_mode="valid")
    conv = nn.Conv2d(3, 4, 3, pad_mode="valid")
    conv.weight.set_data(up.weight)
    y = ms.Tensor(np.random.rand(2, 3, 7, 7).astype(np.float32))
    g = ms.grad(lambda t: (conv(t) * x).sum())(y)
    np.testing.assert_allclose(up(x).asnumpy(), g.asnumpy(), rtol=1e-4, atol=1e-5)
    gn = nn.GroupNorm(2, 4)
    out = gn(x).asnumpy().reshape(2, 2, -1)
    np.testing.assert_allclose(out.mean(-1), 0, atol=1e-5)
    assert nn.AdaptiveMaxPool2d((2, 2))(x).shape == (2, 4, 2, 2)


@pytest.mark.parametrize("cls,shape", [(nn.InstanceNorm1d, (2, 3, 5)), (nn.InstanceNorm2d, (2, 3, 4, 5)),
                                       (nn.InstanceNorm3d, (2, 3, 2, 3, 4))])
def test_instance_norm_matches_numpy_both_modes_and_its_gradient(cls, shape):
    rng = np.random.RandomState(0)
    x = rng.randn(*shape)
    norm = cls(3, gamma_init="normal", beta_init="normal", dtype=ms.float64)
    gamma, beta = norm.gamma.asnumpy(), norm.beta.asnumpy()
    axes = tuple(range(2, len(shape)))
    bshape = (1, 3) + (1,) * len(axes)
    ref = (x - x.mean(axes, keepdims=True)) / np.sqrt(x.var(axes, keepdims=True) + 1e-5) * gamma.reshape(bshape) \
        + beta.reshape(bshape)
    np.testing.assert_allclose(norm(ms.Tensor(x)).asnumpy(), ref, rtol=1e-10, atol=1e-10)
    weights = ms.Tensor(rng.randn(*shape))
    grad = ms.grad(lambda t: (norm(t) * weights).sum())(ms.Tensor(x)).asnumpy()
    eps, k = 1e-6, (0, 1) + (0,) * len(axes)
    shifted = [x.copy(), x.copy()]
    shifted[0][k] += eps
    shifted[1][k] -= eps
    numeric = sum(float((norm(ms.Tensor(s)).asnumpy() * weights.asnumpy()).sum()) * sign
                  for s, sign in zip(shifted, (1, -1))) / (2 * eps)
    np.testing.assert_allclose(grad[k], numeric, rtol=1e-5)
    ms.set_context(mode=ms.GRAPH_MODE)
    np.testing.assert_allclose(norm(ms.Tensor(x)).asnumpy(), ref, rtol=1e-10, atol=1e-10)
    with pytest.raises(ValueError, match=f"{cls.__name__}: expects a {len(shape)}-D input"):
        norm(ms.Tensor(np.ones((2, 4) + shape[2:])))


def test_pool_layers_with_padding_and_ceil_mode_in_both_modes():
    x = ms.Tensor(np.random.RandomState(3).randn(2, 3, 7, 8))
    mp = nn.MaxPool2d(3, 2, pad_mode="pad", padding=1, ceil_mode=True)
    ap = nn.AvgPool2d(3, 2, pad_mode="pad", padding=1, ceil_mode=True, count_include_pad=False)
    eager = [mp(x).asnumpy(), ap(x).asnumpy()]
    assert eager[0].shape == (2, 3, 4, 5) and eager[1].shape == (2, 3, 4, 5)
    grad = ms.grad(lambda t: (mp(t) + ap(t)).sum())(x).asnumpy()
    assert grad.shape == x.shape and np.isfinite(grad).all() and grad.any()
    ms.set_context(mode=ms.GRAPH_MODE)
    np.testing.assert_array_equal(mp(x).asnumpy(), eager[0])
    np.testing.assert_allclose(ap(x).asnumpy(), eager[1], rtol=1e-12)
    with pytest.raises(ValueError, match="'padding' and 'ceil_mode' need pad_mode='pad'"):
        nn.MaxPool2d(2, 2, padding=1)
