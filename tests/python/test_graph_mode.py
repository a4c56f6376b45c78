"""Graph mode (issue 4): the seed 004 examples, control flow, Cells, side effects, errors and dumps.

Every compiled result is compared with the same Python function run eagerly (PYNATIVE). The IR
verifier runs after every compiler pass in these tests.
"""
import os

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn, ops
from sprout._frontend import jit as jit_module
from sprout._frontend.source import GraphSyntaxError


@pytest.fixture(autouse=True)
def verify_ir():
    jit_module._VERIFY[0] = True
    yield
    jit_module._VERIFY[0] = False


def eager(fn):
    return fn.fn if isinstance(fn, jit_module.JitFunction) else fn


def as_np(value):
    if isinstance(value, tuple):
        return tuple(as_np(v) for v in value)
    return value.asnumpy() if isinstance(value, Tensor) else value


def assert_same(a, b):
    a, b = as_np(a), as_np(b)
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            assert_same(x, y)
    else:
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)


def func(x, y):
    return x / y


@ms.jit
def test_f(x, y):
    a = x - 1
    b = a + y
    c = b * func(a, b)
    return c


test_f.__test__ = False  # the seed's name, not a pytest test


@ms.jit
def hof(x):
    def f(x):
        return x + 3

    def g(function, x):
        return function(x) * function(x)

    res = g(f, x)
    return res


@ms.jit
def fibonacci(n):
    if n < 1:
        return 0
    if n == 1:
        return 1
    return fibonacci(n - 1) + fibonacci(n - 2)


@ms.jit
def func_outer(a, b):
    def func_inner(c):
        return a + b + c

    return func_inner


@ms.jit
def ms_closure():
    closure = func_outer(1, 2)
    out1 = closure(1)
    out2 = closure(2)
    return out1, out2


def test_seed_004_test_f():
    x, y = Tensor(np.array([2.0, 3.0], np.float32)), Tensor(np.array([1.0, 5.0], np.float32))
    out = test_f(x, y)
    np.testing.assert_allclose(out.asnumpy(), [1.0, 2.0], rtol=1e-6)
    assert_same(out, eager(test_f)(x, y))


def test_seed_004_higher_order_function():
    assert hof(Tensor(1.0)).asnumpy() == 16.0
    assert_same(hof(Tensor(np.arange(3, dtype=np.float32))), eager(hof)(Tensor(np.arange(3, dtype=np.float32))))


def test_seed_004_fibonacci_by_recursion_on_a_tensor():
    assert fibonacci(Tensor(10)) == 55
    assert fibonacci(Tensor(1)) == 1 and fibonacci(Tensor(0)) == 0
    assert fibonacci(Tensor(7)) == eager(fibonacci)(Tensor(7))


def test_seed_004_closure():
    out1, out2 = ms_closure()
    assert (out1, out2) == (4, 5)


def test_closure_over_tensors():
    @ms.jit
    def outer(a, b):
        inner = func_outer.fn(a, b)
        return inner(Tensor(1.0)), inner(Tensor(2.0))

    assert_same(outer(Tensor(1.0), Tensor(2.0)), (Tensor(4.0), Tensor(5.0)))


@ms.jit
def double_until(x, limit):
    steps = 0
    while x.sum() < limit:
        x = x * 2
        steps += 1
    return x, steps


def test_while_trip_count_depends_on_tensor_values():
    for start, limit in ((1.0, 100.0), (3.0, 10.0), (50.0, 10.0)):
        x = Tensor(np.full((2,), start, np.float32))
        out = double_until(x, Tensor(limit))
        assert_same(out, eager(double_until)(x, Tensor(limit)))
    assert double_until.cache_size == 1  # the same signature compiled once


@ms.jit
def nested(x, n):
    total = x * 0
    for k in range(3):
        i = 0
        while i < n:
            if (x * k).sum() > i:
                total = total + x * k
            else:
                total = total - 1
            i += 1
    return total


def test_nested_if_inside_while_inside_for():
    for n in (0, 2, 4):
        x = Tensor(np.array([0.5, 1.5], np.float32))
        assert_same(nested(x, Tensor(n)), eager(nested)(x, Tensor(n)))


@ms.jit
def first_above(x, threshold):
    for i in range(5):
        if x[i] > threshold:
            return x[i] * 10, i
    return x[0] * 0, -1


def test_early_return_from_a_loop():
    x = Tensor(np.array([1.0, 5.0, 2.0, 9.0, 3.0], np.float32))
    for t in (0.0, 4.0, 8.0, 100.0):
        assert_same(first_above(x, Tensor(t)), eager(first_above)(x, Tensor(t)))


@ms.jit
def while_with_break_and_continue(x):
    i = 0
    acc = x * 0
    while i < 10:
        i += 1
        if i % 2 == 0:
            continue
        acc = acc + x * i
        if acc.sum() > 20:
            break
    return acc, i


def test_while_with_break_and_continue():
    for v in (0.5, 1.0, 3.0):
        x = Tensor(np.array([v, v], np.float32))
        assert_same(while_with_break_and_continue(x), eager(while_with_break_and_continue)(x))


class Blocks(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.Dense(4, 8), nn.Dense(8, 8), nn.Dense(8, 3)])

    def construct(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = ops.relu(x)
        return x


def run_in_modes(net, *inputs):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    expected = net(*inputs)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        got = net(*inputs)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    return got, expected


def test_cell_calls_sub_cells_from_a_celllist():
    net = Blocks()
    got, expected = run_in_modes(net, Tensor(np.random.randn(5, 4).astype(np.float32)))
    assert_same(got, expected)
    assert net._jit_construct.cache_size == 1


def load_lenet():
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).resolve().parents[2] / "examples" / "lenet_mnist.py"
    spec = importlib.util.spec_from_file_location("lenet_mnist", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.LeNet5


def test_lenet_graph_mode_equals_pynative_and_recompiles_on_new_shape():
    net = load_lenet()()
    x = Tensor(np.random.randn(4, 1, 32, 32).astype(np.float32))
    got, expected = run_in_modes(net, x)
    assert_same(got, expected)
    got, expected = run_in_modes(net, Tensor(np.random.randn(2, 1, 32, 32).astype(np.float32)))
    assert_same(got, expected)
    assert net._jit_construct.cache_size == 2


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.count = ms.Parameter(Tensor(np.zeros(2, np.float32)), name="count")

    def construct(self, x):
        ops.assign_add(self.count, x)
        middle = self.count * 1
        ops.assign(self.count, self.count * 10)
        return middle, self.count + 0


def test_parameter_updated_in_place_twice_and_read_between():
    net = Counter()
    x = Tensor(np.array([1.0, 2.0], np.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        middle, after = net(x)
        np.testing.assert_allclose(middle.asnumpy(), [1.0, 2.0])
        np.testing.assert_allclose(after.asnumpy(), [10.0, 20.0])
        middle, after = net(x)  # the second call sees the first call's update
        np.testing.assert_allclose(middle.asnumpy(), [11.0, 22.0])
        np.testing.assert_allclose(net.count.asnumpy(), [110.0, 220.0])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    eager_net = Counter()
    m, a = eager_net(x)
    np.testing.assert_allclose(m.asnumpy(), [1.0, 2.0])
    np.testing.assert_allclose(a.asnumpy(), [10.0, 20.0])


def test_constants_fold_and_shapes_are_compile_time_values():
    @ms.jit
    def f(x):
        n = x.shape[0] * len(x.shape)
        scale = max(1, 2) + abs(-1)
        flags = [i * 2 for i in range(n) if i % 2 == 0]
        if isinstance(x, Tensor) and x.ndim == 2:
            return x * scale + len(flags), x.dtype
        return x, None

    out, dtype = f(Tensor(np.ones((3, 2), np.float32)))
    np.testing.assert_allclose(out.asnumpy(), np.full((3, 2), 3.0 + 3))
    assert dtype == ms.float32


def test_tensor_indexing_and_tuple_unpacking():
    @ms.jit
    def f(x):
        a, b = x[0], x[1:]
        first, *_ = (a, b)
        y = x[:, 1]
        y, z = y * 2, first.sum()
        return y, z, x[None, ..., 0]

    x = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    assert_same(f(x), eager(f)(x))


def test_same_signature_is_cached_and_new_dtype_recompiles():
    @ms.jit
    def f(x):
        return x * 2

    f(Tensor(np.ones(3, np.float32)))
    f(Tensor(np.zeros(3, np.float32)))
    assert f.cache_size == 1
    f(Tensor(np.ones(3, np.float64)))
    f(Tensor(np.ones(4, np.float32)))
    assert f.cache_size == 3


def test_branch_type_mismatch_names_both_branches():
    @ms.jit
    def f(x):
        if x > 0:
            y = x
        else:
            y = (x, x)
        return y

    with pytest.raises(TypeError, match=r"variable 'y' has different types .*Tensor\[Float32\]\(\).* and tuple of 2"):
        f(Tensor(1.0))


def test_unsupported_syntax_says_file_line_and_what_to_write():
    @ms.jit
    def f(x):
        try:
            x = x + 1
        except ValueError:
            pass
        return x

    with pytest.raises(GraphSyntaxError, match=r"test_graph_mode.py:\d+: graph mode does not support the 'Try' "
                                               r"statement; handle errors outside the compiled function"):
        f(Tensor(1.0))


def test_loop_changing_shape_is_an_error():
    @ms.jit
    def f(x):
        while x.sum() < 10:
            x = ops.concat((x, x))
        return x

    with pytest.raises(TypeError, match="variable 'x' is Tensor.*before the loop"):
        f(Tensor(np.ones(1, np.float32)))


def test_values_in_library_code_fail_clearly():
    @ms.jit
    def f(x):
        return x.asnumpy()

    with pytest.raises(RuntimeError, match="needs the tensor's value"):
        f(Tensor(1.0))


def test_save_graphs_dumps_each_stage(tmp_path):
    ms.set_context(save_graphs=True, save_graphs_path=str(tmp_path))
    try:
        @ms.jit
        def fib(n):
            if n < 1:
                return 0
            if n == 1:
                return 1
            return fib(n - 1) + fib(n - 2)

        assert fib(Tensor(6)) == 8
        x = Tensor(np.array([2.0], np.float32))
        jit_module.JitFunction(test_f.fn)(x, x)
    finally:
        ms.set_context(save_graphs=False, save_graphs_path=".")
    files = sorted(os.listdir(tmp_path))
    assert any(f.startswith("fib_") and f.endswith("00_specialize.ir") for f in files)
    assert any(f.endswith("program.txt") for f in files)
    fib_ir = next(tmp_path / f for f in files if f.startswith("fib_") and f.endswith("_closure_convert.ir"))
    text = fib_ir.read_text()
    assert "Switch(" in text and "Partial(" in text and "@fib_true" in text and "@fib_false" in text
    spec = (tmp_path / next(f for f in files if f.startswith("test_f_") and f.endswith("00_specialize.ir"))).read_text()
    # test_f's ANF: sub, add, a call of func's graph, mul -- each line with its types and source line.
    assert "funcgraph @test_f(" in spec and "funcgraph @func(" in spec
    assert "Sub(%x" in spec and "RealDiv(" in spec and "test_graph_mode.py:" in spec
    assert (tmp_path / next(f for f in files if f.startswith("test_f_") and f.endswith(".dot"))).read_text().startswith(
        "digraph")


def test_print_in_graph_mode_prints_in_program_order(capsys):
    @ms.jit
    def f(x):
        print("x is", x, "of shape", x.shape)
        y = x * 2
        ops.Print()("y:", y)
        i = 0
        while i < 2:
            print("iteration", i)
            i += 1
        return y

    f(Tensor(np.array([1.0, 2.0], np.float32)))
    assert capsys.readouterr().out.splitlines() == [  # ops.Print: one line each, tensors as repr (MindSpore)
        "x is [1. 2.] of shape (2,)", "y:", "Tensor(shape=[2], dtype=Float32, value= [ 2.00000000e+00,  4.00000000e+00])",
        "iteration 0", "iteration 1"]
    f(Tensor(np.array([3.0, 4.0], np.float32)))  # printed when the graph runs, not when it compiled
    assert capsys.readouterr().out.splitlines()[0] == "x is [3. 4.] of shape (2,)"


def test_elementwise_chains_fuse_with_bias_broadcasts_and_match_pynative():
    dense = nn.Dense(64, 32, activation="relu")
    x = Tensor(np.random.RandomState(0).randn(16, 64).astype(np.float32))
    got, expected = run_in_modes(dense, x)
    np.testing.assert_array_equal(got.asnumpy(), expected.asnumpy())
    program = next(iter(dense._jit_construct._cache.values())).program.describe()
    assert "MatMul(" in program and "Fused[Add, ReLU]" in program  # bias and activation: one pass

    @ms.jit
    def per_channel(x, b, s):
        return ops.sigmoid(ops.relu(x + b) * s - 1.0) / 3.0

    args = (Tensor(np.random.RandomState(1).randn(2, 3, 4, 5).astype(np.float32)),
            Tensor(np.random.RandomState(2).randn(3, 1, 1).astype(np.float32)), Tensor(np.float32(0.5)))
    np.testing.assert_allclose(per_channel(*args).asnumpy(), eager(per_channel)(*args).asnumpy(), rtol=1e-6)
    program = next(iter(per_channel._cache.values())).program.describe()
    assert program.count("Fused[") == 1 and "Sigmoid" in program


def test_fused_chains_past_the_last_level_cache_match_pynative():
    # 4M floats in four arrays is past a 32 MB L3: the fused pass streams its output (Note [Streaming
    # stores]): binary and Exp last steps stream directly, Tanh's through its scratch row.
    @ms.jit
    def muladd(x, y, z):
        return x * y + z

    @ms.jit
    def muladd_exp(x, y, z):
        return ops.exp(x * y + z)

    @ms.jit
    def muladd_tanh(x, y, z):
        return ops.tanh(x * y + z)

    rng = np.random.RandomState(3)
    args = [Tensor(rng.randn((4 << 20) + 7).astype(np.float32)) for _ in range(3)]
    ms.set_context(runtime_num_threads=2)
    try:
        for f in (muladd, muladd_exp, muladd_tanh):
            got = f(*args)
            assert "Fused[" in next(iter(f._cache.values())).program.describe()
            np.testing.assert_array_equal(got.asnumpy(), eager(f)(*args).asnumpy())
    finally:
        ms.set_context(runtime_num_threads=1)


def test_and_or_not_on_tensor_conditions():
    @ms.jit
    def f(x, y):
        if (x.sum() > 0 and y.sum() > 0) or not x.sum() < 10:
            return x * y
        return x - y

    for a, b in ((1.0, 2.0), (1.0, -2.0), (20.0, -2.0), (-1.0, 2.0)):
        x, y = Tensor(np.full(2, a, np.float32)), Tensor(np.full(2, b, np.float32))
        assert_same(f(x, y), eager(f)(x, y))


def test_jit_with_defaults_keywords_and_on_a_cell_method():
    @ms.jit
    def scaled(x, scale=2.0, *, shift=0.0):
        return x * scale + shift

    x = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(scaled(x).asnumpy(), [2.0, 4.0])
    np.testing.assert_allclose(scaled(x, shift=1.0).asnumpy(), [3.0, 5.0])
    np.testing.assert_allclose(scaled(x, 3.0).asnumpy(), [3.0, 6.0])
    assert scaled.cache_size == 3  # constants are part of the signature

    class Doubler(nn.Cell):
        @ms.jit
        def construct(self, x):
            return x * 2

    assert_same(Doubler()(x), x * 2)
    with pytest.raises(TypeError, match="jit: expects a Python function or method, but got int"):
        ms.jit(3)
    with pytest.raises(ValueError, match="jit: 'mode' must be 'PSJit' or 'PIJit'"):
        ms.jit(mode="eager")


def test_set_train_selects_the_graph_compiled_for_that_mode():
    # A cell compiled in training mode was run by its training graph after set_train(False): dropout
    # still dropped and BatchNorm normalized by the batch (Note [Training mode in compiled graphs]).
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    net = nn.SequentialCell(nn.Dense(4, 4), nn.BatchNorm1d(4), nn.Dropout(p=0.5))
    x = ms.Tensor(np.random.RandomState(0).randn(8, 4).astype(np.float32))
    net.set_train(True)
    assert (net(x).asnumpy() == 0).any()
    net.set_train(False)
    evaluated = net(x).asnumpy()
    np.testing.assert_array_equal(net(x).asnumpy(), evaluated)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(net(x).asnumpy(), evaluated, rtol=1e-6, atol=1e-6)
    ms.set_context(mode=ms.GRAPH_MODE)
    net[2].training = True  # one cell's mode, set directly
    assert (net(x).asnumpy() == 0).any()
    net.set_train(True)
    net(x)
    assert net.__dict__["_jit_construct"].cache_size == 3  # training, evaluation, evaluation but dropout


class WritesItsParameter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.zeros(4, np.float32)), name="w")

    def construct(self, x):
        self.w[1] = x.sum()
        self.w[2:] = x[:2] * 10
        return self.w * 2


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_item_assignment_to_a_parameter_writes_it(mode):
    """self.w[i] = v writes the Parameter in both modes (compiled, it had only rebound a temporary)."""
    ms.set_context(mode=mode)
    try:
        net = WritesItsParameter()
        out = net(Tensor(np.array([1.0, 2.0, 3.0], np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(net.w.asnumpy(), [0.0, 6.0, 10.0, 20.0])
    np.testing.assert_array_equal(out.asnumpy(), [0.0, 12.0, 20.0, 40.0])


def _double_output(cell, inputs, output):
    return output * 2


def _shift_input(cell, inputs):
    return (inputs[0] + 1,)


class HookedInside(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2)
        self.dense.register_forward_hook(_double_output)
        self.dense.register_forward_pre_hook(_shift_input)

    def construct(self, x):
        return self.dense(x).sum()


def test_forward_hooks_of_a_cell_inside_compiled_code_run():
    """A sub-cell's forward hooks run where PYNATIVE runs them (compiled, they had been skipped)."""
    net = HookedInside()
    x = Tensor(np.ones((1, 3), np.float32))
    eager_out, eager_grad = net(x).asnumpy(), ms.grad(net)(x).asnumpy()
    plain = (net.dense.weight.asnumpy() @ np.full(3, 2.0) + net.dense.bias.asnumpy()).sum() * 2
    np.testing.assert_allclose(eager_out, plain, rtol=1e-6)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        np.testing.assert_allclose(net(x).asnumpy(), eager_out, rtol=1e-6)
        np.testing.assert_allclose(ms.grad(net)(x).asnumpy(), eager_grad, rtol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
