"""FTRL, LARS, LazyAdam, ProximalAdagrad, AdaFactor, AdaMax against NumPy transcriptions of MindSpore's
formulas (checked once against MindSpore 2.10 on CPU); a TrainOneStepCell step eager and compiled; the state
names a checkpoint holds; nn.dynamic_lr."""
import math
import os

import numpy as np
import pytest

import sprout as ms
from sprout import nn

W0 = [np.array([1.0, -2.0, 3.0]), np.array([[0.5, -0.25, 1.0], [1.5, 2.0, -1.0]])]
GRADS = [[np.array([0.1, -0.2, 0.3]), np.array([[1.0, -1.0, 0.5], [0.2, 0.0, -0.3]])],
         [np.array([-0.4, 0.1, 0.2]), np.array([[0.3, 0.6, -0.5], [0.1, 0.9, 0.4]])],
         [np.array([0.2, 0.3, -0.1]), np.array([[-0.2, 0.4, 0.1], [0.7, -0.6, 0.2]])]]


def run(opt_cls, *args, **kw):
    ps = [ms.Parameter(ms.Tensor(w.astype(np.float32)), name=f"w{i}") for i, w in enumerate(W0)]
    opt = opt_cls(ps, *args, **kw)
    for gs in GRADS:
        opt(tuple(ms.Tensor(g.astype(np.float32)) for g in gs))
    return [p.asnumpy() for p in ps], opt


def reference(update, state_init):
    """Runs update(w, g, state, t) -> (w, state) over GRADS for every parameter, in float64."""
    out = []
    for k, w in enumerate(W0):
        state = state_init(w)
        for t, gs in enumerate(GRADS, 1):
            w, state = update(w.copy(), gs[k], state, t)
        out.append(w)
    return out


def close(got, want, rtol=2e-5, atol=1e-6):
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)


def test_ftrl():
    lr, l1, l2, p, wd = 0.05, 0.05, 0.02, -0.3, 0.01

    def update(w, g, s, t):
        g = g + wd * w
        m, u = s
        m_new = m + g * g
        u = u + g - (m_new ** -p - m ** -p) / lr * w
        q = m_new ** -p / lr + 2 * l2
        w = np.where(np.abs(u) > l1, (np.sign(u) * l1 - u) / q, 0.0)
        return w, (m_new, u)
    got, _ = run(nn.FTRL, learning_rate=lr, l1=l1, l2=l2, lr_power=p, weight_decay=wd)
    close(got, reference(update, lambda w: (np.full_like(w, 0.1), np.zeros_like(w))))


def test_ftrl_refuses_dynamic_learning_rates():
    ps = [ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="a")]
    with pytest.raises(ValueError, match="FTRL: 'learning_rate'"):
        nn.FTRL(ps, learning_rate=[0.1, 0.2])
    with pytest.raises(ValueError, match="lr_power"):
        nn.FTRL(ps, lr_power=0.5)
    with pytest.raises(ValueError, match="per parameter group"):
        nn.FTRL([{"params": ps, "lr": 0.1}])


def test_proximal_adagrad_uses_the_adaptive_rate_in_its_proximal_step():
    lr, l1, l2 = 0.1, 0.01, 0.02

    def update(w, g, accum, t):
        accum = accum + g * g
        a = lr / np.sqrt(accum)
        v = w - a * g
        return np.sign(v) / (1 + a * l2) * np.maximum(np.abs(v) - a * l1, 0), accum
    got, _ = run(nn.ProximalAdagrad, learning_rate=lr, l1=l1, l2=l2)
    close(got, reference(update, lambda w: np.full_like(w, 0.1)))


@pytest.mark.parametrize("nesterov", [False, True])
def test_lazy_adam_is_adam_on_dense_gradients(nesterov):
    lr, b1, b2, eps, wd = 0.01, 0.9, 0.999, 1e-8, 0.01

    def update(w, g, s, t):
        g = g + wd * w
        m, v = s
        m, v = b1 * m + (1 - b1) * g, b2 * v + (1 - b2) * g * g
        step = lr * math.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        num = b1 * m + (1 - b1) * g if nesterov else m
        return w - step * num / (np.sqrt(v) + eps), (m, v)
    got, opt = run(nn.LazyAdam, learning_rate=lr, use_nesterov=nesterov, weight_decay=wd)
    close(got, reference(update, lambda w: (np.zeros_like(w), np.zeros_like(w))))
    np.testing.assert_allclose(opt.beta1_power.asnumpy(), [b1 ** 3], rtol=1e-6)
    np.testing.assert_allclose(opt.beta2_power.asnumpy(), [b2 ** 3], rtol=1e-6)


def test_ada_max():
    lr, b1, b2, eps = 0.01, 0.9, 0.999, 1e-8

    def update(w, g, s, t):
        m, v = s
        m, v = b1 * m + (1 - b1) * g, np.maximum(b2 * v, np.abs(g))
        return w - lr / (1 - b1 ** t) * m / (v + eps), (m, v)
    got, opt = run(nn.AdaMax, learning_rate=lr)
    close(got, reference(update, lambda w: (np.zeros_like(w), np.zeros_like(w))))
    np.testing.assert_allclose(opt.beta1_power.asnumpy(), [b1 ** 3], rtol=1e-6)


def adafactor_reference(lr=None, eps=(1e-30, 1e-3), clip=1.0, decay_rate=0.8, beta1=0.9, wd=0.0, scale=True,
                        relative=True, warmup=False):
    def update(w, g, s, t):
        m, row, col, v = s
        rate = (min(1e-6 * t if warmup else 1e-2, 1 / math.sqrt(t)) if relative else lr)
        if scale:
            rate = rate * max(eps[1], np.sqrt(np.mean(w * w)))
        beta2t = 1 - t ** -decay_rate
        sq = g * g + eps[0]
        if w.ndim >= 2:
            row = row * beta2t + sq.mean(-1) * (1 - beta2t)
            col = col * beta2t + sq.mean(-2) * (1 - beta2t)
            u = (1 / np.sqrt(row / row.mean(-1, keepdims=True)))[..., None] * (1 / np.sqrt(col[..., None, :])) * g
        else:
            v = v * beta2t + sq * (1 - beta2t)
            u = g / np.sqrt(v)
        u = u / max(np.sqrt(np.mean(u * u)) / clip, 1.0) * rate
        if beta1 > 0:
            m = m * beta1 + u * (1 - beta1)
            u = m
        if wd:
            w = w - w * wd * rate
        return w - u, (m, row, col, v)
    return reference(update, lambda w: (np.zeros_like(w), np.zeros(w.shape[:-1]), np.zeros(w.shape[:-2] + w.shape[-1:]),
                                        np.zeros_like(w)))


def test_ada_factor_relative_step():
    got, opt = run(nn.AdaFactor)
    close(got, adafactor_reference())
    assert opt.step.asnumpy().tolist() == [3.0]


def test_ada_factor_external_rate_without_first_moment():
    got, opt = run(nn.AdaFactor, learning_rate=0.01, relative_step=False, scale_parameter=False, beta1=None,
                   weight_decay=0.1, clip_threshold=0.5)
    close(got, adafactor_reference(lr=0.01, relative=False, scale=False, beta1=0.0, wd=0.1, clip=0.5))
    assert not hasattr(opt, "exp_avg")


def test_ada_factor_warmup_and_argument_checks():
    got, _ = run(nn.AdaFactor, warmup_init=True, decay_rate=0.5)
    close(got, adafactor_reference(warmup=True, decay_rate=0.5))
    ps = [ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="a")]
    with pytest.raises(ValueError, match="relative_step"):
        nn.AdaFactor(ps, learning_rate=0.1)
    with pytest.raises(ValueError, match="warmup_init"):
        nn.AdaFactor(ps, learning_rate=0.1, relative_step=False, warmup_init=True)
    with pytest.raises(ValueError, match="'eps'"):
        nn.AdaFactor(ps, eps=(1e-30,))


@pytest.mark.parametrize("use_clip", [False, True])
def test_lars_scales_the_wrapped_optimizers_gradients(use_clip):
    lr, momentum, wd, eps, coef = 0.1, 0.9, 0.01, 1e-5, 0.001

    def update(w, g, v, t):
        w_norm, g_norm = np.linalg.norm(w), np.linalg.norm(g)
        trust = coef * w_norm / (g_norm + wd * w_norm + eps)
        if use_clip:
            trust = min(trust / lr, 1.0)
        trust = trust if w_norm > 0 and g_norm > 0 else 1.0
        v = momentum * v + trust * (g + wd * w)
        return w - lr * v, v
    ps = [ms.Parameter(ms.Tensor(w.astype(np.float32)), name=f"w{i}") for i, w in enumerate(W0)]
    inner = nn.Momentum(ps, lr, momentum, weight_decay=wd)
    opt = nn.LARS(inner, epsilon=eps, coefficient=coef, use_clip=use_clip)
    for gs in GRADS:
        opt(tuple(ms.Tensor(g.astype(np.float32)) for g in gs))
    close([p.asnumpy() for p in ps], reference(update, np.zeros_like))
    assert opt.global_step is inner.global_step and opt.global_step.asnumpy().tolist() == [3]
    with pytest.raises(TypeError, match="LARS: 'optimizer'"):
        nn.LARS(ps)


def lars_momentum(params, learning_rate):
    return nn.LARS(nn.Momentum(params, learning_rate, 0.9))


STEP_CASES = [
    (nn.FTRL, {"learning_rate": 0.05}, ["moments.", "linear."]),
    (nn.ProximalAdagrad, {"learning_rate": 0.05, "l1": 0.001}, ["accum."]),
    (nn.LazyAdam, {"learning_rate": 0.05}, ["moment1.", "moment2.", "beta1_power", "beta2_power"]),
    (nn.AdaMax, {"learning_rate": 0.05}, ["moment1.", "moment2.", "beta1_power"]),
    (nn.AdaFactor, {}, ["exp_avg.", "exp_avg_sq_row_", "exp_avg_sq_col_", "exp_avg_sq_", "afactor_step"]),
    (lars_momentum, {"learning_rate": 0.05}, ["moments."]),
]


@pytest.mark.parametrize("make_opt,kw,state", STEP_CASES, ids=lambda c: getattr(c, "__name__", None))
def test_train_step_eager_matches_graph_and_checkpoints_the_state(make_opt, kw, state, tmp_path):
    x = ms.Tensor(np.random.default_rng(0).standard_normal((8, 3)).astype(np.float32))
    y = ms.Tensor(np.random.default_rng(1).standard_normal((8, 2)).astype(np.float32))
    results = {}
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_seed(3)
        net = nn.Dense(3, 2)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), make_opt(net.trainable_params(), **kw))
        ms.set_context(mode=mode)
        try:
            losses = [float(step(x, y).asnumpy()) for _ in range(3)]
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
        results[mode] = (losses, net.weight.asnumpy(), net.bias.asnumpy())
    for a, b in zip(results[ms.PYNATIVE_MODE], results[ms.GRAPH_MODE]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)
    path = os.path.join(tmp_path, "step.ckpt")
    ms.save_checkpoint(step, path)
    saved = set(ms.load_checkpoint(path))
    for prefix in state:
        assert any(name.startswith(prefix) for name in saved), (prefix, sorted(saved))
    assert "global_step" in saved


def test_dynamic_lr_functions():
    from sprout.nn import dynamic_lr
    lr = nn.natural_exp_decay_lr(0.1, 0.5, 6, 2, 2)
    np.testing.assert_allclose(lr, [0.1 * math.exp(-0.5 * (i // 2)) for i in range(6)])
    lr = nn.natural_exp_decay_lr(0.1, 0.5, 6, 1, 2, is_stair=True)
    np.testing.assert_allclose(lr, [0.1 * math.exp(-0.5 * (i // 2 * 2)) for i in range(6)])
    lr = nn.inverse_decay_lr(0.1, 0.5, 6, 2, 2)
    np.testing.assert_allclose(lr, [0.1 / (1 + 0.5 * (i // 2) / 2) for i in range(6)])
    lr = nn.inverse_decay_lr(0.1, 0.5, 6, 1, 4, is_stair=True)
    np.testing.assert_allclose(lr, [0.1 / (1 + 0.5 * (i // 4)) for i in range(6)])
    lr = dynamic_lr.polynomial_decay_lr(0.1, 0.01, 6, 1, 2, 0.5)
    np.testing.assert_allclose(lr, [0.09 * (1 - min(i, 2) / 2) ** 0.5 + 0.01 for i in range(6)])
    lr = dynamic_lr.polynomial_decay_lr(0.1, 0.01, 6, 1, 2, 0.5, update_decay_epoch=True)
    np.testing.assert_allclose(lr, [0.09 * (1 - i / (2 * max(math.ceil(i / 2), 1))) ** 0.5 + 0.01 for i in range(6)])
    assert dynamic_lr.piecewise_constant_lr is nn.piecewise_constant_lr and dynamic_lr.warmup_lr is nn.warmup_lr
    with pytest.raises(TypeError, match="natural_exp_decay_lr: 'learning_rate' must be a float"):
        nn.natural_exp_decay_lr(1, 0.5, 6, 2, 2)
    with pytest.raises(ValueError, match="polynomial_decay_lr: 'total_step'"):
        nn.polynomial_decay_lr(0.1, 0.01, 0, 1, 2, 0.5)
