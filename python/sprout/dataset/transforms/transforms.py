"""General transforms (``mindspore.dataset.transforms``), on NumPy arrays.

Every transform is callable eagerly on arrays (``TypeCast(ms.float32)(np.ones(3))``) and usable in
``Dataset.map``. Random ones draw from the row's generator (transforms/_random.py), so a pipeline
gives the same result whatever the number of workers.
"""
import enum
import numbers

import numpy as np

from sprout import _C
from sprout.dataset.transforms._random import rng

_E = _C.dataset


class TensorOperation:
    """Base of Sprout's transforms. Subclasses implemented in C++ carry ``_op`` (an engine TensorOp)
    and run without the GIL inside a pipeline; the others define ``_apply`` in Python."""

    _op = None

    def __call__(self, *columns):
        if self._op is not None:
            seed = int(rng().integers(0, 2**63))
            out = _E.apply_op(self._op, list(columns), seed)
        else:
            out = self._apply(*[np.asarray(c) if not isinstance(c, np.ndarray) else c for c in columns])
        if isinstance(out, tuple) and len(out) == 1:
            return out[0]
        return out

    def _apply(self, *columns):
        raise NotImplementedError(f"{type(self).__name__} must define _apply or _op")

    def __repr__(self):
        return f"{type(self).__name__}()"


def _one(api, columns):
    if len(columns) != 1:
        raise ValueError(f"{api}: takes one column, but got {len(columns)}")
    return columns[0]


def _np_dtype(api, data_type):
    if isinstance(data_type, _C.DType):
        name = str(data_type).lower()
        if name == "bfloat16":
            raise TypeError(f"{api}: NumPy has no bfloat16; cast to float32 or float16")
        return np.dtype(name)
    try:
        return np.dtype(data_type)
    except TypeError:
        raise TypeError(f"{api}: 'data_type' must be a sprout or NumPy dtype, but got {data_type!r}") from None


def _check_transforms(api, transforms):
    if not isinstance(transforms, (list, tuple)) or not transforms:
        raise TypeError(f"{api}: 'transforms' must be a non-empty list of callables, but got {transforms!r}")
    for i, t in enumerate(transforms):
        if not callable(t):
            raise TypeError(f"{api}: transforms[{i}] must be callable, but got {type(t).__name__}")
    return list(transforms)


def _run(transform, columns):
    out = transform(*columns)
    return out if isinstance(out, tuple) else (out,)


class Compose(TensorOperation):
    """Runs ``transforms`` in turn; inside ``map`` its C++ transforms join the engine's chain."""

    def __init__(self, transforms):
        self.transforms = _check_transforms("Compose", transforms)

    def _apply(self, *columns):
        for t in self.transforms:
            columns = _run(t, columns)
        return columns

    def __call__(self, *columns):
        out = self._apply(*columns)
        return out[0] if len(out) == 1 else out


class TypeCast(TensorOperation):
    def __init__(self, data_type):
        self.dtype = _np_dtype("TypeCast", data_type)

    def _apply(self, *columns):
        return _one("TypeCast", columns).astype(self.dtype)


class OneHot(TensorOperation):
    """Class indices -> one-hot rows of ``num_classes``; ``smoothing_rate`` spreads that much mass. Labels of
    shape (..., 1) give (..., num_classes), as MindSpore's."""

    def __init__(self, num_classes, smoothing_rate=0.0):
        if isinstance(num_classes, bool) or not isinstance(num_classes, numbers.Integral) or num_classes < 1:
            raise ValueError(f"OneHot: 'num_classes' must be a positive int, but got {num_classes!r}")
        if not 0.0 <= smoothing_rate <= 1.0:
            raise ValueError(f"OneHot: 'smoothing_rate' must be in [0, 1], but got {smoothing_rate!r}")
        self.num_classes, self.smoothing_rate = int(num_classes), float(smoothing_rate)

    def _apply(self, *columns):
        label = _one("OneHot", columns)
        if label.dtype.kind not in "iu":
            raise TypeError(f"OneHot: expected integer class indices, but got dtype {label.dtype}")
        if label.size and (label.min() < 0 or label.max() >= self.num_classes):
            raise ValueError(f"OneHot: class index {int(label.max() if label.max() >= self.num_classes else label.min())} "
                             f"is outside [0, {self.num_classes})")
        if label.ndim and label.shape[-1] == 1:  # a trailing axis of one index per row: MindSpore drops it
            label = label[..., 0]
        out = np.eye(self.num_classes, dtype=label.dtype if self.smoothing_rate == 0 else np.float32)[label]
        if self.smoothing_rate:
            out = out * (1 - self.smoothing_rate) + self.smoothing_rate / self.num_classes
        return out


class Fill(TensorOperation):
    def __init__(self, fill_value):
        if not isinstance(fill_value, (numbers.Number, str, bytes, np.generic)):
            raise TypeError(f"Fill: 'fill_value' must be a number or a str, but got {type(fill_value).__name__}")
        self.fill_value = fill_value

    def _apply(self, *columns):
        x = _one("Fill", columns)
        return np.full_like(x, self.fill_value)


class Duplicate(TensorOperation):
    def _apply(self, *columns):
        x = _one("Duplicate", columns)
        return x, x.copy()


class Concatenate(TensorOperation):
    """Joins 1-D columns (and ``prepend``/``append``) along ``axis``."""

    def __init__(self, axis=0, prepend=None, append=None):
        if axis not in (0, -1):
            raise ValueError(f"Concatenate: only 1-D data is supported, so 'axis' must be 0 or -1, but got {axis!r}")
        self.prepend = None if prepend is None else np.asarray(prepend)
        self.append = None if append is None else np.asarray(append)

    def _apply(self, *columns):
        parts = [p for p in (self.prepend, *columns, self.append) if p is not None]
        for p in parts:
            if p.ndim != 1:
                raise ValueError(f"Concatenate: expected 1-D arrays, but got shape {p.shape}")
        return np.concatenate(parts)


class Relational(enum.Enum):
    EQ = "=="
    NE = "!="
    GT = ">"
    GE = ">="
    LT = "<"
    LE = "<="


_COMPARE = {Relational.EQ: np.equal, Relational.NE: np.not_equal, Relational.GT: np.greater,
            Relational.GE: np.greater_equal, Relational.LT: np.less, Relational.LE: np.less_equal}


class Mask(TensorOperation):
    """Elementwise ``x <operator> constant``, as ``dtype`` (bool by default)."""

    def __init__(self, operator, constant, dtype=None):
        if not isinstance(operator, Relational):
            raise TypeError(f"Mask: 'operator' must be a Relational, but got {operator!r}")
        self.operator, self.constant = operator, constant
        self.dtype = np.dtype(bool) if dtype is None else _np_dtype("Mask", dtype)

    def _apply(self, *columns):
        return _COMPARE[self.operator](_one("Mask", columns), self.constant).astype(self.dtype)


class Slice(TensorOperation):
    """NumPy-style indexing with one index per dimension: an int, a list of ints, a slice, None or ...."""

    def __init__(self, *slices):
        for s in slices:
            ok = s is None or s is Ellipsis or isinstance(s, (numbers.Integral, slice)) or (
                isinstance(s, list) and all(isinstance(i, numbers.Integral) for i in s))
            if not ok:
                raise TypeError(f"Slice: each index must be an int, a list of ints, a slice, None or ..., but got {s!r}")
        self.slices = tuple(slice(None) if s is None else s for s in slices)

    def _apply(self, *columns):
        x = _one("Slice", columns)
        if len([s for s in self.slices if s is not Ellipsis]) > x.ndim:
            raise ValueError(f"Slice: {len(self.slices)} indices for an array of {x.ndim} dimensions")
        out = x[self.slices]
        return np.ascontiguousarray(out)


class PadEnd(TensorOperation):
    """Pads (or cuts) each dimension at its end to ``pad_shape`` with ``pad_value``."""

    def __init__(self, pad_shape, pad_value=None):
        self.pad_shape, self.pad_value = list(pad_shape), pad_value

    def _apply(self, *columns):
        x = _one("PadEnd", columns)
        if len(self.pad_shape) != x.ndim:
            raise ValueError(f"PadEnd: pad_shape {self.pad_shape} has {len(self.pad_shape)} dimensions, "
                             f"the array {x.ndim} (shape {x.shape})")
        out = np.full(self.pad_shape, 0 if self.pad_value is None else self.pad_value, dtype=x.dtype)
        region = tuple(slice(0, min(a, b)) for a, b in zip(x.shape, self.pad_shape))
        out[region] = x[region]
        return out


class RandomApply(TensorOperation):
    def __init__(self, transforms, prob=0.5):
        self.transforms = _check_transforms("RandomApply", transforms)
        if not 0.0 <= prob <= 1.0:
            raise ValueError(f"RandomApply: 'prob' must be in [0, 1], but got {prob!r}")
        self.prob = prob

    def __call__(self, *columns):
        if rng().random() < self.prob:
            for t in self.transforms:
                columns = _run(t, columns)
        return columns[0] if len(columns) == 1 else columns


class RandomChoice(TensorOperation):
    def __init__(self, transforms):
        self.transforms = _check_transforms("RandomChoice", transforms)

    def __call__(self, *columns):
        return self.transforms[int(rng().integers(len(self.transforms)))](*columns)


class RandomOrder(TensorOperation):
    def __init__(self, transforms):
        self.transforms = _check_transforms("RandomOrder", transforms)

    def __call__(self, *columns):
        for i in rng().permutation(len(self.transforms)):
            columns = _run(self.transforms[i], columns)
        return columns[0] if len(columns) == 1 else columns
