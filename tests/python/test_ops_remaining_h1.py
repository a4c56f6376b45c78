"""The remaining small MindSpore ops: amax/amin with initial and where, the legacy array functions (gather_d,
inplace_index_add, is_nonzero, ravel, deepcopy, dyn_shape, eps, print_), randn_like and laplace, the norms
(vector_norm, matrix_norm, cond), lu_unpack / geqrf / orgqr, get_grad, Tensor.gather(dim, index), the
functional composites (Partial, MultitypeFuncGraph, HyperMap, Map), the functional loops (ForiLoop,
WhileLoop, Scan) and the AMSGrad / sparse Adagrad updates: NumPy references, bad input, gradients by finite
differences and compiled runs."""
import numpy as np
import pytest

import sprout as ms
from sprout import Parameter, Tensor, nn, ops
from finite_differences import check_grad

RNG = np.random.default_rng(7)


def _f32(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


# --- amax / amin ------------------------------------------------------------------------------------------

def test_amax_amin_initial_and_where_match_numpy():
    x = RNG.integers(-9, 9, (3, 4)).astype(np.float32)
    where = RNG.random((3, 4)) > 0.5
    for fn, ref in ((ops.amax, np.amax), (ops.amin, np.amin)):
        got = fn(Tensor(x), axis=1, keepdims=True, initial=0.5, where=Tensor(where))
        np.testing.assert_array_equal(got.asnumpy(), ref(x, axis=1, keepdims=True, initial=0.5, where=where))
        np.testing.assert_array_equal(fn(Tensor(x), initial=-3.0).asnumpy(), ref(x, initial=-3.0))
        col = np.array([[True], [False], [True]])  # broadcast against the input
        np.testing.assert_array_equal(fn(Tensor(x), 0, initial=1.0, where=Tensor(col)).asnumpy(),
                                      ref(x, 0, initial=1.0, where=col))


def test_amax_where_needs_initial_and_a_bool_mask():
    x = Tensor(_f32(2, 2))
    with pytest.raises(ValueError, match="amax: 'where' needs an 'initial'"):
        ops.amax(x, where=Tensor([[True, False], [True, True]]))
    with pytest.raises(TypeError, match="amin: 'where' must be a Bool Tensor"):
        ops.amin(x, initial=0.0, where=Tensor([[1, 0], [1, 1]]))


# --- legacy array functions -------------------------------------------------------------------------------

def test_gather_d_and_tensor_gather_overloads():
    x = _f32(3, 4)
    index = RNG.integers(0, 3, (2, 4)).astype(np.int32)
    np.testing.assert_array_equal(ops.gather_d(Tensor(x), 0, Tensor(index)).asnumpy(),
                                  np.take_along_axis(x, index, 0))
    np.testing.assert_array_equal(Tensor(x).gather(0, Tensor(index)).asnumpy(), np.take_along_axis(x, index, 0))
    np.testing.assert_array_equal(Tensor(x).gather(dim=1, index=Tensor(index[:, :3])).asnumpy(),
                                  np.take_along_axis(x[:2], index[:, :3], 1))
    # the slice-gathering overload is unchanged
    np.testing.assert_array_equal(Tensor(x).gather(Tensor(np.array([2, 0], np.int32)), 0).asnumpy(), x[[2, 0]])
    np.testing.assert_array_equal(Tensor(x).gather(input_indices=Tensor(np.array([1], np.int32)), axis=1).asnumpy(),
                                  x[:, [1]])
    with pytest.raises(TypeError, match="Tensor.gather"):
        Tensor(x).gather(dim=0, index=Tensor(index), axis=1)


def test_inplace_index_add_writes_parameters_and_tensors():
    var = Parameter(Tensor(np.arange(6, dtype=np.float32).reshape(3, 2)), name="var")
    updates = _f32(3, 2)
    out = ops.inplace_index_add(var, Tensor(np.array([0, 2, 0], np.int32)), Tensor(updates), axis=0)
    expected = np.arange(6, dtype=np.float32).reshape(3, 2)
    np.add.at(expected, [0, 2, 0], updates)
    np.testing.assert_allclose(var.asnumpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6)
    t = Tensor(np.zeros((2, 3), np.float32))
    ops.inplace_index_add(t, Tensor(np.array([2], np.int32)), Tensor(np.ones((2, 1), np.float32)), axis=-1)
    np.testing.assert_array_equal(t.asnumpy(), [[0, 0, 1], [0, 0, 1]])
    with pytest.raises(ValueError, match="inplace_index_add: 'updates' must have shape"):
        ops.inplace_index_add(t, Tensor(np.array([0], np.int32)), Tensor(np.ones((2, 2), np.float32)), axis=1)
    with pytest.raises(TypeError, match="inplace_index_add: 'axis' must be an int"):
        ops.inplace_index_add(t, Tensor(np.array([0], np.int32)), Tensor(np.ones((2, 1), np.float32)), axis=1.0)


def test_small_legacy_functions():
    assert ops.is_nonzero(Tensor([[3.5]])) is True and ops.is_nonzero(Tensor([[[False]]])) is False
    with pytest.raises(ValueError, match="is_nonzero: 'input' must hold exactly one element"):
        ops.is_nonzero(Tensor([1, 2]))
    assert ops.ravel(Tensor(3.0)).shape == (1,)
    np.testing.assert_array_equal(ops.ravel(Tensor(np.arange(6).reshape(2, 3))).asnumpy(), np.arange(6))
    x = Tensor(np.arange(4, dtype=np.float32))
    y = ops.deepcopy(x)
    x[0] = 9.0
    assert y.asnumpy()[0] == 0.0
    shape = ops.dyn_shape(Tensor(np.ones((3, 2, 1), np.float32)))
    assert shape.dtype == ms.int64 and shape.asnumpy().tolist() == [3, 2, 1]
    for dtype, nptype in ((ms.float16, np.float16), (ms.float32, np.float32), (ms.float64, np.float64)):
        e = ops.eps(Tensor(np.ones((2, 2)), dtype))
        assert e.dtype == dtype and e.shape == (2, 2) and float(e.asnumpy()[0, 0]) == float(np.finfo(nptype).eps)
    with pytest.raises(TypeError, match="eps: 'x' must be a float16, float32 or float64"):
        ops.eps(Tensor([1, 2]))
    assert ms.is_tensor(x) and not ms.is_tensor(np.ones(2))


def test_print_prints_like_the_print_primitive(capfd):
    ops.print_("values:", Tensor(np.array([[1], [1]], np.int32)))
    out = capfd.readouterr().out
    assert "values:" in out and "Tensor(shape=[2, 1], dtype=Int32" in out


# --- random -----------------------------------------------------------------------------------------------

def test_randn_like_and_laplace():
    a = ops.randn_like(Tensor(np.zeros((200, 50), np.int32)), seed=3)
    assert a.dtype == ms.float32 and a.shape == (200, 50)
    assert abs(float(a.asnumpy().mean())) < 0.05 and abs(float(a.asnumpy().std()) - 1) < 0.05
    assert ops.randn_like(Tensor([1.0]), dtype=ms.float64).dtype == ms.float64
    with pytest.raises(ValueError, match="randn_like: 'dtype' must be a floating-point type"):
        ops.randn_like(Tensor([1.0]), dtype=ms.int32)
    s = ops.laplace((4000, 3), Tensor(np.array([1.0, -2.0, 0.0], np.float32)), Tensor(0.5, ms.float32), seed=5)
    assert s.shape == (4000, 3)
    np.testing.assert_allclose(np.median(s.asnumpy(), axis=0), [1.0, -2.0, 0.0], atol=0.06)
    np.testing.assert_allclose(np.abs(s.asnumpy() - [1.0, -2.0, 0.0]).mean(axis=0), 0.5, atol=0.05)  # E|x-mu| = b
    with pytest.raises(TypeError, match="laplace: 'mean' must be a float32 tensor"):
        ops.laplace((2,), Tensor(1.0, ms.float64), Tensor(1.0))


# --- norms ------------------------------------------------------------------------------------------------

def test_vector_norm_matches_numpy():
    x = _f32(3, 4, 2)
    for ord in (2, 1, 3.5, float("inf"), float("-inf"), 0):
        np.testing.assert_allclose(ops.vector_norm(Tensor(x), ord).asnumpy(), np.linalg.norm(x.ravel(), ord),
                                   rtol=1e-5)
        np.testing.assert_allclose(ops.vector_norm(Tensor(x), ord, axis=(0, 2), keepdims=True).asnumpy(),
                                   np.linalg.norm(x.transpose(1, 0, 2).reshape(4, -1), ord, axis=1)
                                   .reshape(1, 4, 1), rtol=1e-5)
    assert ops.vector_norm(Tensor(x), dtype=ms.float64).dtype == ms.float64
    with pytest.raises(ValueError, match="vector_norm: 'ord'"):
        ops.vector_norm(Tensor(x), "fro")
    with pytest.raises(TypeError, match="vector_norm: 'axis'"):
        ops.vector_norm(Tensor(x), 2, [0])
    check_grad(lambda t: ops.vector_norm(t, 3, axis=1), _f32(2, 3))


def test_matrix_norm_and_cond_match_numpy():
    a = _f32(2, 3, 3) + 3 * np.eye(3, dtype=np.float32)
    for ord in ("fro", "nuc", 1, -1, 2, -2, float("inf"), float("-inf")):
        np.testing.assert_allclose(ops.matrix_norm(Tensor(a), ord).asnumpy(), np.linalg.norm(a, ord, axis=(-2, -1)),
                                   rtol=1e-4)
    for p in (None, "fro", "nuc", 1, -1, 2, -2, float("inf"), float("-inf")):
        np.testing.assert_allclose(ops.cond(Tensor(a), p).asnumpy(), np.linalg.cond(a, p), rtol=1e-4)
    np.testing.assert_allclose(ops.matrix_norm(Tensor(a), "fro", (0, 2), True).asnumpy(),
                               np.linalg.norm(a, "fro", axis=(0, 2), keepdims=True), rtol=1e-5)
    with pytest.raises(ValueError, match="matrix_norm: 'ord' must be one of"):
        ops.matrix_norm(Tensor(a), 3)
    with pytest.raises(ValueError, match="matrix_norm: 'axis' must hold 2"):
        ops.matrix_norm(Tensor(a), "fro", (0,))
    with pytest.raises(ValueError, match="cond: 'A' must hold square matrices"):
        ops.cond(Tensor(_f32(2, 3)))
    check_grad(lambda t: ops.cond(t), (_f32(3, 3) + 3 * np.eye(3)).astype(np.float64), rtol=1e-5)


# --- factorizations ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (3, 3), (2, 3, 2)])
def test_geqrf_and_orgqr_give_householder_qr(shape):
    a = _f32(*shape)
    y, tau = ops.geqrf(Tensor(a))
    k = min(shape[-2:])
    assert y.shape == a.shape and tau.shape == shape[:-2] + (k,)
    r = np.triu(y.asnumpy())[..., :k, :]
    if shape[-2] >= shape[-1]:
        q = ops.orgqr(y, tau).asnumpy()
        np.testing.assert_allclose(q @ r, a, atol=1e-5)
        np.testing.assert_allclose(np.swapaxes(q, -1, -2) @ q, np.broadcast_to(np.eye(shape[-1]), q.shape[:-2]
                                                                               + (shape[-1],) * 2), atol=1e-5)
        # R agrees with NumPy's (LAPACK's) up to the sign of each row
        r_np = np.linalg.qr(a)[1]
        np.testing.assert_allclose(np.abs(r), np.abs(r_np), atol=1e-5)
    else:  # a wide matrix: Q from the first k reflectors of the square part
        q = ops.orgqr(ops.geqrf(Tensor(a[..., :k]))[0], tau).asnumpy()
        np.testing.assert_allclose(q @ r, a, atol=1e-5)


def test_geqrf_matches_lapack_conventions_and_differentiates():
    y, tau = ops.geqrf(Tensor(np.array([[-2.0, -1.0], [1.0, 2.0]], np.float32)))
    np.testing.assert_allclose(y.asnumpy(), [[2.236068, 1.7888544], [-0.236068, 1.3416407]], rtol=1e-5)
    np.testing.assert_allclose(tau.asnumpy(), [1.8944271, 0.0], rtol=1e-5)
    check_grad(lambda t: ops.geqrf(t)[0], _f32(3, 2).astype(np.float64), rtol=1e-5)
    check_grad(lambda t: ops.orgqr(*ops.geqrf(t)), _f32(3, 3).astype(np.float64), rtol=1e-5)
    with pytest.raises(TypeError, match="geqrf: 'input' must be a float32 or float64 tensor"):
        ops.geqrf(Tensor([[1, 2], [3, 4]]))
    with pytest.raises(ValueError, match="orgqr: 'input' must have at least as many rows"):
        ops.orgqr(Tensor(_f32(2, 3)), Tensor(_f32(2)))


def _lu_factor(a):
    """LAPACK getrf with partial pivoting in NumPy: packed LU and 1-based pivots."""
    a = a.astype(np.float64).copy()
    m, n = a.shape
    pivots = []
    for j in range(min(m, n)):
        p = j + int(np.argmax(np.abs(a[j:, j])))
        pivots.append(p + 1)
        a[[j, p]] = a[[p, j]]
        a[j + 1:, j] /= a[j, j]
        a[j + 1:, j + 1:] -= np.outer(a[j + 1:, j], a[j, j + 1:])
    return a.astype(np.float32), np.array(pivots, np.int32)


@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (3, 5)])
def test_lu_unpack_rebuilds_the_matrix(shape):
    a = _f32(*shape)
    lu, pivots = _lu_factor(a)
    p, l, u = ops.lu_unpack(Tensor(lu), Tensor(pivots))
    np.testing.assert_allclose(p.asnumpy() @ l.asnumpy() @ u.asnumpy(), a, atol=1e-5)
    assert ops.lu_unpack(Tensor(lu), Tensor(pivots), unpack_data=False)[1:] == (None, None)
    assert ops.lu_unpack(Tensor(lu), Tensor(pivots), unpack_pivots=False)[0] is None
    pb, lb, ub = ops.LuUnpack()(Tensor(np.stack([lu, lu])), Tensor(np.stack([pivots, pivots])))
    np.testing.assert_array_equal(pb.asnumpy()[1], p.asnumpy())
    with pytest.raises(ValueError, match="lu_unpack: 'LU_pivots' must hold row numbers"):
        ops.lu_unpack(Tensor(lu), Tensor(np.full(min(shape), 9, np.int32)))


# --- get_grad ---------------------------------------------------------------------------------------------

def test_get_grad_by_position_and_parameter():
    w = Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")

    def f(x, y):
        return (x * y * w).sum()
    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([-1.0, 4.0], np.float32))
    grads = ms.grad(f, grad_position=(0, 1), weights=[w], return_ids=True)(x, y)
    np.testing.assert_allclose(ms.get_grad(grads, 1).asnumpy(), [2.0, 6.0])
    np.testing.assert_allclose(ops.get_grad(grads, w).asnumpy(), [-1.0, 8.0])
    with pytest.raises(RuntimeError, match="get_grad: no gradient for position 3"):
        ms.get_grad(grads, 3)
    with pytest.raises(TypeError, match="get_grad: 'identifier' must be an int"):
        ms.get_grad(grads, "w")


# --- functional composites --------------------------------------------------------------------------------

def _scale_overloads():
    scale = ops.MultitypeFuncGraph("scale")

    @scale.register("Number", "Tensor")
    def _number(s, x):
        return x * s

    @scale.register("Tensor", "Tensor")
    def _tensor(s, x):
        if s.sum() > 0:  # tensor-dependent control flow: compiles only when staged
            return x * s
        return x

    @scale.register("Tuple", "Tensor")
    def _tuple(s, x):
        return x * len(s)
    return scale


def test_multitype_func_graph_dispatches_on_types():
    scale = _scale_overloads()
    x = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(scale(2, x).asnumpy(), [2.0, 4.0])
    np.testing.assert_allclose(scale(True, x).asnumpy(), [1.0, 2.0])  # Bool is a Number
    np.testing.assert_allclose(scale(Tensor(3.0), x).asnumpy(), [3.0, 6.0])
    np.testing.assert_allclose(scale((1, 2, 3), x).asnumpy(), [3.0, 6.0])
    with pytest.raises(ValueError, match=r"MultitypeFuncGraph\('scale'\): no overload for arguments \(str"):
        scale("a", x)
    with pytest.raises(ValueError, match="unknown type name 'Tensr'"):
        scale.register("Tensr")
    typed = ops.MultitypeFuncGraph("typed")
    typed.register("Tensor[Float32]")(lambda x: "f32")
    typed.register("Tensor")(lambda x: "other")
    assert typed(Tensor([1.0])) == "f32" and typed(Tensor([1])) == "other"


def test_hypermap_map_and_partial():
    square = ops.MultitypeFuncGraph("square")
    square.register("Tensor")(lambda x: x * x)
    nested = ((Tensor(1.0), Tensor(2.0)), [Tensor(3.0)])
    out = ops.HyperMap()(square, nested)
    assert isinstance(out, tuple) and [float(v.asnumpy()) for v in out[0] + out[1]] == [1.0, 4.0, 9.0]
    out = ops.HyperMap(ops.Partial()(lambda a, b, c: a * b + c, 10.0))(((1.0, 2.0),), ((3.0, 4.0),))
    assert out == ((13.0, 24.0),)
    assert ops.Map()(lambda a, b: a - b, (5, 6), (1, 2)) == (4, 4)
    order = []
    ops.Map(lambda v: order.append(v), reverse=True)((1, 2, 3))
    assert order == [3, 2, 1]
    with pytest.raises(ValueError, match="Map: the sequences must have the same length"):
        ops.Map()(lambda a, b: a, (1, 2), (1,))
    with pytest.raises(TypeError, match="HyperMap: 'ops' must be a MultitypeFuncGraph"):
        ops.HyperMap(5)
    with pytest.raises(TypeError, match="Partial: the first argument must be a function"):
        ops.Partial()(Tensor(1.0), 2)


_apply_sgd = ops.MultitypeFuncGraph("apply_sgd")


@_apply_sgd.register("Number", "Tensor", "Tensor")
def _sgd_update(lr, grad, param):
    return ops.assign(param, param - lr * grad)


class _SgdStep(nn.Cell):
    """The optimizer idiom: hyper_map(partial(update, lr), grads, params)."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((2,), np.float32)), name="w")
        self.b = Parameter(Tensor(np.ones((3,), np.float32)), name="b")
        self.params = (self.w, self.b)
        self.hyper_map = ops.HyperMap()
        self.partial = ops.Partial()
        self.scale = _scale_overloads()

    def construct(self, gw, gb):
        gw = self.scale(gw, gw)  # the Tensor overload, with its tensor-dependent if, staged
        return self.hyper_map(self.partial(_sgd_update, 0.5), (gw, gb), self.params)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_optimizer_idiom_compiles(mode):
    ms.set_context(mode=mode)
    try:
        net = _SgdStep()
        net(Tensor(np.array([1.0, -2.0], np.float32)), Tensor(np.array([2.0, 2.0, 2.0], np.float32)))
        np.testing.assert_allclose(net.w.asnumpy(), [1.0 - 0.5, 1.0 - 0.5 * -2.0])  # sum(gw) < 0: unscaled
        np.testing.assert_allclose(net.b.asnumpy(), [0.0, 0.0, 0.0])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


# --- functional loops -------------------------------------------------------------------------------------

def test_functional_loops_eager():
    assert ops.ForiLoop()(0, 4, lambda i, r: i + r, 0) == 6
    np.testing.assert_allclose(ops.ForiLoop()(Tensor(1), Tensor(4), lambda i, v: v * i, Tensor(1.0)).asnumpy(), 6.0)
    assert ops.WhileLoop()(lambda x: x < 100, lambda v: v + 1, 10) == 100
    assert ops.Scan()(lambda c, e: (c + e, c + e), 0, [1, 2, 3, 4]) == (10, [1, 3, 6, 10])
    assert ops.Scan()(lambda c, e: (c * 2, e), 1, None, length=3) == (8, [None, None, None])
    with pytest.raises(TypeError, match="ForiLoop: 'lower' must be an int or a Tensor"):
        ops.ForiLoop()(0.5, 3, lambda i, v: v, 0)
    with pytest.raises(TypeError, match="WhileLoop: 'loop_func' must be a function"):
        ops.WhileLoop()(lambda v: False, 3, 0)
    with pytest.raises(TypeError, match="Scan: 'xs' must be a tuple, a list or None"):
        ops.Scan()(lambda c, e: (c, e), 0, Tensor([1, 2]))
    with pytest.raises(ValueError, match="Scan: loop_func must return a pair"):
        ops.Scan()(lambda c, e: c, 0, [1])


@ms.jit
def _compiled_loops(x):
    y = ops.ForiLoop()(0, 3, lambda i, v: v * 2 + i, x)
    c, ys = ops.Scan()(lambda c, e: (c + e, c * e), x, [x, y])
    w = ops.WhileLoop()(lambda t: t[0] < 3, lambda t: (t[0] + 1, t[1] * 2), (0, x))
    return y, c, ys[1], w[1]


@ms.jit
def _tensor_condition(x):
    return ops.WhileLoop()(lambda v: v.sum() < 10, lambda v: v * 2, x)


def test_functional_loops_unroll_when_compiled():
    y, c, y1, w = _compiled_loops(Tensor(1.0))
    assert [float(v.asnumpy()) for v in (y, c, y1, w)] == [12.0, 14.0, 24.0, 8.0]
    with pytest.raises(TypeError, match="WhileLoop: while compiling, cond_func's result depends on tensor values"):
        _tensor_condition(Tensor(1.0))


# --- optimizer updates ------------------------------------------------------------------------------------

def _amsgrad_reference(var, m, v, vhat, b1p, b2p, lr, b1, b2, eps, g):
    lr_t = lr * np.sqrt(1 - b2p) / (1 - b1p)
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    vhat = np.maximum(vhat, v)
    return var - lr_t * m / (np.sqrt(vhat) + eps), m, v, vhat


class _AmsgradNet(nn.Cell):
    def __init__(self, arrays):
        super().__init__()
        self.op = ops.ApplyAdamWithAmsgradV2()
        self.var, self.m, self.v, self.vhat = (Parameter(Tensor(a), name=n) for a, n in
                                               zip(arrays, ("var", "m", "v", "vhat")))

    def construct(self, grad):
        return self.op(self.var, self.m, self.v, self.vhat, 0.9, 0.999, 0.01, 0.8, 0.99, 1e-8, grad)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_adam_with_amsgrad_updates_in_place(mode):
    arrays = [_f32(2, 3), _f32(2, 3), np.abs(_f32(2, 3)), np.abs(_f32(2, 3))]
    g = _f32(2, 3)
    expected = _amsgrad_reference(*arrays, 0.9, 0.999, 0.01, 0.8, 0.99, 1e-8, g)
    ms.set_context(mode=mode)
    try:
        net = _AmsgradNet(arrays)
        net(Tensor(g))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for p, e in zip((net.var, net.m, net.v, net.vhat), expected):
        np.testing.assert_allclose(p.asnumpy(), e, rtol=1e-5, atol=1e-7)
    state = [Parameter(Tensor(a), name=f"s{i}") for i, a in enumerate(arrays)]
    out = ops.ApplyAdamWithAmsgrad(0.8, 0.99, 1e-8)(*state, Tensor(0.9), Tensor(0.999), Tensor(0.01), Tensor(g))
    for p, o, e in zip(state, out, expected):
        np.testing.assert_allclose(p.asnumpy(), e, rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(o.asnumpy(), e, rtol=1e-5, atol=1e-7)
    with pytest.raises(ValueError, match="ApplyAdamWithAmsgrad: 'm' must have the shape of 'var'"):
        ops.ApplyAdamWithAmsgrad()(state[0], Tensor(_f32(3)), *state[2:], 0.9, 0.999, 0.01, Tensor(g))


def test_sparse_apply_adagrad_updates_the_indexed_rows():
    var0, accum0 = _f32(4, 2), np.abs(_f32(4, 2)) + 0.1
    grad = _f32(3, 2)
    indices = np.array([3, 0, 3], np.int32)
    var, accum = Parameter(Tensor(var0), name="var"), Parameter(Tensor(accum0), name="accum")
    ops.SparseApplyAdagrad(0.1)(var, accum, Tensor(grad), Tensor(indices))
    g = np.zeros_like(var0)
    np.add.at(g, indices, grad)
    touched = np.isin(np.arange(4), indices)[:, None]
    acc = np.where(touched, accum0 + g * g, accum0)
    np.testing.assert_allclose(accum.asnumpy(), acc, rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), np.where(touched, var0 - 0.1 * g / np.sqrt(acc), var0), rtol=1e-5)
    with pytest.raises(ValueError, match="SparseApplyAdagrad: 'grad' must have shape"):
        ops.SparseApplyAdagrad(0.1)(var, accum, Tensor(_f32(2, 2)), Tensor(indices))


# --- compiled functional ops ------------------------------------------------------------------------------

@ms.jit
def _compiled_functions(a, x, lu, pivots):
    y, tau = ops.geqrf(a)
    p, l, u = ops.lu_unpack(lu, pivots)
    return (ops.orgqr(y, tau), ops.cond(a), ops.vector_norm(x, 1, axis=1), ops.matrix_norm(a, "nuc"),
            ops.amax(x, 1, initial=0.0, where=x > 0), ops.gather_d(x, 1, pivots.reshape(1, 3) - 1), p @ l @ u,
            ops.ravel(x), ops.eps(x), ops.dyn_shape(x), x.gather(1, 2 - pivots.reshape(1, 3) + 1))


def test_functions_compiled_equal_eager():
    a = _f32(3, 3) + 3 * np.eye(3, dtype=np.float32)
    x = _f32(2, 3)
    lu, pivots = _lu_factor(a)
    args = (Tensor(a), Tensor(x), Tensor(lu), Tensor(pivots))
    compiled = _compiled_functions(*args)
    eager = _compiled_functions.fn(*args) if hasattr(_compiled_functions, "fn") else None
    assert eager is not None
    for c, e in zip(compiled, eager):
        np.testing.assert_allclose(c.asnumpy(), e.asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(compiled[6].asnumpy(), a, atol=1e-5)


@ms.jit
def _compiled_inplace_index_add(var, updates):
    return ops.inplace_index_add(var, Tensor(np.array([1, 1], np.int32)), updates, 0)


def test_inplace_index_add_compiled_writes_the_parameter():
    var = Parameter(Tensor(np.zeros((3, 2), np.float32)), name="var")
    _compiled_inplace_index_add(var, Tensor(np.ones((2, 2), np.float32)))
    np.testing.assert_array_equal(var.asnumpy(), [[0, 0], [2, 2], [0, 0]])
