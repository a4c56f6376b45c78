"""The in-place optimizer updates beyond the record harness: every slot against NumPy, in-place
semantics on Parameters and strided views, several steps of training, thread-count independence,
and no gradient."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops
from op_records import optim as recs


def _tensors(rng, shape, *kinds):
    return [ms.Tensor(rng.uniform(*recs._RANGES[k], size=shape)) for k in kinds]


def test_every_slot_is_updated_in_place():
    # Python numbers reach an op as Float32 0-d tensors, so the hyperparameters here are exact in Float32.
    rng = np.random.default_rng(0)
    var, acc, grad = _tensors(rng, (4, 3), "x", "x", "x")
    v0, a0, g0 = var.asnumpy().copy(), acc.asnumpy().copy(), grad.asnumpy().copy()
    out = ops.ApplyMomentum(use_nesterov=True)(var, acc, 0.125, grad, 0.875)
    a1 = 0.875 * a0 + g0
    np.testing.assert_allclose(acc.asnumpy(), a1, rtol=1e-12)
    np.testing.assert_allclose(var.asnumpy(), v0 - 0.125 * (g0 + 0.875 * a1), rtol=1e-12)
    np.testing.assert_array_equal(out.asnumpy(), var.asnumpy())

    var, mg, ms_, mom, grad = _tensors(rng, (5,), "x", "r", "q", "x", "x")
    before = [t.asnumpy().copy() for t in (var, mg, ms_, mom, grad)]
    ops.ApplyCenteredRMSProp()(var, mg, ms_, mom, grad, 0.25, 0.75, 0.5, 2.0 ** -20)
    g = before[4]
    mg1 = 0.75 * before[1] + 0.25 * g
    ms1 = 0.75 * before[2] + 0.25 * g * g
    mom1 = 0.5 * before[3] + 0.25 * g / np.sqrt(ms1 - mg1 ** 2 + 2.0 ** -20)
    for got, want in ((mg, mg1), (ms_, ms1), (mom, mom1), (var, before[0] - mom1)):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-12)

    var, ms_, mom, grad = _tensors(rng, (6,), "x", "p", "x", "x")
    before = [t.asnumpy().copy() for t in (var, ms_, mom, grad)]
    ops.ApplyRMSProp()(var, ms_, mom, 0.25, grad, 0.75, 0.5, 2.0 ** -20)
    ms1 = 0.75 * before[1] + 0.25 * before[3] ** 2
    mom1 = 0.5 * before[2] + 0.25 * before[3] / np.sqrt(ms1 + 2.0 ** -20)
    np.testing.assert_allclose(ms_.asnumpy(), ms1, rtol=1e-12)
    np.testing.assert_allclose(mom.asnumpy(), mom1, rtol=1e-12)

    var, m, v, grad = _tensors(rng, (7,), "x", "x", "p", "x")
    m0, v0, g0 = m.asnumpy().copy(), v.asnumpy().copy(), grad.asnumpy().copy()
    ops.Lamb()(var, m, v, 0.25, 0.875, 0.5, 2.0 ** -20, 0.125, 3.0, grad)
    np.testing.assert_allclose(m.asnumpy(), 0.875 * m0 + 0.125 * g0, rtol=1e-12)
    np.testing.assert_allclose(v.asnumpy(), 0.5 * v0 + 0.5 * g0 ** 2, rtol=1e-12)


def test_a_parameter_and_a_strided_view_are_updated_where_they_live():
    p = ms.Parameter(ms.Tensor(np.ones((2, 3), np.float32)), name="w")
    out = ops.ApplyGradientDescent()(p, 0.5, ms.Tensor(np.full((2, 3), 2.0, np.float32)))
    np.testing.assert_array_equal(p.asnumpy(), np.zeros((2, 3)))
    np.testing.assert_array_equal(out.asnumpy(), p.asnumpy())
    assert ops.assign_add(p, 1).dtype == ms.float32 and p.asnumpy().sum() == 6

    base = ms.Tensor(np.arange(12.0).reshape(3, 4))
    column = base[:, 1]  # stride 4: updated through a contiguous copy written back
    ops.ApplyAdagrad()(column, ms.Tensor(np.ones(3)), 1.0, ms.Tensor(np.ones(3)))
    np.testing.assert_allclose(base.asnumpy()[:, 1], np.array([1.0, 5.0, 9.0]) - 1 / np.sqrt(2))
    np.testing.assert_array_equal(base.asnumpy()[:, 0], [0.0, 4.0, 8.0])


def test_adam_over_several_steps_matches_numpy():
    rng = np.random.default_rng(1)
    w0 = rng.standard_normal(10)
    var, m, v = ms.Tensor(w0.astype(np.float32)), ms.Tensor(np.zeros(10, np.float32)), ms.Tensor(np.zeros(10, np.float32))
    ref_w, ref_m, ref_v = w0.copy(), np.zeros(10), np.zeros(10)
    b1, b2, lr, eps = 0.9, 0.999, 0.01, 1e-8
    for step in range(1, 21):
        grad = 2 * ref_w  # gradient of |w|^2 at the reference point
        ops.Adam()(var, m, v, b1 ** step, b2 ** step, lr, b1, b2, eps, ms.Tensor(grad.astype(np.float32)))
        ref_w, ref_m, ref_v = recs._adam(False)(ref_w, ref_m, ref_v, b1 ** step, b2 ** step, lr, b1, b2, eps, grad)
    np.testing.assert_allclose(var.asnumpy(), ref_w, rtol=1e-5, atol=1e-6)
    assert np.abs(var.asnumpy()).sum() < np.abs(w0).sum()  # it descends


@pytest.mark.parametrize("dtype", [ms.float16, ms.float32])
def test_updates_do_not_depend_on_the_thread_count(dtype):
    rng = np.random.default_rng(2)
    n = 200_003  # several parallel chunks and Lamb norm blocks, with a ragged tail
    arrays = [rng.uniform(-1, 1, n), rng.uniform(-1, 1, n), rng.uniform(0.5, 1, n), rng.uniform(-1, 1, n)]

    def run():
        var, m, v, grad = (ms.Tensor(a, dtype) for a in arrays)
        ops.Lamb()(var, m, v, 0.01, 0.9, 0.999, 1e-6, 0.01, 2.0, grad)
        ops.Adam(use_nesterov=True)(var, m, v, 0.9, 0.99, 0.01, 0.9, 0.999, 1e-8, grad)
        return var.asnumpy(), m.asnumpy(), v.asnumpy()

    old = ms.get_context("runtime_num_threads")
    try:
        ms.set_context(runtime_num_threads=1)
        serial = run()
        ms.set_context(runtime_num_threads=2)
        parallel = run()
    finally:
        ms.set_context(runtime_num_threads=old)
    for a, b in zip(serial, parallel):
        np.testing.assert_array_equal(a, b)


def test_updates_pass_no_gradient():
    var = ms.Tensor(np.ones(3))

    def f(x):
        return (ops.assign_add(var, x) * 2).sum() + (ops.ApplyGradientDescent()(x * 1, 0.1, x)).sum()

    np.testing.assert_array_equal(ms.grad(f)(ms.Tensor(np.ones(3))).asnumpy(), np.zeros(3))


def test_assign_converts_the_value_to_the_variable_dtype():
    x = ms.Tensor(np.zeros(3, np.int32))
    ops.assign(x, ms.Tensor([1.7, -2.2, 3.0]))
    np.testing.assert_array_equal(x.asnumpy(), [1, -2, 3])
    ops.assign_sub(x, 1)
    np.testing.assert_array_equal(x.asnumpy(), [0, -3, 2])
    assert x.dtype == ms.int32


def test_sgd_without_momentum_leaves_its_slots_alone():
    params, accum, stat = (ms.Parameter(ms.Tensor(np.full(5, v, np.float32))) for v in (1.0, 3.0, 1.0))
    ops.SGD(weight_decay=0.5)(params, ms.Tensor(np.full(5, 2.0, np.float32)), 0.1, accum, 0.0, stat)
    np.testing.assert_allclose(params.asnumpy(), 1.0 - 0.1 * (2.0 + 0.5 * 1.0))
    assert (accum.asnumpy() == 3.0).all() and (stat.asnumpy() == 1.0).all()
