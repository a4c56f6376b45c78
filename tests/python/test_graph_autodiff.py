"""Graph-mode autodiff (issue 5): the J transform through calls, control flow, recursion and higher
orders, checked against PYNATIVE and finite differences; gradients of Cells' weights; a compiled
training step; clear errors for bad use."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn, ops
from sprout._frontend import jit as jit_module


@pytest.fixture(autouse=True)
def verify_ir():
    jit_module._VERIFY[0] = True
    yield
    jit_module._VERIFY[0] = False


grad_all = ops.composite.GradOperation()


def func(x):
    return x * x * x


def df_func(x):
    return grad_all(func)(x)


@ms.ms_function
def df2_func(x):
    return grad_all(df_func)(x)


@ms.jit
def df2_jit(x):
    return grad_all(df_func)(x)


@ms.jit
def df3(x):
    return grad_all(df2_func.fn)(x)


def test_seed_000_second_derivative_prints_12(capsys):
    print(df2_func(ms.Tensor(2, ms.float32)))
    assert capsys.readouterr().out.strip() == "12.0"
    assert float(df2_jit(Tensor(2.0)).asnumpy()) == 12.0
    assert float(grad_all(df_func)(Tensor(2.0)).asnumpy()) == 12.0  # PYNATIVE


def test_third_derivative_of_cube_is_6():
    assert float(df3(Tensor(2.0)).asnumpy()) == 6.0
    assert float(df3(Tensor(-5.0)).asnumpy()) == 6.0


def finite_difference(fn, args, position, eps=1e-6):
    x = args[position].asnumpy().astype(np.float64)
    grad = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        for sign in (1, -1):
            shifted = x.copy()
            shifted[idx] += sign * eps
            new_args = list(args)
            new_args[position] = Tensor(shifted)
            grad[idx] += sign * float(np.sum(fn(*new_args).asnumpy())) / (2 * eps)
    return grad


def f_if(x, y):
    if x.sum() > 0:
        z = x * y
    else:
        z = ops.sin(x) - y
    return (z * z).sum()


def f_while(x):
    i = 0
    while x.sum() < 10:
        x = x * 2 + ops.exp(x) * 0.1
        i += 1
    return (x * x).sum() + i


def f_fib(n, x):
    if n < 1:
        return x * 0
    if n == 1:
        return x
    return f_fib(n - 1, x) + f_fib(n - 2, x) * x


def f_closure_hof(x):
    def scale(v):
        return v * x

    def twice(f, v):
        return f(f(v))

    return twice(scale, ops.tanh(x)).sum()


CASES = [
    (f_if, lambda: (Tensor(np.array([0.5, 1.5])), Tensor(np.array([3.0, -4.0]))), 0),
    (f_if, lambda: (Tensor(np.array([-0.5, -1.5])), Tensor(np.array([3.0, 4.0]))), 0),
    (f_if, lambda: (Tensor(np.array([0.5, 1.5])), Tensor(np.array([3.0, -4.0]))), 1),
    (f_while, lambda: (Tensor(np.array([0.3, 0.2])),), 0),
    (f_fib, lambda: (Tensor(6), Tensor(np.array([1.1]))), 1),
    (f_closure_hof, lambda: (Tensor(np.array([0.3, -0.7, 1.2])),), 0),
]


@pytest.mark.parametrize("fn,make_args,position", CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_gradients_through_control_flow_match_pynative_and_finite_differences(fn, make_args, position):
    args = make_args()
    grad_fn = ms.grad(fn, grad_position=position)

    @ms.jit
    def graph_grad(*a):
        return grad_fn(*a)

    got = graph_grad(*args).asnumpy()
    np.testing.assert_allclose(got, grad_fn(*args).asnumpy(), rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(got, finite_difference(fn, args, position), rtol=1e-5, atol=1e-6)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(3, 4)
        self.fc2 = nn.Dense(4, 2)

    def construct(self, x):
        return ops.tanh(self.fc2(ops.relu(self.fc1(x)))).sum()


def test_value_and_grad_of_cell_weights_and_inputs_in_graph_mode():
    net = Net()
    x = Tensor(np.random.RandomState(0).randn(5, 3).astype(np.float32))
    fn = ms.value_and_grad(net, grad_position=0, weights=net.trainable_params())
    eager_value, (eager_dx, eager_dw) = fn(x)

    @ms.jit
    def compiled(x):
        return fn(x)

    value, (dx, dw) = compiled(x)
    np.testing.assert_allclose(value.asnumpy(), eager_value.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(dx.asnumpy(), eager_dx.asnumpy(), rtol=1e-5, atol=1e-6)
    assert len(dw) == 4
    for a, b in zip(dw, eager_dw):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)


def test_jit_applied_directly_to_a_gradient_function():
    net = Net()
    x = Tensor(np.random.RandomState(1).randn(5, 3).astype(np.float32))
    fn = ms.value_and_grad(net, grad_position=0, weights=net.trainable_params())
    eager_value, (eager_dx, eager_dw) = fn(x)
    value, (dx, dw) = ms.jit(fn)(x)
    np.testing.assert_allclose(value.asnumpy(), eager_value.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(dx.asnumpy(), eager_dx.asnumpy(), rtol=1e-5, atol=1e-6)
    for a, b in zip(dw, eager_dw):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)
    cube = lambda t: t * t * t  # noqa: E731
    assert ms.jit(ms.grad(ms.grad(cube)))(Tensor(2.0)).asnumpy() == 12


def test_grad_operation_get_all_get_by_list_and_sens_param():
    net = Net()
    weights = ms.ParameterTuple(net.trainable_params())
    x = Tensor(np.random.RandomState(1).randn(2, 3).astype(np.float32))
    op = ops.GradOperation(get_all=True, get_by_list=True, sens_param=True)

    @ms.jit
    def compiled(x, sens):
        return op(net, weights)(x, sens)

    (dx,), dw = compiled(x, Tensor(2.0))
    (edx,), edw = op(net, weights)(x, Tensor(2.0))
    np.testing.assert_allclose(dx.asnumpy(), edx.asnumpy(), rtol=1e-5, atol=1e-6)
    for a, b in zip(dw, edw):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)


def test_integer_inputs_get_zero_gradients_and_has_aux():
    def f(x, n):
        return (x * n).sum(), x * 2

    g = ms.grad(f, grad_position=(0, 1), has_aux=True)

    @ms.jit
    def compiled(x, n):
        return g(x, n)

    (dx, dn), (aux,) = compiled(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3, 4], np.int32)))
    np.testing.assert_allclose(dx.asnumpy(), [3.0, 4.0])
    np.testing.assert_array_equal(dn.asnumpy(), [0, 0])
    np.testing.assert_allclose(aux.asnumpy(), [2.0, 4.0])


def lenet():
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).resolve().parents[2] / "examples" / "lenet_mnist.py"
    spec = importlib.util.spec_from_file_location("lenet_mnist", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.LeNet5()


@pytest.mark.parametrize("make_opt", [
    lambda p: nn.Momentum(p, learning_rate=0.01, momentum=0.9),
    lambda p: nn.Adam(p, learning_rate=1e-3),
    lambda p: nn.SGD(p, learning_rate=[0.1, 0.05, 0.02, 0.01], momentum=0.9),
    # Last layer first: its update must wait for the backward's reads of its weights (the input
    # gradients of the layers before it), which the source never states (Note [Write after read]).
    lambda p: nn.Momentum(list(reversed(p)), learning_rate=0.01, momentum=0.9),
], ids=["momentum", "adam", "sgd_lr_per_step", "momentum_last_layer_first"])
def test_compiled_training_step_equals_pynative(make_opt):
    x = Tensor(np.random.RandomState(0).randn(8, 1, 32, 32).astype(np.float32))
    y = Tensor(np.random.RandomState(1).randint(0, 10, 8).astype(np.int32))
    losses = {}
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_seed(3)
        net = lenet()
        loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), make_opt(net.trainable_params()))
        ms.set_context(mode=mode)
        try:
            losses[mode] = [float(step(x, y).asnumpy()) for _ in range(5)]
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(losses[ms.GRAPH_MODE], losses[ms.PYNATIVE_MODE], rtol=1e-5)
    assert losses[ms.GRAPH_MODE][-1] < losses[ms.GRAPH_MODE][0]


def test_bad_use_fails_clearly():
    g = ms.grad(lambda x, s: x * s, grad_position=1)

    @ms.jit
    def wrt_a_number(x):
        return g(x, 2.0)

    with pytest.raises(TypeError, match="cannot differentiate with respect to the input at position 1"):
        wrt_a_number(Tensor(1.0))

    out_of_range = ms.grad(lambda x: x * 2, grad_position=3)

    @ms.jit
    def bad_position(x):
        return out_of_range(x)

    with pytest.raises(ValueError, match="'grad_position' 3 is out of range"):
        bad_position(Tensor(1.0))

    op = ops.GradOperation(sens_param=True)

    @ms.jit
    def bad_sens(x):
        return op(lambda v: v * 2)(x, Tensor(np.ones(3, np.float32)))

    with pytest.raises(ValueError, match="the sensitivity has shape"):
        bad_sens(Tensor(np.ones(2, np.float32)))


class ClipGrad(nn.Cell):
    def construct(self, x):
        return x * x

    def bprop(self, x, out, dout):
        return (ops.clip_by_value(dout * 2 * x, -1.0, 1.0) * 10,)


class UsesClipGrad(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = ClipGrad()

    def construct(self, x):
        return (self.inner(x) * 3).sum()


def test_custom_cell_bprop_replaces_autodiff_in_both_modes():
    net = UsesClipGrad()
    x = Tensor(np.array([0.1, 1.0, -2.0], np.float32))
    g = ms.grad(net)

    @ms.jit
    def compiled(x):
        return g(x)

    np.testing.assert_allclose(g(x).asnumpy(), [6.0, 10.0, -10.0], rtol=1e-6)  # autodiff would give 6x: 0.6, 6, -12
    np.testing.assert_allclose(compiled(x).asnumpy(), [6.0, 10.0, -10.0], rtol=1e-6)
    ms.set_context(mode=ms.GRAPH_MODE)
    np.testing.assert_allclose(net(x).asnumpy(), 3 * (0.01 + 1 + 4), rtol=1e-6)  # the forward is construct's


@ms.jit
def compiled_branchy(x, y):
    if x.sum() > 0:
        return ops.sin(x) * y
    return x * y


def test_pynative_gradient_through_a_jit_function_uses_its_graph_gradient():
    x, y = Tensor(np.array([0.5, 1.0], np.float32)), Tensor(np.array([2.0, 3.0], np.float32))
    dx, dy = ms.grad(compiled_branchy, grad_position=(0, 1))(x, y)
    edx, edy = ms.grad(compiled_branchy.fn, grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(dx.asnumpy(), edx.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(dy.asnumpy(), edy.asnumpy(), rtol=1e-6)
    net = nn.Dense(2, 1)

    @ms.jit
    def loss(v):
        return (net(v) ** 2).sum()

    got = ms.grad(loss, None, net.trainable_params())(x.reshape(1, 2))
    expected = ms.grad(loss.fn, None, net.trainable_params())(x.reshape(1, 2))
    for a, b in zip(got, expected):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)
    cube = ms.jit(lambda v: v * v * v)
    assert float(ms.grad(ms.grad(cube))(Tensor(2.0)).asnumpy()) == 12.0  # higher order, still compiled


def test_vjp_and_jvp_in_graph_mode_equal_pynative():
    def f(x, y):
        return ops.sin(x) * y

    def h(x):
        return ops.sin(x) * x

    x, y = Tensor(np.array([0.5, 1.0])), Tensor(np.array([2.0, 3.0]))
    v = Tensor(np.array([1.0, -1.0]))

    @ms.jit
    def graph_vjp(x, y, v):
        out, vjp_fn = ops.vjp(f, x, y)
        return out, vjp_fn(v)

    @ms.jit
    def graph_jvp(x, v):
        return ops.jvp(h, x, v)

    out, (gx, gy) = graph_vjp(x, y, v)
    e_out, e_fn = ops.vjp(f, x, y)
    e_gx, e_gy = e_fn(v)
    for a, b in ((out, e_out), (gx, e_gx), (gy, e_gy)):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-12)
    out, tangent = graph_jvp(x, v)
    e_out, e_tangent = ops.jvp(h, x, v)
    np.testing.assert_allclose(tangent.asnumpy(), e_tangent.asnumpy(), rtol=1e-12)
    np.testing.assert_allclose(tangent.asnumpy(), (np.cos([0.5, 1.0]) * [0.5, 1.0] + np.sin([0.5, 1.0])) * [1, -1],
                               rtol=1e-12)


def test_vjp_with_aux_in_graph_mode_weighs_the_main_output_only():
    def f(x):
        return ops.sin(x) * 2, x * 3

    x, v = Tensor(np.array([0.5, 1.0])), Tensor(np.array([1.0, -2.0]))

    @ms.jit
    def graph_vjp(x, v):
        out, vjp_fn, aux = ops.vjp(f, x, has_aux=True)
        return out, vjp_fn(v), aux

    out, g, aux = graph_vjp(x, v)
    e_out, e_fn, e_aux = ops.vjp(f, x, has_aux=True)
    for a, b in ((out, e_out), (g, e_fn(v)), (aux, e_aux)):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-12)
    np.testing.assert_allclose(g.asnumpy(), 2 * np.cos([0.5, 1.0]) * [1.0, -2.0], rtol=1e-12)

    @ms.jit
    def wrong_cotangent(x):
        _, vjp_fn, _ = ops.vjp(f, x, has_aux=True)
        return vjp_fn(Tensor(np.ones(3)))

    with pytest.raises(ValueError, match="vjp: the cotangent has shape"):
        wrong_cotangent(x)


def test_sgd_on_a_matmul_gradient_is_one_accumulating_gemm(tmp_path):
    """Note [Updates folded into their gradient's product]: compiled plain SGD on Dense weights runs
    ApplyGradientDescentMatMul (no gradient buffer) and trains exactly as PYNATIVE, to rounding."""
    x = Tensor(np.random.RandomState(0).randn(16, 20).astype(np.float32))
    y = Tensor(np.random.RandomState(1).randint(0, 5, 16).astype(np.int32))
    weights, counts = {}, {}
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_seed(4)
        net = nn.SequentialCell(nn.Dense(20, 32), nn.ReLU(), nn.Dense(32, 5))
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), nn.SGD(net.trainable_params(), 0.1))
        ms.set_context(mode=mode)
        try:
            profiler = ms.Profiler(output_path=str(tmp_path))
            for _ in range(5):
                step(x, y)
            profiler.stop()
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
        counts[mode] = {row["op"]: row["calls"] for row in profiler.op_statistics()}
        weights[mode] = [p.asnumpy() for p in net.trainable_params()]
    assert counts[ms.GRAPH_MODE].get("ApplyGradientDescentMatMul") == 2 * 5  # both weights, every step
    assert counts[ms.GRAPH_MODE].get("ApplyGradientDescent") == 2 * 5  # the biases
    assert "ApplyGradientDescentMatMul" not in counts[ms.PYNATIVE_MODE]
    for a, b in zip(weights[ms.GRAPH_MODE], weights[ms.PYNATIVE_MODE]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
