"""Optimizers against NumPy reimplementations of their update rules; schedules; wrappers."""
import numpy as np
import pytest

import sprout as ms
from sprout import nn


def params(*arrays):
    return [ms.Parameter(ms.Tensor(np.array(a, np.float32)), name=f"p{i}") for i, a in enumerate(arrays)]


def run(opt_cls, steps=3, **kw):
    ps = params([1.0, -2.0, 3.0], [[0.5, 0.25]])
    opt = opt_cls(ps, **kw)
    grads = [np.array([0.1, -0.2, 0.3], np.float32), np.array([[1.0, -1.0]], np.float32)]
    for _ in range(steps):
        opt(tuple(ms.Tensor(g) for g in grads))
    return [p.asnumpy() for p in ps], grads


def test_sgd_momentum_nesterov_weight_decay():
    got, grads = run(nn.SGD, learning_rate=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)
    p = np.array([1.0, -2.0, 3.0])
    buf = None
    for _ in range(3):
        g = grads[0] + 0.01 * p
        buf = g if buf is None else 0.9 * buf + g
        p = p - 0.1 * (g + 0.9 * buf)
    np.testing.assert_allclose(got[0], p, rtol=1e-5)


def test_sgd_dampening_skips_the_first_step():
    got, grads = run(nn.SGD, learning_rate=0.1, momentum=0.9, dampening=0.5)
    p, buf = np.array([[0.5, 0.25]]), None
    for _ in range(3):
        g = grads[1]
        buf = g if buf is None else 0.9 * buf + 0.5 * g
        p = p - 0.1 * buf
    np.testing.assert_allclose(got[1], p, rtol=1e-5)


def test_sgd_weight_decay_without_momentum():
    got, grads = run(nn.SGD, learning_rate=0.1, weight_decay=0.01)
    p = np.array([1.0, -2.0, 3.0])
    for _ in range(3):
        p = p - 0.1 * (grads[0] + 0.01 * p)
    np.testing.assert_allclose(got[0], p, rtol=1e-5)


def test_momentum():
    got, grads = run(nn.Momentum, learning_rate=0.1, momentum=0.9)
    p, v = np.array([1.0, -2.0, 3.0]), 0
    for _ in range(3):
        v = 0.9 * v + grads[0]
        p = p - 0.1 * v
    np.testing.assert_allclose(got[0], p, rtol=1e-5)


def test_adam_matches_reference():
    got, grads = run(nn.Adam, learning_rate=0.01)
    p, m, v = np.array([[0.5, 0.25]]), 0, 0
    for t in range(1, 4):
        g = grads[1]
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        p = p - 0.01 * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t) * m / (np.sqrt(v) + 1e-8)
    np.testing.assert_allclose(got[1], p, rtol=1e-5)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_adam_amsgrad_divides_by_the_largest_second_moment(mode):
    ms.set_context(mode=mode)
    p = ms.Parameter(ms.Tensor(np.array([1.0, -2.0], np.float32)), name="p")
    opt = nn.Adam([p], learning_rate=0.01, use_amsgrad=True)
    grads = [np.array([1.0, -0.5], np.float32), np.array([0.1, 0.2], np.float32), np.array([0.05, -3.0], np.float32)]
    step = ms.jit(lambda g: opt((g,))) if mode == ms.GRAPH_MODE else (lambda g: opt((g,)))
    w, m, v, vhat = np.array([1.0, -2.0]), 0, 0, 0
    for t, g in enumerate(grads, 1):
        step(ms.Tensor(g))
        m, v = 0.9 * m + 0.1 * g, 0.999 * v + 0.001 * g * g
        vhat = np.maximum(vhat, v)
        w = w - 0.01 * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t) * m / (np.sqrt(vhat) + 1e-8)
    np.testing.assert_allclose(p.asnumpy(), w, rtol=1e-5)
    assert any(name.startswith("vhat.") for name, _ in opt.parameters_and_names())
    with pytest.raises(ValueError, match="'use_nesterov' and 'use_amsgrad' cannot both be True"):
        nn.Adam([p], use_nesterov=True, use_amsgrad=True)


def test_adamw_decoupled_decay():
    got, grads = run(nn.AdamWeightDecay, learning_rate=0.01, weight_decay=0.1)
    p, m, v = np.array([1.0, -2.0, 3.0]), 0, 0
    for _ in range(3):
        g = grads[0]
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        p = p - 0.01 * (m / (np.sqrt(v) + 1e-6) + 0.1 * p)
    np.testing.assert_allclose(got[0], p, rtol=1e-5)


def test_adamw_matches_pytorchs_update():
    got, grads = run(nn.AdamW, learning_rate=0.01, weight_decay=0.1)
    p, m, v = np.array([1.0, -2.0, 3.0]), 0, 0
    for t in range(1, 4):
        g = grads[0]
        p = p * (1 - 0.01 * 0.1)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        p = p - 0.01 * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    np.testing.assert_allclose(got[0], p, rtol=1e-5)


def test_rmsprop_matches_reference():
    got, grads = run(nn.RMSProp, learning_rate=0.01, decay=0.9, momentum=0.5, weight_decay=0.01)
    p, ms_, mom = np.array([1.0, -2.0, 3.0]), np.ones(3), np.zeros(3)
    for _ in range(3):
        g = grads[0] + 0.01 * p
        ms_ = 0.9 * ms_ + 0.1 * g * g
        mom = 0.5 * mom + 0.01 * g / np.sqrt(ms_ + 1e-10)
        p = p - mom
    np.testing.assert_allclose(got[0], p, rtol=1e-5)


@pytest.mark.parametrize("opt_cls, kw", [
    (nn.SGD, {"learning_rate": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
    (nn.SGD, {"learning_rate": 0.1, "momentum": 0.9, "dampening": 0.5}),
    (nn.SGD, {"learning_rate": 0.1, "weight_decay": 0.01}),
    (nn.AdamW, {"learning_rate": 0.01, "weight_decay": 0.1}),
    (nn.RMSProp, {"learning_rate": 0.01, "momentum": 0.5}),
    (nn.RMSProp, {"learning_rate": 0.01, "momentum": 0.5, "centered": True}),
    (nn.Adagrad, {"learning_rate": 0.1, "weight_decay": 0.01}),
    (nn.Lamb, {"learning_rate": 0.01, "weight_decay": 0.01}),
    (nn.Adamax, {"learning_rate": 0.01, "weight_decay": 0.01}),
    (nn.Adadelta, {"learning_rate": 1.0}),
])
def test_fused_updates_compile_to_the_same_steps(opt_cls, kw):
    # The step count, and the bias corrections and rates derived from it, are tensors in a compiled step.
    want, _ = run(opt_cls, **kw)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        got, _ = run(opt_cls, **kw)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)


def test_groups_dynamic_lr_and_loss_scale():
    a, b = params([1.0], [1.0])
    opt = nn.SGD([{"params": [a], "lr": 0.5}, {"params": [b]}], learning_rate=[0.1, 0.2], loss_scale=2.0)
    for _ in range(2):
        opt((ms.Tensor([2.0]), ms.Tensor([2.0])))
    assert a.item() == pytest.approx(1.0 - 0.5 - 0.5)
    assert b.item() == pytest.approx(1.0 - 0.1 - 0.2)
    assert opt.global_step.tolist() == [2]
    assert opt.get_lr().item() == pytest.approx(0.5) and opt.get_lr_parameter(b).item() == pytest.approx(0.2)


def test_schedules():
    assert nn.piecewise_constant_lr([2, 5], [0.1, 0.05]) == [0.1, 0.1, 0.05, 0.05, 0.05]
    lr = nn.cosine_decay_lr(0.0, 1.0, total_step=4, step_per_epoch=2, decay_epoch=2)
    assert lr == pytest.approx([1.0, 1.0, 0.5, 0.5])
    assert nn.ExponentialDecayLR(0.1, 0.5, 2, is_stair=True)(ms.Tensor(3)).item() == pytest.approx(0.05)
    assert nn.WarmUpLR(0.1, 10)(ms.Tensor(5)).item() == pytest.approx(0.05)
    sched_opt = nn.Momentum(params([0.0]), nn.CosineDecayLR(0.0, 0.1, 10), 0.9)
    assert sched_opt.get_lr().item() == pytest.approx(0.1)


class HalvingLR(nn.LearningRateSchedule):
    """A schedule written the MindSpore way: construct with ops."""

    def construct(self, global_step):
        return 0.1 * ms.ops.pow(0.5, global_step.astype(ms.float32))


SCHEDULES = {
    "ExponentialDecayLR": lambda: nn.ExponentialDecayLR(0.1, 0.5, 2, is_stair=True),
    "NaturalExpDecayLR": lambda: nn.NaturalExpDecayLR(0.1, 0.5, 2),
    "InverseDecayLR": lambda: nn.InverseDecayLR(0.1, 0.5, 2),
    "CosineDecayLR": lambda: nn.CosineDecayLR(0.01, 0.1, 4),
    "PolynomialDecayLR": lambda: nn.PolynomialDecayLR(0.1, 0.01, 3, 2.0, update_decay_steps=True),
    "WarmUpLR": lambda: nn.WarmUpLR(0.1, 3),
    "subclass with construct": HalvingLR,
}


@pytest.mark.parametrize("name", list(SCHEDULES))
def test_schedules_drive_compiled_steps_as_eager_ones(name):
    # A schedule used to read the step as a Python number: a compiled step, where the step counter is known
    # only when the graph runs, refused every schedule.
    rates, weights = {}, {}
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        ms.set_seed(0)
        net = nn.Dense(3, 2)
        opt = nn.SGD(net.trainable_params(), learning_rate=SCHEDULES[name]())
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
        x, y = ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.zeros((4, 2), np.float32))
        rates[mode] = []
        for _ in range(6):
            rates[mode].append(opt.get_lr().item())
            step(x, y)
        weights[mode] = net.weight.asnumpy()
    schedule = SCHEDULES[name]()
    expected = [schedule(ms.Tensor(i)).item() for i in range(6)]
    np.testing.assert_allclose(rates[ms.PYNATIVE_MODE], expected, rtol=1e-6)
    np.testing.assert_allclose(rates[ms.GRAPH_MODE], expected, rtol=1e-6)
    np.testing.assert_allclose(weights[ms.GRAPH_MODE], weights[ms.PYNATIVE_MODE], rtol=1e-5, atol=1e-7)


def test_bad_arguments():
    with pytest.raises(ValueError, match="must not be empty"):
        nn.SGD([])
    with pytest.raises(ValueError, match="momentum"):
        nn.Momentum(params([1.0]), 0.1, -1)
    with pytest.raises(ValueError, match="names must be unique"):
        nn.Adam([ms.Parameter(ms.Tensor([1.0]), name="w"), ms.Parameter(ms.Tensor([1.0]), name="w")])
    with pytest.raises(ValueError, match="gradient of p0 has shape"):
        nn.SGD(params([1.0, 2.0]))((ms.Tensor([1.0]),))
    with pytest.raises(TypeError, match="learning_rate"):
        nn.SGD(params([1.0]), learning_rate="fast")


def test_train_one_step_cell_reduces_loss():
    ms.set_seed(0)
    net = nn.Dense(3, 1)
    x = np.random.default_rng(1).standard_normal((32, 3)).astype(np.float32)
    y = x @ np.array([[1.0], [-1.0], [2.0]], np.float32)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    first = step(ms.Tensor(x), ms.Tensor(y)).item()
    for _ in range(50):
        last = step(ms.Tensor(x), ms.Tensor(y)).item()
    assert last < first * 0.05
    grads = nn.WithGradCell(net, nn.MSELoss())(ms.Tensor(x), ms.Tensor(y))
    assert [g.shape for g in grads] == [(1, 3), (1,)]
    loss, out, label = nn.WithEvalCell(net, nn.MSELoss())(ms.Tensor(x), ms.Tensor(y))
    assert out.shape == (32, 1) and loss.item() == pytest.approx(last, rel=0.5)


def test_rmsprop_centered_and_adagrad_and_lamb():
    got, grads = run(nn.RMSProp, learning_rate=0.01, decay=0.9, momentum=0.5, centered=True)
    p, ms_, mg, mom = np.array([1.0, -2.0, 3.0]), np.ones(3), np.zeros(3), np.zeros(3)
    for _ in range(3):
        g = grads[0]
        ms_ = 0.9 * ms_ + 0.1 * g * g
        mg = 0.9 * mg + 0.1 * g
        mom = 0.5 * mom + 0.01 * g / np.sqrt(ms_ - mg * mg + 1e-10)
        p = p - mom
    np.testing.assert_allclose(got[0], p, rtol=1e-5)
    got, grads = run(nn.Adagrad, learning_rate=0.1, accum=0.1)
    p, acc = np.array([1.0, -2.0, 3.0]), np.full(3, 0.1)
    for _ in range(3):
        acc = acc + grads[0] ** 2
        p = p - 0.1 * grads[0] / np.sqrt(acc)
    np.testing.assert_allclose(got[0], p, rtol=1e-5)
    got, grads = run(nn.Lamb, learning_rate=0.01)
    p, m, v = np.array([[0.5, 0.25]]), 0, 0
    for t in range(1, 4):
        g = grads[1]
        m, v = 0.9 * m + 0.1 * g, 0.999 * v + 0.001 * g * g
        u = (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-6)
        p = p - 0.01 * np.linalg.norm(p) / np.linalg.norm(u) * u
    np.testing.assert_allclose(got[1], p, rtol=1e-5)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_loss_scaling_skips_overflow_and_adapts(mode):
    ms.set_context(mode=mode)  # compiled, the step branches on the overflow tensor
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    opt = nn.SGD(net.trainable_params(), 0.1)
    update = nn.DynamicLossScaleUpdateCell(loss_scale_value=1024.0, scale_factor=2, scale_window=2)
    step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt, update)
    x, y = ms.Tensor(np.ones((4, 2), np.float32)), ms.Tensor(np.zeros((4, 1), np.float32))
    loss, overflow, scale = step(x, y)
    assert not overflow.item() and scale.item() == 1024.0
    np.testing.assert_allclose(net.weight.asnumpy(), [[1 - 0.1 * 4, 1 - 0.1 * 4]], rtol=1e-5)  # unscaled update
    before = net.weight.asnumpy().copy()
    _, overflow, _ = step(ms.Tensor(np.full((4, 2), np.inf, np.float32)), y)
    assert overflow.item() and step.scale_sense.item() == 512.0
    np.testing.assert_array_equal(net.weight.asnumpy(), before)  # the overflowing step was skipped
    step(x, y)
    step(x, y)
    assert step.scale_sense.item() == 1024.0  # raised again after scale_window clean steps


def test_clip_by_global_norm_and_build_train_network():
    from sprout import ops
    a, b = ms.Tensor([3.0, 0.0]), ms.Tensor([0.0, 4.0])
    ca, cb = ops.clip_by_global_norm((a, b), 1.0)
    np.testing.assert_allclose(ca.asnumpy(), [0.6, 0.0], rtol=1e-6)
    np.testing.assert_allclose(cb.asnumpy(), [0.0, 0.8], rtol=1e-6)
    # Float16 squares are summed in float32: 300^2 + 400^2 overflows float16's 65504.
    ch, = ops.clip_by_global_norm((ms.Tensor(np.array([300.0, 400.0], np.float16)),), 50.0)
    assert ch.dtype == ms.float16
    np.testing.assert_allclose(ch.asnumpy(), [30.0, 40.0], rtol=1e-3)
    net = nn.Dense(2, 1)
    step = ms.amp.build_train_network(net, nn.SGD(net.trainable_params(), 0.01), nn.MSELoss(), level="O2",
                                      loss_scale_manager=ms.amp.FixedLossScaleManager(64.0))
    loss, overflow, scale = step(ms.Tensor(np.ones((2, 2), np.float32)), ms.Tensor(np.zeros((2, 1), np.float32)))
    assert loss.dtype == ms.float32 and scale.item() == 64.0
    # drop_overflow_update=False: every step updates, the gradients scaled and the optimizer unscaling them
    # (MindSpore asks for the same loss_scale on the optimizer).
    kept = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    step = ms.amp.build_train_network(kept, nn.SGD(kept.trainable_params(), 0.1, loss_scale=64.0), nn.MSELoss(),
                                      level="O2", loss_scale_manager=ms.amp.FixedLossScaleManager(64.0, False))
    assert isinstance(step, nn.TrainOneStepCell)
    step(ms.Tensor(np.ones((2, 2), np.float32)), ms.Tensor(np.zeros((2, 1), np.float32)))
    np.testing.assert_allclose(kept.weight.asnumpy(), [[1 - 0.1 * 4, 1 - 0.1 * 4]], rtol=1e-2)


def test_adadelta_adamax_rprop_asgd_match_references():
    got, grads = run(nn.Adadelta, learning_rate=0.5, rho=0.9, epsilon=1e-6)
    p, acc, acc_up = np.array([1.0, -2.0, 3.0]), np.zeros(3), np.zeros(3)
    for _ in range(3):
        g = grads[0]
        acc = 0.9 * acc + 0.1 * g * g
        up = np.sqrt(acc_up + 1e-6) / np.sqrt(acc + 1e-6) * g
        acc_up = 0.9 * acc_up + 0.1 * up * up
        p = p - 0.5 * up
    np.testing.assert_allclose(got[0], p, rtol=1e-5)
    got, grads = run(nn.Adamax, learning_rate=0.01)
    p, m, v = np.array([[0.5, 0.25]]), 0, 0
    for t in range(1, 4):
        g = grads[1]
        m, v = 0.9 * m + 0.1 * g, np.maximum(0.999 * v, np.abs(g))
        p = p - 0.01 / (1 - 0.9 ** t) * m / (v + 1e-8)
    np.testing.assert_allclose(got[1], p, rtol=1e-5)
    # Rprop: alternate the gradient's sign on one element to exercise growth, shrinking and the skip.
    ps = params([1.0, -2.0])
    opt = nn.Rprop(ps, learning_rate=0.1)
    p, prev, size = np.array([1.0, -2.0]), np.zeros(2), np.full(2, 0.1)
    for g in ([0.5, 1.0], [0.5, -1.0], [0.5, -1.0], [0.5, 1.0]):
        g = np.array(g)
        opt((ms.Tensor(g.astype(np.float32)),))
        agree = g * prev
        size = np.clip(size * np.where(agree > 0, 1.2, np.where(agree < 0, 0.5, 1.0)), 1e-6, 50.0)
        g = np.where(agree < 0, 0.0, g)
        p, prev = p - np.sign(g) * size, g
    np.testing.assert_allclose(ps[0].asnumpy(), p, rtol=1e-5)
    got, grads = run(nn.ASGD, learning_rate=0.1, lambd=0.01, alpha=0.75, t0=1.0)
    p, ax = np.array([1.0, -2.0, 3.0]), np.zeros(3)
    eta, mu = 0.1, 1.0
    for t in range(1, 4):
        p = p * (1 - 0.01 * eta) - eta * grads[0]
        ax = p.copy() if mu == 1 else ax + (p - ax) * mu
        eta, mu = 0.1 / (1 + 0.01 * 0.1 * t) ** 0.75, 1 / max(1, t - 1.0)
    np.testing.assert_allclose(got[0], p, rtol=1e-5)
    with pytest.raises(ValueError, match="Rprop: 'etas' must be"):
        nn.Rprop(params([1.0]), etas=(1.5, 1.2))


def test_optimizers_written_with_tensor_arithmetic_train_in_graph_mode():
    # Their updates compute `param - update` in Python: a Parameter's operator meeting a value being
    # compiled (RMSProp, Adagrad and Lamb failed to compile before that operator deferred to it).
    for opt_cls in (nn.RMSProp, nn.Adagrad, nn.Lamb, nn.Adadelta, nn.Adamax, nn.Rprop, nn.ASGD):
        net = nn.Dense(3, 1)
        opt = opt_cls(net.trainable_params(), learning_rate=0.01 if opt_cls is nn.Lamb else 0.1)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
        x, y = ms.Tensor(np.random.rand(8, 3).astype(np.float32)), ms.Tensor(np.random.rand(8, 1).astype(np.float32))
        ms.set_context(mode=ms.GRAPH_MODE)
        try:
            losses = [float(step(x, y).asnumpy()) for _ in range(30)]
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
        assert losses[-1] < losses[0], opt_cls.__name__


def test_a_compiled_step_does_not_copy_the_gradients():
    # The optimizer takes g.astype(p.dtype, copy=False): no Cast when the dtypes agree, compiled as in eager.
    ps = params([1.0, -2.0, 3.0], [[0.5, 0.25]])
    opt = nn.Momentum(ps, learning_rate=0.1, momentum=0.9)
    grads = (ms.Tensor(np.ones(3, np.float32)), ms.Tensor(np.ones((1, 2), np.float32)))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        opt(grads)
        profiler = ms.Profiler()
        opt(grads)
        profiler.stop()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    ran = {row["op"]: row["calls"] for row in profiler.op_statistics()}
    assert ran.get("ApplyMomentum") == 2 and "Cast" not in ran, ran


def test_sgd_momentum_with_a_weight_decay_per_group():
    a, b = params([1.0, -2.0], [3.0])
    opt = nn.SGD([{"params": [a], "weight_decay": 0.1}, {"params": [b]}], learning_rate=0.1, momentum=0.9)
    for _ in range(3):
        opt((ms.Tensor([0.5, 0.5]), ms.Tensor([0.5])))
    for got, p0, wd in ((a, np.array([1.0, -2.0]), 0.1), (b, np.array([3.0]), 0.0)):
        p, buf = p0, None
        for _ in range(3):
            g = 0.5 + wd * p
            buf = g if buf is None else 0.9 * buf + g
            p = p - 0.1 * buf
        np.testing.assert_allclose(got.asnumpy(), p, rtol=1e-5)


@pytest.mark.parametrize("make, expected", [
    (lambda w: nn.Momentum([w], 0.1, 0.9, weight_decay=0.1, loss_scale=8.0), [0.89, -2.18, 3.07]),
    (lambda w: nn.SGD([w], 0.1, weight_decay=0.1, loss_scale=8.0), [0.89, -2.18, 3.07]),
    (lambda w: nn.Adam([w], 0.1, weight_decay=0.1, loss_scale=8.0), [0.9, -2.1, 3.1]),
    (lambda w: nn.RMSProp([w], 0.1, weight_decay=0.1, loss_scale=8.0), [0.8911371, -2.1626978, 3.0718563]),
])
def test_loss_scale_with_weight_decay_as_mindspore(make, expected):
    # One step on the gradient of a loss scaled by 8: the values MindSpore 2.10 gives for the same step (the
    # gradient divided by the scale, the decay of the unscaled weight: MindSpore multiplies weight_decay by
    # loss_scale before dividing the decayed gradient by it).
    w = ms.Parameter(ms.Tensor(np.array([1.0, -2.0, 3.0], np.float32)), name="w")
    make(w)((ms.Tensor(np.array([8.0, 16.0, -8.0], np.float32)),))
    np.testing.assert_allclose(w.asnumpy(), expected, rtol=1e-6)
