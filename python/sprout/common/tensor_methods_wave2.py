"""MindSpore 2.x Tensor methods that are existing ops under the method's own name or signature (searchsorted
with side and sorter, qr(some), soft_shrink, unique with dim and counts, triangular_solve ...), the
out-of-place random draws shaped like the tensor (bernoulli, uniform, log_normal, cauchy), fill_diagonal and
DLPack export/import. Attached by tensor_inplace.attach(), never replacing a method Tensor already has.
"""
import math
import numbers

import numpy as np

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.common.tensor_inplace import _check_bool, _check_dim, _check_int, _check_tensor, _is_graph_tensor


def _ops():
    from sprout import ops
    return ops


def _prim(name, **attrs):
    from sprout.ops.function._prims import prim
    return prim(name, **attrs)


# --- existing ops under the method's name ----------------------------------------------------------------

def bincount(self, weights=None, minlength=0):
    """The number of occurrences of each value 0 ... max(self) (summed `weights` if given); at least
    `minlength` bins."""
    return _ops().bincount(self, weights, minlength)


def histc(self, bins=100, min=0, max=0):  # noqa: A002 (MindSpore's argument names)
    """A histogram of the tensor's values in `bins` equal bins over [min, max] (the data's range if both 0)."""
    return _ops().histc(self, bins, min, max)


def hardshrink(self, lambd=0.5):
    """x where |x| > lambd, else 0."""
    return _ops().hardshrink(self, lambd)


def soft_shrink(self, lambd=0.5):
    """x - lambd above lambd, x + lambd below -lambd, else 0."""
    return _ops().softshrink(self, lambd)


def gather_nd(self, indices):
    """The slices of the tensor at the N-d `indices` (..., k)."""
    _check_tensor("Tensor.gather_nd", "indices", indices)
    return _ops().gather_nd(self, indices)


def multinomial(self, num_samples, replacement=True, seed=None):
    """`num_samples` category indices drawn from each row of weights (see ops.multinomial)."""
    return _ops().multinomial(self, num_samples, replacement, seed)


def random_categorical(self, num_sample, seed=0, dtype=mstype.int64):
    """`num_sample` class indices per row of 2-d logits (see ops.random_categorical)."""
    _check_int("Tensor.random_categorical", "num_sample", num_sample)
    _check_int("Tensor.random_categorical", "seed", seed)
    return _ops().random_categorical(self, num_sample, seed, dtype)


def unfold(self, kernel_size, dilation=1, padding=0, stride=1):
    """The sliding blocks of a (N, C, H, W) tensor as columns (see ops.unfold)."""
    return _ops().unfold(self, kernel_size, dilation, padding, stride)


def fold(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding-block columns summed back into a (N, C, H, W) tensor (see ops.fold)."""
    return _ops().fold(self, output_size, kernel_size, dilation, padding, stride)


def qr(self, some=True):
    """(Q, R) of each matrix: reduced (Q (..., M, K), K = min(M, N)) with `some`, else complete."""
    _check_bool("Tensor.qr", "some", some)
    return _ops().qr(self, "reduced" if some else "complete")


def reverse_sequence(self, seq_lengths, seq_dim=0, batch_dim=0):
    """See ops.reverse_sequence (the defaults of seq_dim and batch_dim are MindSpore's: give one of them)."""
    return _ops().reverse_sequence(self, seq_lengths, seq_dim, batch_dim)


def triangular_solve(self, A, upper=True, transpose=False, unitriangular=False):
    """(X, A) with op(A) X = self for triangular A (see math_linalg_solvers_func.triangular_solve)."""
    from sprout.ops.function.math_linalg_solvers_func import triangular_solve as solve
    return solve(self, A, upper, transpose, unitriangular)


def searchsorted(self, v, side="left", sorter=None):
    """Int32 insertion points of `v` in the tensor, sorted ascending along its last axis or put in that order
    by the indices `sorter`: the first such index ('left') or the last ('right')."""
    api = "Tensor.searchsorted"
    if side not in ("left", "right"):
        raise ValueError(f"{api}: 'side' must be 'left' or 'right', but got {side!r}")
    if not isinstance(v, Tensor):
        v = Tensor(v)
    seq = self
    if sorter is not None:
        if isinstance(sorter, bool) or not isinstance(sorter, (int, list, tuple, Tensor)):
            raise TypeError(f"{api}: 'sorter' must be an int, a list, a tuple or a Tensor, but got "
                            f"{type(sorter).__name__}")
        if not isinstance(sorter, Tensor):
            sorter = Tensor(sorter, mstype.int64)
        if sorter.size != self.size:
            raise ValueError(f"{api}: 'sorter' must have as many elements as the tensor ({self.size}), but got "
                             f"{sorter.size}")
        if sorter.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"{api}: 'sorter' must hold integers, but got {sorter.dtype}")
        seq = _ops().gather_elements(self, self.ndim - 1, sorter.reshape(self.shape))
    return _ops().searchsorted(seq, v, out_int32=True, side=side)


def dot(self, other):
    """The dot product of two 1-d tensors of one shape and dtype, as a 0-d tensor."""
    api = "Tensor.dot"
    _check_tensor(api, "other", other)
    if self.ndim != 1 or other.ndim != 1:
        raise ValueError(f"{api}: both tensors must be 1-d, but got shapes {self.shape} and {other.shape}")
    if self.shape != other.shape:
        raise ValueError(f"{api}: the tensors must have the same length, but got {self.shape} and {other.shape}")
    if self.dtype != other.dtype:
        raise TypeError(f"{api}: the tensors must have the same dtype, but got {self.dtype} and {other.dtype}")
    return _prim("ReduceSum", keep_dims=False)(_prim("Mul")(self, other), ())


# --- unique --------------------------------------------------------------------------------------------

def _dense_rank(x):
    """For a 1-d tensor: (its distinct values ascending, each element's position among them as int64)."""
    values, inverse = _ops().unique(x)
    return values, _ops().cast(inverse, mstype.int64)


def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """The distinct elements of the tensor (flattened), or with `dim` its distinct slices along dim, in
    ascending (lexicographic) order; with return_inverse each element's (slice's) position among them, with
    return_counts how often each occurs (both int64). `sorted=False` gives the same ascending order, one of
    the orders it allows."""
    api = "Tensor.unique"
    for arg, value in (("sorted", sorted), ("return_inverse", return_inverse), ("return_counts", return_counts)):
        _check_bool(api, arg, value)
    ops = _ops()
    if dim is None:
        out, inverse = _dense_rank(self.reshape(-1))
        inverse = inverse.reshape(self.shape)
        n = self.size
    else:
        dim = _check_dim(api, dim, self.ndim)
        n = self.shape[dim]
        rows = ops.moveaxis(self, dim, 0).reshape(n, -1)
        # Lexicographic rank of each slice, one column at a time: the pair (rank so far, column's rank) as
        # one int64 (< n^2), re-ranked densely, keeps the order of the columns seen so far.
        key = ops.zeros((n,), mstype.int64)
        for j in range(rows.shape[1]):
            _, column = _dense_rank(rows[:, j])
            _, key = _dense_rank(key * n + column)
        keys, inverse = _dense_rank(key)
        count = keys.shape[0]
        first = ops.unsorted_segment_min(ops.arange(n, dtype=mstype.int64), inverse, count)
        out = ops.gather(self, first, dim)
    outputs = [out]
    if return_inverse:
        outputs.append(inverse)
    if return_counts:
        ones = ops.ones((n,), mstype.int64)
        outputs.append(ops.unsorted_segment_sum(ones, inverse.reshape(-1), out.shape[0 if dim is None else dim]))
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


# --- random draws shaped like the tensor ---------------------------------------------------------------

def _uniform01(api, shape):
    from sprout.common.tensor_random_fills import _uniform01 as draw
    return draw(api, shape)


def _check_float_self(api, self):
    if self.dtype not in mstype.float_type:
        raise TypeError(f"{api}: the tensor must be of a floating-point dtype, but got {self.dtype}")


def _check_generator(api, generator):
    from sprout.common.tensor_random_fills import _check_generator as check
    check(api, generator)


def _real(api, arg, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{api}: '{arg}' must be a number, but got {type(value).__name__}")
    return float(value)


def bernoulli(self, *, generator=None):
    """1 with the probability each element holds, else 0; a new tensor of the tensor's shape and dtype."""
    api = "Tensor.bernoulli"
    _check_generator(api, generator)
    _check_float_self(api, self)
    from sprout.ops.function import random_func
    draws = random_func.bernoulli(_ops().zeros(self.shape, mstype.float32), _ops().cast(self, mstype.float32))
    return _ops().cast(draws, self.dtype)


def uniform(self, from_=0.0, to=1.0, generator=None):
    """A new tensor of the tensor's shape and dtype, uniform in [from_, to)."""
    api = "Tensor.uniform"
    _check_generator(api, generator)
    _check_float_self(api, self)
    low, high = _real(api, "from_", from_), _real(api, "to", to)
    if low > high:
        raise ValueError(f"{api}: 'from_' must not exceed 'to', but got from_={low} and to={high}")
    u = _uniform01(api, self.shape)
    return _ops().cast(u * (high - low) + low, self.dtype)


def log_normal(self, mean=1.0, std=2.0):
    """A new tensor of the tensor's shape and dtype, exp of samples of N(mean, std^2)."""
    api = "Tensor.log_normal"
    _check_float_self(api, self)
    mean, std = _real(api, "mean", mean), _real(api, "std", std)
    if std <= 0:
        raise ValueError(f"{api}: 'std' must be positive, but got {std}")
    from sprout.ops.function import random_func
    return _ops().cast(_ops().exp(random_func.normal(self.shape, mean, std)), self.dtype)


def cauchy(self, median=0.0, sigma=1.0):
    """A new tensor of the tensor's shape and dtype (integers truncate, as MindSpore's), samples of the
    Cauchy distribution: median + sigma tan(pi (u - 1/2))."""
    api = "Tensor.cauchy"
    median, sigma = _real(api, "median", median), _real(api, "sigma", sigma)
    if sigma <= 0:
        raise ValueError(f"{api}: 'sigma' must be positive, but got {sigma}")
    u = _uniform01(api, self.shape)
    draws = _ops().tan((u - 0.5) * math.pi) * sigma + median
    return _ops().cast(draws, self.dtype)


# --- fill_diagonal and DLPack --------------------------------------------------------------------------

def fill_diagonal(self, fill_value, wrap=False):
    """A copy with fill_value on the main diagonal (self[i, i, ..., i]); a tall matrix's diagonal restarts
    every N + 1 rows with `wrap`, as NumPy's fill_diagonal. More than 2-d needs all sizes equal."""
    api = "Tensor.fill_diagonal"
    _check_bool(api, "wrap", wrap)
    if isinstance(fill_value, bool) or not isinstance(fill_value, numbers.Real):
        raise TypeError(f"{api}: 'fill_value' must be a number, but got {type(fill_value).__name__}")
    if self.ndim < 2:
        raise ValueError(f"{api}: the tensor must have at least 2 dimensions, but got shape {self.shape}")
    if self.ndim > 2 and len(set(self.shape)) != 1:
        raise ValueError(f"{api}: a tensor of more than 2 dimensions must have all sizes equal, but got shape "
                         f"{self.shape}")
    mask = np.zeros(self.shape, bool)  # a constant of the shape: where the diagonal lies
    np.fill_diagonal(mask, True, wrap=bool(wrap))
    return _prim("Select")(Tensor(mask), Tensor(fill_value, self.dtype), self)


def to_dlpack(self):
    """A DLPack capsule sharing the tensor's memory (for torch.utils.dlpack.from_dlpack and the like)."""
    if _is_graph_tensor(self):
        raise TypeError("Tensor.to_dlpack: a tensor of a graph being compiled has no memory to share")
    return self.__dlpack__()


def from_dlpack(dlpack):
    """A Tensor sharing memory with a DLPack capsule or with an object that exports one (__dlpack__)."""
    if not (hasattr(dlpack, "__dlpack__") or type(dlpack).__name__ == "PyCapsule"):
        raise TypeError(f"Tensor.from_dlpack: 'dlpack' must be a DLPack capsule or support __dlpack__, but got "
                        f"{type(dlpack).__name__}")
    return _C.from_dlpack(dlpack)


_METHODS = (bincount, histc, hardshrink, soft_shrink, gather_nd, multinomial, random_categorical, unfold, fold,
            qr, reverse_sequence, triangular_solve, searchsorted, dot, unique, bernoulli, uniform, log_normal,
            cauchy, fill_diagonal, to_dlpack)


def attach():
    """Adds the methods above to Tensor, never replacing one it already has."""
    for fn in _METHODS:
        if not hasattr(Tensor, fn.__name__):
            setattr(Tensor, fn.__name__, fn)
    if not hasattr(Tensor, "from_dlpack"):
        Tensor.from_dlpack = staticmethod(from_dlpack)
    from sprout.common import tensor_methods_wave3, tensor_methods_wave4
    tensor_methods_wave3.attach()
    tensor_methods_wave4.attach()


__all__ = ["attach"]
