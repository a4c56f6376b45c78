"""Eager (PYNATIVE) autodiff: the MindSpore 2.x grad APIs, higher orders, control flow, bad use."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops

from finite_differences import numeric_grad


def test_seed_second_derivative_prints_12(capsys):
    grad_all = ops.composite.GradOperation()

    def func(x):
        return x * x * x

    def df_func(x):
        return grad_all(func)(x)

    def df2_func(x):
        return grad_all(df_func)(x)

    print(df2_func(ms.Tensor(2, ms.float32)))
    assert capsys.readouterr().out.strip() == "12.0"


def test_third_derivative_of_cube_is_6():
    g = ops.GradOperation()
    d1 = lambda x: g(lambda y: y ** 3)(x)  # noqa: E731
    d2 = lambda x: g(d1)(x)  # noqa: E731
    d3 = lambda x: g(d2)(x)  # noqa: E731
    assert d3(ms.Tensor(2.0)).item() == pytest.approx(6.0)
    assert d2(ms.Tensor(2.0)).item() == pytest.approx(12.0)


def test_grad_positions_and_values():
    a, b = ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])
    f = lambda x, y: (x * y + ops.exp(x)).sum()  # noqa: E731
    ga = ms.grad(f)(a, b)
    np.testing.assert_allclose(ga.asnumpy(), [3 + np.e, 4 + np.e ** 2], rtol=1e-6)
    ga2, gb = ms.grad(f, grad_position=(0, 1))(a, b)
    np.testing.assert_allclose(gb.asnumpy(), [1, 2])
    value, grads = ms.value_and_grad(f, grad_position=1)(a, b)
    assert value.item() == pytest.approx(11 + np.e + np.e ** 2, rel=1e-6)
    np.testing.assert_allclose(grads.asnumpy(), [1, 2])


def test_grad_through_python_control_flow_matches_finite_differences():
    def f(x):
        y = x
        for i in range(3):
            if (y.sum() > 0).item():
                y = y * y + x
            else:
                y = ops.sqrt(y * y + 1.0)
        return ops.log(y.sum())

    x = np.array([0.3, -0.2, 0.5])
    g = ms.grad(f)(ms.Tensor(x))
    expect = numeric_grad(lambda v: f(ms.Tensor(v)).item(), x)
    np.testing.assert_allclose(g.asnumpy(), expect, rtol=1e-6)


def test_broadcasting_reductions_matmul_grads():
    rng = np.random.default_rng(0)
    w0, x0, b0 = rng.standard_normal((3, 4)), rng.standard_normal((5, 3)), rng.standard_normal(4)

    def loss(w, x, b):
        h = ops.matmul(x, w) + b
        return (ops.maximum(h, 0.0) * h).mean() + h.max()

    gw, gx, gb = ms.grad(loss, (0, 1, 2))(ms.Tensor(w0), ms.Tensor(x0), ms.Tensor(b0))
    for got, idx, base in ((gw, 0, w0), (gx, 1, x0), (gb, 2, b0)):
        def f(v, idx=idx):
            args = [ms.Tensor(w0), ms.Tensor(x0), ms.Tensor(b0)]
            args[idx] = ms.Tensor(v)
            return loss(*args).item()
        np.testing.assert_allclose(got.asnumpy(), numeric_grad(f, base), rtol=1e-5, atol=1e-8)


def test_weights_and_return_ids_and_has_aux():
    w = ms.Parameter(ms.Tensor([2.0, 3.0]), name="w")
    b = ms.Parameter(ms.Tensor(1.0), name="b")

    def f(x):
        out = (w * x).sum() + b
        return out, out * 10

    (gx, (gw, gb)), (aux,) = ms.grad(f, 0, weights=[w, b], has_aux=True)(ms.Tensor([1.0, 1.0]))
    np.testing.assert_allclose(gx.asnumpy(), [2, 3])
    np.testing.assert_allclose(gw.asnumpy(), [1, 1])
    assert gb.item() == 1.0 and aux.item() == 60.0
    weights_only = ms.grad(lambda x: (w * x).sum(), None, weights=ms.ParameterTuple([w]))(ms.Tensor([4.0, 5.0]))
    np.testing.assert_allclose(weights_only[0].asnumpy(), [4, 5])
    ids = ms.grad(lambda x: (w * x).sum(), 0, weights=[w], return_ids=True)(ms.Tensor([1.0, 2.0]))
    assert ids[0][0] == 0 and ids[1][0][0] == "w"
    assert not ms._C.is_tracked(w)  # tracking is undone after the call


def test_grad_operation_variants():
    w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
    f = lambda x, y: (x * y * w).sum()  # noqa: E731
    x, y = ms.Tensor([3.0, 4.0]), ms.Tensor([5.0, 6.0])
    gx, gy = ops.GradOperation(get_all=True)(f)(x, y)
    np.testing.assert_allclose(gy.asnumpy(), [3, 8])
    (gw,) = ops.GradOperation(get_by_list=True)(f, ms.ParameterTuple([w]))(x, y)
    np.testing.assert_allclose(gw.asnumpy(), [15, 24])
    (inputs, params) = ops.GradOperation(get_all=True, get_by_list=True)(f, [w])(x, y)
    assert len(inputs) == 2 and len(params) == 1
    sens = ms.Tensor([2.0, 0.5])
    g = ops.GradOperation(sens_param=True)(lambda x: x * x)(x, sens)
    np.testing.assert_allclose(g.asnumpy(), [12, 4])


def test_integer_inputs_get_zero_gradients():
    g = ms.grad(lambda x, n: (x * n).sum(), (0, 1))(ms.Tensor([1.0, 2.0]), ms.Tensor([3, 4]))
    np.testing.assert_allclose(g[0].asnumpy(), [3, 4])
    assert g[1].dtype == ms.int64 and g[1].tolist() == [0, 0]


def test_mixed_dtype_gradient_flows_back_through_the_implicit_cast():
    g = ms.grad(lambda h, f: (h * f).sum(), (0, 1))(ms.Tensor([1.0, 2.0], ms.float16), ms.Tensor([3.0, 4.0]))
    assert g[0].dtype == ms.float16 and g[0].tolist() == [3.0, 4.0]


def test_unused_input_gets_zeros_and_plain_calls_record_nothing():
    g = ms.grad(lambda x, y: (x * 2).sum(), 1)(ms.Tensor([1.0]), ms.Tensor([5.0, 6.0]))
    assert g.tolist() == [0.0, 0.0]
    x = ms.Tensor([1.0])
    assert not ms._C.is_tracked(x * 2) and not ms._C.is_recording()


def test_no_grad_blocks_gradient():
    def f(x):
        with ms._no_grad():
            c = x * 3
        return (c * x).sum()

    assert ms.grad(f)(ms.Tensor([2.0])).tolist() == [6.0]


def test_vjp_and_jvp():
    x = ms.Tensor([1.0, 2.0])
    out, vjp_fn = ops.vjp(lambda v: v * v * v, x)
    np.testing.assert_allclose(out.asnumpy(), [1, 8])
    np.testing.assert_allclose(vjp_fn(ms.Tensor([1.0, 0.5])).asnumpy(), [3, 6])
    out, tangent = ops.jvp(lambda v: ops.exp(v) * 2, x, ms.Tensor([1.0, 0.0]))
    np.testing.assert_allclose(tangent.asnumpy(), [2 * np.e, 0], rtol=1e-6)


def test_bad_use_fails_clearly():
    x = ms.Tensor([1.0])
    with pytest.raises(TypeError, match="position 0: expected a Tensor, but got float"):
        ms.grad(lambda a: a * 2)(1.0)
    with pytest.raises(ValueError, match="'grad_position' 2 is out of range"):
        ms.grad(lambda a: a, 2)(x)
    with pytest.raises(ValueError, match="sensitivity has shape"):
        ops.GradOperation(sens_param=True)(lambda a: a * 2)(x, ms.Tensor([1.0, 2.0]))
    with pytest.raises(ValueError, match="has_aux=True"):
        ms.grad(lambda a: a * 2, has_aux=True)(x)
    with pytest.raises(TypeError, match="must return a Tensor"):
        ms.grad(lambda a: 3)(x)
    with pytest.raises(TypeError, match="weights"):
        ms.grad(lambda a: a, weights=[x])(x)
    with pytest.raises(ValueError, match="both be None"):
        ms.grad(lambda a: a, None)(x)


def test_indexing_is_differentiable_to_any_order():
    a = np.arange(12.0).reshape(3, 4)
    for index in [1, (slice(None), slice(None, None, 2)), (Ellipsis, -1), (None, 0, slice(1, 3)),
                  (slice(None, None, -1), 2)]:
        g = ms.grad(lambda t: (t[index] * t[index]).sum())(ms.Tensor(a))
        expect = numeric_grad(lambda v: float((v[index] ** 2).sum()), a)
        np.testing.assert_allclose(g.asnumpy(), expect, rtol=1e-6, atol=1e-6, err_msg=str(index))
    x = ms.Tensor(a)
    g = ms.grad(lambda t: (t.T[1:, ::2] * 3).sum())(x)  # a view of a view of a non-contiguous tensor
    expect = np.zeros((3, 4))
    expect[::2, 1:] = 3
    np.testing.assert_allclose(g.asnumpy(), expect)
    d = ops.GradOperation()
    second = d(lambda t: d(lambda u: (u[0] ** 3).sum())(t).sum())(ms.Tensor([2.0, 5.0]))
    np.testing.assert_allclose(second.asnumpy(), [12.0, 0.0])


def test_index_assignment_under_grad_carries_the_gradient():
    x = ms.Tensor([1.0, 2.0, 3.0, 4.0])

    def built_by_assignment(t):  # a buffer filled element by element, as in NumPy
        out = ms.ops.zeros((4,), ms.float32)
        for i in range(4):
            out[i] = t[i] ** 2
        return out.sum()

    np.testing.assert_allclose(ms.grad(built_by_assignment)(x).asnumpy(), [2.0, 4.0, 6.0, 8.0])

    def overwritten(t):
        y = t * 2
        y[0] = 0.0
        y[x > 2] = t[x > 2] * 10  # a mask of known values
        return (y * y).sum()

    expected = np.array([0.0, 2 * 4.0 * 2, 2 * 30.0 * 10, 2 * 40.0 * 10])
    np.testing.assert_allclose(ms.grad(overwritten)(x).asnumpy(), expected)

    def into_the_input(t):
        t[0] = 1.0
        return t.sum()

    with pytest.raises(RuntimeError, match="cannot write in place into a tensor the gradient is taken with respect to"):
        ms.grad(into_the_input)(ms.Tensor([1.0, 2.0]))
    y = ms.Tensor([1.0, 2.0])
    y[0] = 5.0  # outside a grad scope it is an ordinary in-place write
    assert y.tolist() == [5.0, 2.0]


@pytest.mark.parametrize("write", [
    lambda y: y.__setitem__(0, 5.0),
    lambda y: ms.ops.assign(y, y * 5),
    lambda y: y._copy_from(y * 5),
], ids=["setitem", "assign", "copy_from"])
def test_writing_a_saved_value_in_place_fails_the_backward_clearly(write):
    # Mul keeps y for x's gradient: writing y afterwards used to give a gradient from the new values.
    def f(x):
        y = ms.ops.ones((3,), ms.float32)
        z = x * y
        write(y)
        return z.sum()

    with pytest.raises(RuntimeError, match="input 'y' of Mul .* was written in place after Mul used it"):
        ms.grad(f)(ms.Tensor([1.0, 2.0, 3.0]))

    def g(x):  # a product with a constant keeps nothing of x: writing x's copy is harmless
        y = x * 1
        z = y * 3.0
        y[0] = 7.0
        return z.sum()

    np.testing.assert_allclose(ms.grad(g)(ms.Tensor([1.0, 2.0, 3.0])).asnumpy(), [3.0, 3.0, 3.0])


@pytest.mark.parametrize("position, matmuls", [(None, 5), (0, 6)])
def test_backward_skips_input_gradients_nobody_wants(position, matmuls, tmp_path):
    """Two Dense layers: 2 forward products; backward 2 weight gradients, the hidden layer's input
    gradient, and the network input's only when it is asked for (the rule sees which are wanted)."""
    net = ms.nn.SequentialCell(ms.nn.Dense(4, 3), ms.nn.Dense(3, 2))
    x = ms.Tensor(np.random.RandomState(0).randn(5, 4).astype(np.float32))
    fn = ms.grad(lambda t: net(t).sum(), grad_position=position, weights=net.trainable_params())
    profiler = ms.Profiler(output_path=str(tmp_path))
    grads = fn(x)
    profiler.stop()
    counts = {row["op"]: row["calls"] for row in profiler.op_statistics()}
    assert counts["MatMul"] == matmuls
    w1 = net.trainable_params()[0]
    dw1 = grads[0] if position is None else grads[1][0]
    h_grad = np.ones((5, 2), np.float32) @ net.trainable_params()[2].asnumpy()
    np.testing.assert_allclose(dw1.asnumpy(), h_grad.T @ x.asnumpy(), rtol=1e-5)
    assert dw1.shape == w1.shape


def test_constant_operands_of_arithmetic_get_no_gradient_work(tmp_path):
    """x * 0.5 + mask (a broadcast constant, as attention adds its mask): the backward computes x's
    gradient only, with no product for the scalar and no sum back to the mask's shape."""
    x = ms.Tensor(np.random.RandomState(1).randn(2, 3, 4).astype(np.float32))
    mask = ms.Tensor(np.triu(np.full((4, 4), -1.0, np.float32), 1)[None, :3, :])
    fn = ms.grad(lambda t: ((t * 0.5 + mask) * (t - 2.0) / 3.0).sum())
    profiler = ms.Profiler(output_path=str(tmp_path))
    grad = fn(x)
    profiler.stop()
    counts = {row["op"]: row["calls"] for row in profiler.op_statistics()}
    # Forward: two Muls and the final ReduceSum. Backward: two Muls for the product (both factors
    # depend on x) and one for t * 0.5 (d * 0.5 only: d * t would be the scalar's gradient, summed to
    # 0-d); the mask's broadcast is not summed back.
    assert counts.get("ReduceSum", 0) == 1, counts
    assert counts["Mul"] == 2 + 3, counts
    xa = x.asnumpy()
    expected = (0.5 * (xa - 2.0) + (xa * 0.5 + mask.asnumpy())) / 3.0
    np.testing.assert_allclose(grad.asnumpy(), expected, rtol=1e-5, atol=1e-6)


def test_copies_pass_the_gradient_on():
    # astype to the own dtype copies (copy=True by default): the copy is recorded, not a cut.
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    for copy in (lambda t: t.astype(ms.float32), lambda t: t.copy(), lambda t: t.astype(ms.float32, copy=False)):
        np.testing.assert_array_equal(ms.grad(lambda t: copy(t * t).sum())(x).asnumpy(), [2.0, 4.0])


def _three_outputs(x):
    return x * x, x + 1, x + 2


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
def test_auxiliary_outputs_and_sensitivity_as_mindspore_gives_them(compiled):
    # MindSpore 2.10: grad's aux is always a tuple; value_and_grad's value is everything fn returned; with
    # sens_param the last argument weighs the main output (has_aux) or every output.
    def run(transform, *args):
        return ms.jit(lambda *a: transform(*a))(*args) if compiled else transform(*args)

    x = ms.Tensor([3.0])
    grads, aux = run(ms.grad(_three_outputs, has_aux=True), x)
    assert grads.asnumpy().tolist() == [6.0] and [a.asnumpy().tolist() for a in aux] == [[4.0], [5.0]]
    grads, aux = run(ms.grad(lambda t: (t * t, t + 1), has_aux=True), x)
    assert isinstance(aux, tuple) and len(aux) == 1
    value, grads = run(ms.value_and_grad(_three_outputs, has_aux=True), x)
    assert [v.asnumpy().tolist() for v in value] == [[9.0], [4.0], [5.0]] and grads.asnumpy().tolist() == [6.0]
    grads, aux = run(ms.grad(lambda t: (t * t, t + 1), has_aux=True, sens_param=True), x, ms.Tensor([2.0]))
    assert grads.asnumpy().tolist() == [12.0]
    grads = run(ms.grad(lambda t: (t * t, t + 1), sens_param=True), x, (ms.Tensor([2.0]), ms.Tensor([1.0])))
    assert grads.asnumpy().tolist() == [13.0]
    value, grads = run(ms.value_and_grad(lambda t: t * t, sens_param=True), x, ms.Tensor([2.0]))
    assert value.asnumpy().tolist() == [9.0] and grads.asnumpy().tolist() == [12.0]
    with pytest.raises(ValueError, match="sensitivity has 1 tensor"):
        run(ms.grad(lambda t: (t * t, t + 1), sens_param=True), x, ms.Tensor([2.0]))
