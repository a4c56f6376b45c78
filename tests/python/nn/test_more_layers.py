"""nn layers added for MindSpore 2.x compatibility: RNN and the single-step cells, padding (ops.pad's
reflect/replicate/circular modes and the Pad cells), 1-d pooling, channel dropout, Unflatten, Upsample and
Transformer. Values against NumPy, gradients against finite differences, compiled against eager."""
import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops

from finite_differences import numeric_grad

RNG = np.random.default_rng(11)


def T(a):
    return ms.Tensor(np.asarray(a))


def params_np(cell):
    return {p.name.split(".")[-1]: p.asnumpy().astype(np.float64) for p in cell.trainable_params()}


# ---- recurrent -------------------------------------------------------------------------------------

def rnn_reference(x, p, layers, bidirectional, act):
    """(output, h_n) of a sequence-first Elman RNN from its parameters."""
    h_n, inp = [], x
    for layer in range(layers):
        outs = []
        for suffix in ("", "_reverse")[:1 + bidirectional]:
            w_ih, w_hh = p[f"weight_ih_l{layer}{suffix}"], p[f"weight_hh_l{layer}{suffix}"]
            b = p[f"bias_ih_l{layer}{suffix}"] + p[f"bias_hh_l{layer}{suffix}"]
            h = np.zeros((x.shape[1], w_hh.shape[0]))
            seq = [None] * len(inp)
            for t in (reversed(range(len(inp))) if suffix else range(len(inp))):
                h = act(inp[t] @ w_ih.T + h @ w_hh.T + b)
                seq[t] = h
            outs.append(np.stack(seq))
            h_n.append(h)
        inp = np.concatenate(outs, -1)
    return inp, np.stack(h_n)


@pytest.mark.parametrize("nonlinearity,act", [("tanh", np.tanh), ("relu", lambda v: np.maximum(v, 0))])
def test_rnn_matches_the_recurrence(nonlinearity, act):
    net = nn.RNN(3, 4, num_layers=2, nonlinearity=nonlinearity, bidirectional=True, dtype=ms.float64)
    x = RNG.standard_normal((5, 2, 3))
    out, h_n = net(T(x))
    want_out, want_h = rnn_reference(x, params_np(net), 2, True, act)
    np.testing.assert_allclose(out.asnumpy(), want_out, rtol=1e-12)
    np.testing.assert_allclose(h_n.asnumpy(), want_h, rtol=1e-12)
    batch_first, h_bf = nn.RNN(3, 4, nonlinearity=nonlinearity, batch_first=True, dtype=ms.float64), None
    out_bf, h_bf = batch_first(T(x.transpose(1, 0, 2)))
    want_out, want_h = rnn_reference(x, params_np(batch_first), 1, False, act)
    np.testing.assert_allclose(out_bf.asnumpy(), want_out.transpose(1, 0, 2), rtol=1e-12)
    with pytest.raises(ValueError, match="RNN: 'nonlinearity' must be 'tanh' or 'relu'"):
        nn.RNN(3, 4, nonlinearity="gelu")


def test_rnn_gradient_and_graph_mode():
    net = nn.RNN(2, 3, dtype=ms.float64)
    x = RNG.standard_normal((4, 1, 2))
    loss = lambda v: net(v)[0].sum()  # noqa: E731
    got = ms.grad(loss)(T(x)).asnumpy()
    np.testing.assert_allclose(got, numeric_grad(lambda v: float(loss(T(v)).asnumpy()), x), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(ms.jit(lambda v: net(v)[0])(T(x)).asnumpy(), net(T(x))[0].asnumpy(), rtol=1e-12)


def test_single_step_cells():
    x, h, c = RNG.standard_normal((2, 3)), RNG.standard_normal((2, 4)), RNG.standard_normal((2, 4))
    rnn = nn.RNNCell(3, 4, dtype=ms.float64)
    p = params_np(rnn)
    want = np.tanh(x @ p["weight_ih"].T + p["bias_ih"] + h @ p["weight_hh"].T + p["bias_hh"])
    np.testing.assert_allclose(rnn(T(x), T(h)).asnumpy(), want, rtol=1e-12)
    np.testing.assert_allclose(rnn(T(x[0]), T(h[0])).asnumpy(), want[0], rtol=1e-12)  # one sample, no batch axis
    lstm = nn.LSTMCell(3, 4, dtype=ms.float64)
    got_h, got_c = lstm(T(x), (T(h), T(c)))
    want_h, want_c = ops.lstm_cell(T(x), T(h), T(c), lstm.weight_ih, lstm.weight_hh, lstm.bias_ih, lstm.bias_hh)
    np.testing.assert_array_equal(got_h.asnumpy(), want_h.asnumpy())
    np.testing.assert_array_equal(got_c.asnumpy(), want_c.asnumpy())
    zero_h, _ = lstm(T(x))
    want_zero, _ = ops.lstm_cell(T(x), T(np.zeros((2, 4))), T(np.zeros((2, 4))), lstm.weight_ih, lstm.weight_hh,
                                 lstm.bias_ih, lstm.bias_hh)
    np.testing.assert_array_equal(zero_h.asnumpy(), want_zero.asnumpy())
    gru = nn.GRUCell(3, 4, has_bias=False, dtype=ms.float64)
    assert gru.bias_ih is None and len(gru.trainable_params()) == 2
    np.testing.assert_array_equal(gru(T(x), T(h)).asnumpy(),
                                  ops.gru_cell(T(x), T(h), gru.weight_ih, gru.weight_hh).asnumpy())
    with pytest.raises(ValueError, match=r"GRUCell: 'x' must be \(batch, 3\) or \(3,\)"):
        gru(T(RNG.standard_normal((2, 5))))
    with pytest.raises(ValueError, match="LSTMCell: 'hidden_size' must be a positive int"):
        nn.LSTMCell(3, 0)


# ---- padding ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode,numpy_mode", [("reflect", "reflect"), ("replicate", "edge"), ("circular", "wrap")])
def test_pad_modes_match_numpy(mode, numpy_mode):
    x = RNG.standard_normal((2, 3, 4, 5))
    got = ops.pad(T(x), (1, 2, 3, 0, 2, 1), mode=mode)
    np.testing.assert_array_equal(got.asnumpy(), np.pad(x, ((0, 0), (2, 1), (3, 0), (1, 2)), mode=numpy_mode))
    small = RNG.standard_normal((2, 4))
    loss = lambda v: (ops.pad(v, (3, 2), mode=mode) * T(np.arange(9.0))).sum()  # noqa: E731
    np.testing.assert_allclose(ms.grad(loss)(T(small)).asnumpy(),
                               numeric_grad(lambda v: float(loss(T(v)).asnumpy()), small), rtol=1e-6)


def test_pad_rejects_what_it_cannot_do():
    x = T(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="pad: mode='reflect' pads an axis of size 3 by at most 2 on each side"):
        ops.pad(x, (3, 0), mode="reflect")
    with pytest.raises(ValueError, match="pad: 'mode' must be 'constant', 'reflect', 'replicate' or 'circular'"):
        ops.pad(x, (1, 1), mode="symmetric")
    with pytest.raises(ValueError, match="pad: 'value' applies to mode='constant' only"):
        ops.pad(x, (1, 1), mode="replicate", value=1.0)


def test_padding_cells():
    x = RNG.standard_normal((1, 2, 3, 4))
    cases = [(nn.ZeroPad2d((1, 2, 0, 1)), np.pad(x, ((0, 0), (0, 0), (0, 1), (1, 2)))),
             (nn.ConstantPad1d(2, 3.5), np.pad(x, ((0, 0), (0, 0), (0, 0), (2, 2)), constant_values=3.5)),
             (nn.ConstantPad3d(1, -1.0), np.pad(x, ((0, 0), (1, 1), (1, 1), (1, 1)), constant_values=-1.0)),
             (nn.ReflectionPad2d(2), np.pad(x, ((0, 0), (0, 0), (2, 2), (2, 2)), mode="reflect")),
             (nn.ReplicationPad1d((0, 3)), np.pad(x, ((0, 0), (0, 0), (0, 0), (0, 3)), mode="edge")),
             (nn.ReplicationPad3d(1), np.pad(x, ((0, 0), (1, 1), (1, 1), (1, 1)), mode="edge"))]
    for cell, want in cases:
        np.testing.assert_array_equal(cell(T(x)).asnumpy(), want, err_msg=type(cell).__name__)
    with pytest.raises(ValueError, match=r"ReflectionPad2d: 'padding' must be an int or a tuple of 4 ints"):
        nn.ReflectionPad2d((1, 2))


# ---- pooling, dropout, reshaping -------------------------------------------------------------------

def test_one_dimensional_pooling():
    x = RNG.standard_normal((2, 3, 10))
    windows = np.lib.stride_tricks.sliding_window_view(x, 3, axis=2)
    np.testing.assert_array_equal(nn.MaxPool1d(3, 1)(T(x)).asnumpy(), windows.max(-1))
    np.testing.assert_allclose(nn.AvgPool1d(3, 1)(T(x)).asnumpy(), windows.mean(-1), rtol=1e-12)
    np.testing.assert_array_equal(ops.max_pool1d(T(x), 2).asnumpy(), x.reshape(2, 3, 5, 2).max(-1))
    np.testing.assert_allclose(nn.AdaptiveAvgPool1d(5)(T(x)).asnumpy(), x.reshape(2, 3, 5, 2).mean(-1), rtol=1e-12)
    np.testing.assert_array_equal(nn.AdaptiveMaxPool1d(2)(T(x)).asnumpy(), x.reshape(2, 3, 2, 5).max(-1))
    np.testing.assert_array_equal(ops.max_pool1d(T(x[0]), 2).asnumpy(), x[0].reshape(3, 5, 2).max(-1))
    padded = nn.AvgPool1d(3, 2, pad_mode="pad", padding=1)(T(x)).asnumpy()
    want = np.lib.stride_tricks.sliding_window_view(np.pad(x, ((0, 0), (0, 0), (1, 1))), 3, axis=2)[..., ::2, :]
    np.testing.assert_allclose(padded, want.mean(-1), rtol=1e-12)
    with pytest.raises(ValueError, match=r"max_pool1d: 'input_x' must be \(N, C, L\) or \(C, L\)"):
        ops.max_pool1d(T(RNG.standard_normal((1, 2, 3, 4))), 2)


@pytest.mark.parametrize("cell_type,shape", [(nn.Dropout1d, (4, 16, 5)), (nn.Dropout2d, (4, 16, 3, 3)),
                                             (nn.Dropout3d, (2, 16, 2, 2, 2))])
def test_channel_dropout_zeroes_whole_channels(cell_type, shape):
    cell = cell_type(p=0.5)
    x = T(np.ones(shape, np.float32))
    np.testing.assert_array_equal(cell(x).asnumpy(), x.asnumpy())  # not training: the identity
    cell.set_train()
    ms.set_seed(3)
    y = cell(x).asnumpy().reshape(shape[0], shape[1], -1)
    assert set(np.unique(y)) <= {0.0, 2.0}  # kept channels scaled by 1 / (1 - p)
    assert (y.min(-1) == y.max(-1)).all()   # each channel all kept or all dropped
    assert 0.2 < (y[:, :, 0] == 0).mean() < 0.8
    with pytest.raises(ValueError, match=f"{cell_type.__name__}: 'p' must be a number in"):
        cell_type(p=1.5)


def test_unflatten_and_upsample():
    x = RNG.standard_normal((2, 12, 3))
    np.testing.assert_array_equal(nn.Unflatten(1, (3, 4))(T(x)).asnumpy(), x.reshape(2, 3, 4, 3))
    np.testing.assert_array_equal(nn.Unflatten(-1, (3, 1))(T(x)).asnumpy(), x.reshape(2, 12, 3, 1))
    img = T(RNG.standard_normal((1, 2, 3, 3)).astype(np.float32))
    np.testing.assert_array_equal(nn.Upsample(scale_factor=2.0)(img).asnumpy(),
                                  img.asnumpy().repeat(2, axis=2).repeat(2, axis=3))
    np.testing.assert_array_equal(nn.Upsample(size=(5, 4), mode="bilinear", align_corners=True)(img).asnumpy(),
                                  ops.interpolate(img, (5, 4), mode="bilinear", align_corners=True).asnumpy())


# ---- Transformer -----------------------------------------------------------------------------------

def test_transformer_is_its_encoder_then_its_decoder():
    net = nn.Transformer(8, 2, num_encoder_layers=2, num_decoder_layers=1, dim_feedforward=16, dropout=0.0,
                         batch_first=True)
    src, tgt = T(RNG.standard_normal((3, 5, 8)).astype(np.float32)), T(RNG.standard_normal((3, 4, 8)).astype(np.float32))
    mask = T(np.triu(np.full((4, 4), -1e9, np.float32), 1))
    out = net(src, tgt, tgt_mask=mask)
    want = net.decoder(tgt, net.encoder(src), mask)
    np.testing.assert_array_equal(out.asnumpy(), want.asnumpy())
    assert out.shape == (3, 4, 8)
    weights = net.trainable_params()
    grads = ms.grad(lambda s, t: net(s, t, tgt_mask=mask).sum(), grad_position=None, weights=weights)(src, tgt)
    assert len(grads) == len(weights) and all(np.isfinite(g.asnumpy()).all() for g in grads)
    with pytest.raises(ValueError, match="Transformer: 'src' and 'tgt' must share the batch size"):
        net(src, T(np.zeros((2, 4, 8), np.float32)))
