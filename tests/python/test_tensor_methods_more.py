"""MindSpore's in-place Tensor methods (common/tensor_inplace.py, tensor_random_fills.py) and the misc ones
(common/tensor_misc.py): values against NumPy, in-place writes visible through views, gradients through
in-place writes, seeded random fills, graph mode (a Parameter updated in a jitted Cell), bad input."""
import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops
from finite_differences import check_grad

A = np.arange(12, dtype=np.float32).reshape(3, 4) - 5.0
IDX = np.array([2, 0], np.int64)


def t(a, dtype=None):
    return ms.Tensor(np.asarray(a), dtype)


def np_index_put(a, rows, cols, v):
    out = a.copy()
    out[rows, cols] = v
    return out


def np_masked_scatter(a, mask, src):
    out = a.copy()
    m = np.broadcast_to(mask, a.shape)
    out[m] = src.reshape(-1)[:m.sum()]
    return out


def np_fill_diagonal(a, v):
    out = a.copy()
    np.fill_diagonal(out, v)
    return out


def np_scatter_add(a, dim, index, src):
    out = a.copy()
    for pos in np.ndindex(*index.shape):
        target = list(pos)
        target[dim] = index[pos]
        out[tuple(target)] += src[pos]
    return out


def np_index_add(a, dim, index, src, alpha):
    out = np.moveaxis(a.copy(), dim, 0)
    for i, j in enumerate(index):
        out[j] += alpha * np.moveaxis(src, dim, 0)[i]
    return np.moveaxis(out, 0, dim)


def np_index_copy(a, dim, index, src):
    out = np.moveaxis(a.copy(), dim, 0)
    out[index] = np.moveaxis(src, dim, 0)
    return np.moveaxis(out, 0, dim)


SRC = np.arange(100, 112, dtype=np.float32).reshape(3, 4)
MASK = np.array([True, False, True, True])
SCATTER_INDEX = np.array([[1, 0], [3, 3], [0, 2]], np.int64)

# name: (call on the tensor, NumPy reference of the new value of A)
INPLACE = {
    "add_": (lambda x: x.add_(t(SRC[0]), alpha=2), A + 2 * SRC[0]),
    "sub_": (lambda x: x.sub_(1.5), A - 1.5),
    "mul_": (lambda x: x.mul_(t(SRC)), A * SRC),
    "div_": (lambda x: x.div_(4.0), A / 4),
    "div_floor": (lambda x: x.div_(4.0, rounding_mode="floor"), np.floor(A / 4)),
    "div_trunc": (lambda x: x.div_(4.0, rounding_mode="trunc"), np.trunc(A / 4)),
    "remainder_": (lambda x: x.remainder_(3.0), np.mod(A, 3)),
    "floor_divide_": (lambda x: x.floor_divide_(3.0), np.floor_divide(A, 3)),
    "clamp_": (lambda x: x.clamp_(-2, 3), np.clip(A, -2, 3)),
    "exp_": (lambda x: x.exp_(), np.exp(A)),
    "log_": (lambda x: x.abs().add_(1).log_(), None),  # not in place on A: see test_log_
    "floor_": (lambda x: x.div_(3.0).floor_(), np.floor(A / 3)),
    "sigmoid_": (lambda x: x.sigmoid_(), 1 / (1 + np.exp(-A))),
    "tanh_": (lambda x: x.tanh_(), np.tanh(A)),
    "sign_": (lambda x: x.sign_(), np.sign(A)),
    "fill_": (lambda x: x.fill_(7), np.full_like(A, 7)),
    "fill_tensor": (lambda x: x.fill_(t(np.array([2.5], np.float32))), np.full_like(A, 2.5)),
    "zero_": (lambda x: x.zero_(), np.zeros_like(A)),
    "copy_": (lambda x: x.copy_(t(np.arange(4, dtype=np.int32))), np.broadcast_to(np.arange(4.0), A.shape)),
    "masked_fill_": (lambda x: x.masked_fill_(t(MASK), -1.0), np.where(MASK, -1.0, A)),
    "fill_diagonal_": (lambda x: x.fill_diagonal_(9.0), np_fill_diagonal(A, 9.0)),
    "index_add_": (lambda x: x.index_add_(1, t(IDX), t(SRC[:, :2]), alpha=3), np_index_add(A, 1, IDX, SRC[:, :2], 3)),
    "index_fill_": (lambda x: x.index_fill_(0, t(IDX), 4.0), np.where(np.isin(np.arange(3), IDX)[:, None], 4.0, A)),
    "index_copy_": (lambda x: x.index_copy_(1, t(IDX), t(SRC[:, :2])), np_index_copy(A, 1, IDX, SRC[:, :2])),
    "scatter_": (lambda x: x.scatter_(1, t(SCATTER_INDEX[:, :1]), t(SRC)),
                 np_index_put(A, np.arange(3), SCATTER_INDEX[:, 0], SRC[:, 0])),
    "scatter_value_add": (lambda x: x.scatter_(1, t(SCATTER_INDEX), 1.0, reduce="add"),
                          np_scatter_add(A, 1, SCATTER_INDEX, np.ones((3, 2), np.float32))),
    "scatter_add_": (lambda x: x.scatter_add_(1, t(SCATTER_INDEX), t(SRC)), np_scatter_add(A, 1, SCATTER_INDEX, SRC)),
    "put_": (lambda x: x.put_(t(np.array([-1, 5])), t(np.array([8.0, 9.0], np.float32))),
             np.where(np.arange(12).reshape(3, 4) == 11, 8.0, np.where(np.arange(12).reshape(3, 4) == 5, 9.0, A))),
    "put_accumulate": (lambda x: x.put_(t(np.array([1, 1])), t(np.array([8.0, 9.0], np.float32)), True),
                       A + np.where(np.arange(12).reshape(3, 4) == 1, 17.0, 0.0)),
    "index_put_": (lambda x: x.index_put_((t(IDX), t(np.array([3, 1]))), t(np.array([7.0], np.float32))),
                   np_index_put(A, IDX, [3, 1], 7.0)),
    "index_put_rows_accumulate": (lambda x: x.index_put_([t(np.array([1, 1]))], t(SRC[0]), accumulate=True),
                                  A + np.array([0, 2, 0])[:, None] * SRC[0]),
    "index_put_bool": (lambda x: x.index_put_((t(A > 2),), t(np.array([0.0], np.float32))), np.where(A > 2, 0.0, A)),
    "masked_scatter_": (lambda x: x.masked_scatter_(t(MASK), t(SRC)), np_masked_scatter(A, MASK, SRC)),
}


@pytest.mark.parametrize("name", [n for n, (_, ref) in INPLACE.items() if ref is not None])
def test_inplace_method_matches_numpy_returns_self_and_writes_views(name):
    call, expected = INPLACE[name]
    full = t(A.copy())
    view = full[1:]  # taken before the write: it shares the memory, so it must see the new values
    assert call(full) is full
    np.testing.assert_allclose(full.asnumpy(), expected, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(view.asnumpy(), np.asarray(expected)[1:], rtol=1e-6, atol=1e-6)


def test_view_sees_write_through_base():
    base = t(A.copy())
    view = base[:, 1]
    base.add_(1.0).mul_(2.0)
    np.testing.assert_allclose(view.asnumpy(), (A[:, 1] + 1) * 2)
    view.zero_()
    np.testing.assert_array_equal(base.asnumpy()[:, 1], 0)


def test_log_():
    x = t(np.abs(A) + 1)
    assert x.log_() is x
    np.testing.assert_allclose(x.asnumpy(), np.log(np.abs(A) + 1), rtol=1e-6)


def test_erfinv_():
    values = np.array([-0.9, -0.2, 0.0, 0.5, 0.99], np.float32)
    x = t(values)
    assert x.erfinv_() is x
    np.testing.assert_allclose(x.asnumpy(), ops.erfinv(t(values)).asnumpy())
    np.testing.assert_allclose(ops.erf(x).asnumpy(), values, rtol=1e-5, atol=1e-6)


def test_integer_inplace():
    x = t(np.array([-7, 5, 9], np.int32))
    np.testing.assert_array_equal(x.copy().div_(2, rounding_mode="trunc").asnumpy(), [-3, 2, 4])
    np.testing.assert_array_equal(x.copy().div_(2, rounding_mode="floor").asnumpy(), [-4, 2, 4])
    np.testing.assert_array_equal(x.copy().add_(t(np.array(2, np.int64))).asnumpy(), [-5, 7, 11])
    assert x.copy().add_(1).dtype == ms.int32
    with pytest.raises(TypeError, match="Tensor.div_.*Float32.*Int32"):
        x.copy().div_(2)


def test_out_of_place_forms():
    a = t(A)
    np.testing.assert_allclose(a.index_put((t(IDX), t(np.array([3, 1]))), t(np.array([7.0], np.float32))).asnumpy(),
                               np_index_put(A, IDX, [3, 1], 7.0))
    np.testing.assert_allclose(a.masked_scatter(t(MASK), t(SRC)).asnumpy(), np_masked_scatter(A, MASK, SRC))
    np.testing.assert_allclose(a.scatter_add(1, t(SCATTER_INDEX), t(SRC)).asnumpy(),
                               np_scatter_add(A, 1, SCATTER_INDEX, SRC))
    np.testing.assert_allclose(a.scatter_add(t(np.array([[0, 1]])), t(np.array([5.0], np.float32))).asnumpy(),
                               A + np.where(np.arange(12).reshape(3, 4) == 1, 5.0, 0.0))  # (indices, updates)
    np.testing.assert_allclose(a.scatter_sub(t(np.array([[0, 1]])), t(np.array([5.0], np.float32))).asnumpy(),
                               A - np.where(np.arange(12).reshape(3, 4) == 1, 5.0, 0.0))
    np.testing.assert_allclose(a.index_copy(1, t(IDX), t(SRC[:, :2])).asnumpy(), np_index_copy(A, 1, IDX, SRC[:, :2]))
    np.testing.assert_array_equal(a.asnumpy(), A)  # untouched


def test_fill_diagonal_wrap_and_cube():
    tall = t(np.zeros((7, 3), np.float32)).fill_diagonal_(2.0, wrap=True).asnumpy()
    expected = np.zeros((7, 3), np.float32)
    np.fill_diagonal(expected, 2.0, wrap=True)
    np.testing.assert_array_equal(tall, expected)
    cube = t(np.zeros((3, 3, 3), np.float32)).fill_diagonal_(1.0).asnumpy()
    expected = np.zeros((3, 3, 3), np.float32)
    np.fill_diagonal(expected, 1.0)
    np.testing.assert_array_equal(cube, expected)


# --- gradients --------------------------------------------------------------------------------------------

def test_gradient_through_inplace_equals_out_of_place():
    x = t(A / 10)

    def inplace(x):
        y = x * 1.0
        y.exp_()
        y.mul_(x)
        return y.sum()

    def out_of_place(x):
        return (ops.exp(x * 1.0) * x).sum()
    np.testing.assert_allclose(ms.grad(inplace)(x).asnumpy(), ms.grad(out_of_place)(x).asnumpy(), rtol=1e-6)


@pytest.mark.parametrize("fn", [
    lambda x, s: x.copy().index_add_(1, t(IDX), s[:, :2], alpha=2),
    lambda x, s: x.copy().masked_scatter_(t(MASK), s),
    lambda x, s: x.copy().index_put_((t(IDX), t(np.array([3, 1]))), s[0, :2], accumulate=True),
    lambda x, s: x.copy().scatter_add_(1, t(SCATTER_INDEX[:, :2]), s[:, :2]),
    lambda x, s: x.copy().copy_(s).sigmoid_(),
], ids=["index_add_", "masked_scatter_", "index_put_", "scatter_add_", "copy_sigmoid_"])
def test_inplace_gradients_against_finite_differences(fn):
    check_grad(fn, A / 10, SRC / 100)


def test_inplace_on_grad_input_is_refused_clearly():
    with pytest.raises(RuntimeError, match="Tensor.add_"):
        ms.grad(lambda x: x.add_(1.0).sum())(t(A))


# --- random fills -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, args, check", [
    ("uniform_", (2.0, 5.0), lambda v: (v >= 2).all() and (v < 5).all()),
    ("normal_", (3.0, 0.5), lambda v: abs(v.mean() - 3) < 0.2 and abs(v.std() - 0.5) < 0.1),
    ("random_", (1, 4), lambda v: set(np.unique(v)) <= {1.0, 2.0, 3.0} and np.array_equal(v, np.round(v))),
    ("exponential_", (2.0,), lambda v: (v >= 0).all() and abs(v.mean() - 0.5) < 0.1),
    ("bernoulli_", (0.25,), lambda v: set(np.unique(v)) <= {0.0, 1.0} and abs(v.mean() - 0.25) < 0.1),
])
def test_random_fills_repeat_with_seed(name, args, check):
    def draw():
        x = t(np.zeros((20, 20), np.float32))
        view = x[0]
        assert getattr(x, name)(*args) is x
        np.testing.assert_array_equal(view.asnumpy(), x.asnumpy()[0])
        return x.asnumpy()
    ms.set_seed(7)
    first, second = draw(), draw()
    ms.set_seed(7)
    np.testing.assert_array_equal(draw(), first)
    assert not np.array_equal(first, second)
    assert check(first)


def test_random_integer_fills():
    ms.set_seed(3)
    v = t(np.zeros(1000, np.int8)).random_().asnumpy()
    assert v.min() >= 0 and v.max() <= 127 and len(np.unique(v)) > 100
    wide = t(np.zeros(1000, np.int64)).random_(-2**40, 2**40).asnumpy()
    assert wide.min() >= -2**40 and wide.max() < 2**40 and wide.min() < -2**39 and wide.max() > 2**39
    flips = t(np.zeros(100, np.int32)).bernoulli_(t(np.full(100, 0.5, np.float32)))
    assert flips.dtype == ms.int32 and set(np.unique(flips.asnumpy())) <= {0, 1}


def test_random_fill_errors():
    with pytest.raises(TypeError, match="Tensor.uniform_.*floating"):
        t(np.zeros(3, np.int32)).uniform_()
    with pytest.raises(TypeError, match="Tensor.normal_: 'generator'"):
        t(np.zeros(3, np.float32)).normal_(generator=object())
    with pytest.raises(ValueError, match="Tensor.random_: 'from_'"):
        t(np.zeros(3, np.float32)).random_(5, 2)
    with pytest.raises(ValueError, match="Tensor.bernoulli_: 'p'"):
        t(np.zeros(3, np.float32)).bernoulli_(1.5)
    with pytest.raises(ValueError, match="Tensor.exponential_: 'lambd'"):
        t(np.zeros(3, np.float32)).exponential_(0)


# --- graph mode ---------------------------------------------------------------------------------------------

class AccumulateInPlace(nn.Cell):
    def __init__(self):
        super().__init__()
        self.total = ms.Parameter(t(np.zeros((2, 3), np.float32)), name="total", requires_grad=False)

    def construct(self, x):
        self.total.add_(x, alpha=2)
        return self.total * 1.0


def test_inplace_method_on_parameter_in_jitted_cell_assigns():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = AccumulateInPlace()
        x = t(A[:2, :3])
        out = net(x)
        np.testing.assert_allclose(out.asnumpy(), 2 * A[:2, :3])
        net(x)
        np.testing.assert_allclose(net.total.asnumpy(), 4 * A[:2, :3])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_inplace_methods_staged_match_eager_with_gradient():
    def f(x, s):
        y = x * 1.0
        y.index_add_(1, t(IDX), s, alpha=2)
        y.masked_fill_(t(MASK), 0.5)
        y.tanh_()
        return (y * x).sum()
    x, s = t(A / 10), t(SRC[:, :2] / 100)
    np.testing.assert_allclose(ms.jit(f)(x, s).asnumpy(), f(x, s).asnumpy(), rtol=1e-6)
    eager = ms.grad(f, grad_position=(0, 1))(x, s)
    staged = ms.jit(ms.grad(f, grad_position=(0, 1)))(x, s)
    for e, g in zip(eager, staged):
        np.testing.assert_allclose(g.asnumpy(), e.asnumpy(), rtol=1e-5, atol=1e-7)


def test_misc_methods_staged():
    def f(x):
        return x.mT.clone().sum_to_size(1, 3) + x.ptp() + x.select(0, 1)[:3] + x.take(t(np.array([0, 5])), 1)[0, 0]
    x = t(A[:, :3].copy())
    np.testing.assert_allclose(ms.jit(f)(x).asnumpy(), f(x).asnumpy())


# --- misc methods -------------------------------------------------------------------------------------------

def test_copies_conversions_and_constructors():
    a = t(A)
    c = a.clone()
    assert c is not a and not c._shares_memory(a)
    np.testing.assert_array_equal(c.asnumpy(), A)
    assert a.to(ms.int32).dtype == ms.int32 and a.to(t(np.zeros(1, np.float16))).dtype == ms.float16
    assert a.to("cpu", ms.float64).dtype == ms.float64 and a.to(dtype=ms.float32) is a
    assert a.to(ms.float32, copy=True) is not a
    assert a.type() == "Float32" and a.type(ms.int64).dtype == ms.int64
    e = a.new_empty((2, 5))
    assert e.shape == (2, 5) and e.dtype == ms.float32 and a.new_empty(3, dtype=ms.int8).dtype == ms.int8
    f = a.new_full([2], 3, dtype=ms.int32)
    np.testing.assert_array_equal(f.asnumpy(), [3, 3])
    np.testing.assert_array_equal(a.fill(2.0).asnumpy(), np.full_like(A, 2.0))


def test_queries():
    a = t(A)
    assert a.is_signed() and t(np.zeros(2, np.int8)).is_signed() and not t(np.zeros(2, np.uint8)).is_signed()
    assert not a.is_complex()
    assert a.stride() == [4, 1] and a.stride(0) == 4 and a[:, 1].stride() == [4]
    assert a.data_ptr() == a.asnumpy().ctypes.data and a[1].data_ptr() == a.data_ptr() + 16
    p = ms.Parameter(t(A), name="p")
    assert p.requires_grad_(False) is p and not p.requires_grad
    assert a.requires_grad_() is a


def test_selections():
    a = t(A)
    np.testing.assert_array_equal(a.select(1, -1).asnumpy(), A[:, -1])
    np.testing.assert_array_equal(a.select(t(A > 0), 0.0).asnumpy(), np.where(A > 0, A, 0))  # (condition, y)
    np.testing.assert_array_equal(a.take(t(np.array([-1, 3, 20]))).asnumpy(), A.reshape(-1)[[11, 3, 11]])
    np.testing.assert_array_equal(a.take(t(np.array([0, 5])), axis=1, mode="wrap").asnumpy(), A[:, [0, 1]])
    choices = [np.arange(4) * k for k in (1, 10, 100)]
    idx = np.array([2, 0, 1, 2])
    np.testing.assert_array_equal(t(idx).choose(choices).asnumpy(), np.choose(idx, choices))
    np.testing.assert_array_equal(t(idx + 1).choose(choices, mode="wrap").asnumpy(), np.choose(idx + 1, choices,
                                                                                             mode="wrap"))
    values, indices = a.kthvalue(2, 0, keepdim=True)
    np.testing.assert_array_equal(values.asnumpy(), np.sort(A, 0)[1:2])
    assert indices.dtype == ms.int64 and indices.shape == (1, 4)
    np.testing.assert_array_equal(indices.asnumpy(), np.argsort(A, 0)[1:2])
    values, indices = a.top_k(2)
    np.testing.assert_array_equal(values.asnumpy(), -np.sort(-A, 1)[:, :2])


def test_reductions_reshapes_and_transposes():
    a = t(A)
    np.testing.assert_array_equal(a.ptp().asnumpy(), np.ptp(A))
    np.testing.assert_array_equal(a.ptp(axis=1, keepdims=True).asnumpy(), np.ptp(A, 1, keepdims=True))
    np.testing.assert_array_equal(a.sum_to_size(1, 4).asnumpy(), A.sum(0, keepdims=True))
    np.testing.assert_array_equal(a.sum_to_size((4,)).asnumpy(), A.sum(0))
    np.testing.assert_array_equal(a.resize(2, 2).asnumpy(), A.reshape(-1)[:4].reshape(2, 2))
    big = np.zeros(14, np.float32)
    big[:12] = A.reshape(-1)
    np.testing.assert_array_equal(a.resize((2, 7)).asnumpy(), big.reshape(2, 7))
    np.testing.assert_array_equal(a.itemset((1, 2), 9.0).asnumpy(), np_index_put(A, 1, 2, 9.0))
    np.testing.assert_array_equal(a.itemset(5, 9.0).asnumpy(), np_index_put(A, 1, 1, 9.0))
    np.testing.assert_array_equal(a.asnumpy(), A)
    assert a.allclose(t(A * (1 + 1e-7))) is True and a.allclose(t(A + 1)) is False
    np.testing.assert_array_equal(a.H.asnumpy(), A.T)
    b = t(np.arange(24.0).reshape(2, 3, 4))
    np.testing.assert_array_equal(b.mT.asnumpy(), np.swapaxes(np.arange(24.0).reshape(2, 3, 4), -1, -2))
    np.testing.assert_array_equal(b.mH.asnumpy(), b.mT.asnumpy())


# --- bad input --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("call, error, match", [
    (lambda a: a.add_("x"), TypeError, "Tensor.add_: 'other'"),
    (lambda a: a.add_(t(np.ones((2, 3, 4), np.float32))), ValueError, "Tensor.add_: the result has shape"),
    (lambda a: a.div_(2, rounding_mode="round"), ValueError, "Tensor.div_: 'rounding_mode'"),
    (lambda a: a.fill_(t(np.ones(2))), ValueError, "Tensor.fill_: a Tensor 'value'"),
    (lambda a: a.copy_([1, 2]), TypeError, "Tensor.copy_: 'src'"),
    (lambda a: a.clamp_(), ValueError, "Tensor.clamp_: 'min' and 'max'"),
    (lambda a: a.masked_fill_(t(MASK.astype(np.int32)), 1.0), TypeError, "Tensor.masked_fill_: 'mask'"),
    (lambda a: a.index_add_(2, t(IDX), t(SRC)), ValueError, "Tensor.index_add_: 'dim'"),
    (lambda a: a.index_fill_(0, t(IDX.astype(np.float32)), 1.0), TypeError, "Tensor.index_fill_: 'index'"),
    (lambda a: a.index_copy_(1, t(IDX), t(SRC)), ValueError, "Tensor.index_copy_: 'tensor'"),
    (lambda a: a.scatter_(1, t(SCATTER_INDEX), t(SRC), reduce="max"), ValueError, "Tensor.scatter_: 'reduce'"),
    (lambda a: a.scatter_add_(1, t(SCATTER_INDEX), t(SRC[:, :1])), ValueError, "Tensor.scatter_add_: 'src'"),
    (lambda a: a.put_(t(IDX), t(SRC)), ValueError, "Tensor.put_: 'index' and 'source'"),
    (lambda a: a.index_put_(t(IDX), t(SRC)), TypeError, "Tensor.index_put_: 'indices'"),
    (lambda a: a.masked_scatter_(t(np.ones((1, 3, 4), bool)), t(SRC)), TypeError, "Tensor.masked_scatter_: 'mask'"),
    (lambda a: a.masked_scatter_(t(np.ones((5, 5), bool)), t(SRC)), ValueError, "Tensor.masked_scatter_: 'mask'"),
    (lambda a: a.index_add_(1, t(IDX), t(SRC)), ValueError, "Tensor.index_add_: 'source'"),
    (lambda a: a.fill_diagonal_(1.0, wrap=1), TypeError, "Tensor.fill_diagonal_: 'wrap'"),
    (lambda a: t(np.zeros((2, 3, 3))).fill_diagonal_(1.0), ValueError, "Tensor.fill_diagonal_"),
    (lambda a: a.to("cuda"), ValueError, "Tensor.to: 'device'"),
    (lambda a: a.new_full(2, 1), TypeError, "Tensor.new_full: 'size'"),
    (lambda a: a.new_empty((2, -1)), ValueError, "Tensor.new_empty: 'size'"),
    (lambda a: a.stride(5), ValueError, "Tensor.stride: 'dim'"),
    (lambda a: a.select(0, 7), IndexError, "Tensor.select: 'index'"),
    (lambda a: a.take(t(np.array([1.0]))), TypeError, "Tensor.take: 'indices'"),
    (lambda a: a.take(t(np.array([1])), mode="nearest"), ValueError, "Tensor.take: 'mode'"),
    (lambda a: a.take(t(np.array([99])), mode="raise"), IndexError, "Tensor.take"),
    (lambda a: a.kthvalue(9), ValueError, "Tensor.kthvalue: 'k'"),
    (lambda a: a.kthvalue(1.5), TypeError, "Tensor.kthvalue: 'k'"),
    (lambda a: a.sum_to_size(2, 4), ValueError, "Tensor.sum_to_size: 'size'"),
    (lambda a: a.itemset((1,), 2.0), ValueError, "Tensor.itemset"),
    (lambda a: a.allclose(t(A.astype(np.float64))), TypeError, "Tensor.allclose: 'other'"),
    (lambda a: t(np.ones(3)).H, ValueError, "Tensor.H"),
    (lambda a: a.requires_grad_(1), TypeError, "Tensor.requires_grad_: 'requires_grad'"),
    (lambda a: t(np.ones(3, np.float32)).choose("ab"), TypeError, "Tensor.choose"),
])
def test_bad_input_names_method_and_argument(call, error, match):
    with pytest.raises(error, match=match):
        call(t(A.copy()))


_ON_A_PARAMETER = {
    "add_": lambda w, x: w.add_(x), "sub_": lambda w, x: w.sub_(x, alpha=2), "mul_": lambda w, x: w.mul_(x),
    "div_": lambda w, x: w.div_(x + 3.0), "clamp_": lambda w, x: w.clamp_(-0.5, 0.5),
    "fill_": lambda w, x: w.fill_(2.0), "zero_": lambda w, x: w.zero_(), "copy_": lambda w, x: w.copy_(x),
    "exp_": lambda w, x: w.exp_(), "masked_fill_": lambda w, x: w.masked_fill_(x > 0, 7.0),
    "index_add_": lambda w, x: w.index_add_(0, ms.Tensor(np.array([0, 2], np.int32)), x[:2]),
    "scatter_": lambda w, x: w.scatter_(1, ms.Tensor(np.array([[0], [1], [2]], np.int64)), x[:, :1]),
    "fill_diagonal_": lambda w, x: w.fill_diagonal_(5.0),
}


class _WritesItsParameter(ms.nn.Cell):
    def __init__(self, write):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) / 10 - 0.5), name="w")
        self.write = write

    def construct(self, x):
        self.write(self.w, x)
        return self.w * 1.0


@pytest.mark.parametrize("name", sorted(_ON_A_PARAMETER))
def test_inplace_methods_on_a_parameter_compiled_equal_eager(name):
    """Compiled, an in-place method writes the Parameter as eagerly (fill_ and zero_, whose value is known
    while compiling, had failed)."""
    x = ms.Tensor(np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32))
    eager = _WritesItsParameter(_ON_A_PARAMETER[name])
    eager_out = eager(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        compiled = _WritesItsParameter(_ON_A_PARAMETER[name])
        np.testing.assert_allclose(compiled(x).asnumpy(), eager_out, atol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(compiled.w.asnumpy(), eager.w.asnumpy(), atol=1e-6)


def _to_float64(x):
    return x.to(ms.float64), x.to()


def _set_dtype(x):
    x.set_dtype(ms.float16)
    return x


def test_to_compiles_as_eager_and_memory_methods_say_what_to_write():
    x = ms.Tensor(np.ones((2, 3), np.float32))
    eager = _to_float64(x)
    compiled = ms.jit(_to_float64)(x)
    assert [t.dtype for t in compiled] == [t.dtype for t in eager] == [ms.float64, ms.float32]
    with pytest.raises(RuntimeError, match="Tensor.set_dtype: needs the tensor's memory.*x = x.astype"):
        ms.jit(_set_dtype)(x)
