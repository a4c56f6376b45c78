"""Cells that rearrange or build arrays, under their ``mindspore.nn`` names: Unfold (image patches, MindSpore's
ExtractImagePatches), Pad (CONSTANT / REFLECT / SYMMETRIC), Roll, ChannelShuffle, Tril, Triu, OneHot, Range.
Several are deprecated in MindSpore 2.x in favour of an ops function; they stay for the code that uses them."""
import numpy as np

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell
from sprout.ops.function.nn_loss_more_func import _check_int


def _check_tensor(api, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    return x


def _patch_arg(name, value):
    """[1, row, col, 1] (MindSpore's NHWC-style spelling) -> (row, col)."""
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"Unfold: '{name}' must be a tuple or list, but got {type(value).__name__}")
    if len(value) != 4 or value[0] != 1 or value[3] != 1:
        raise ValueError(f"Unfold: '{name}' must be [1, row, col, 1], but got {value}")
    row, col = value[1], value[2]
    if any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in (row, col)):
        raise ValueError(f"Unfold: the row and col of '{name}' must be positive ints, but got {row} and {col}")
    return row, col


class Unfold(Cell):
    """Image patches: (N, C, H, W) -> (N, kh * kw * C, out_h, out_w), each output position one window, its
    depth ordered (window row, window column, channel) with the channel fastest, as TensorFlow's and
    MindSpore's ExtractImagePatches. padding 'valid' keeps whole windows; 'same' gives ceil(H / stride_row)
    rows (likewise columns), zero padding split as TensorFlow does (the extra one after)."""

    def __init__(self, ksizes, strides, rates, padding="valid"):
        super().__init__()
        self.ksizes = _patch_arg("ksizes", ksizes)
        self.strides = _patch_arg("strides", strides)
        self.rates = _patch_arg("rates", rates)
        if not isinstance(padding, str) or padding.lower() not in ("same", "valid"):
            raise ValueError(f"Unfold: 'padding' must be 'same' or 'valid', but got {padding!r}")
        self.padding = padding.lower()

    def construct(self, input_x):
        _check_tensor("Unfold", "input_x", input_x)
        if input_x.ndim != 4:
            raise ValueError(f"Unfold: 'input_x' must be 4-d (N, C, H, W), but got shape {tuple(input_x.shape)}")
        n, c, h, w = input_x.shape
        (kh, kw), (sh, sw), (rh, rw) = self.ksizes, self.strides, self.rates
        eff_h, eff_w = (kh - 1) * rh + 1, (kw - 1) * rw + 1
        x = input_x
        if self.padding == "same":
            out_h, out_w = -(-h // sh), -(-w // sw)
            pad_h = max((out_h - 1) * sh + eff_h - h, 0)
            pad_w = max((out_w - 1) * sw + eff_w - w, 0)
            if pad_h or pad_w:
                x = ops.pad(x, (pad_w // 2, pad_w - pad_w // 2, pad_h // 2, pad_h - pad_h // 2))
        else:
            out_h, out_w = (h - eff_h) // sh + 1, (w - eff_w) // sw + 1
            if out_h < 1 or out_w < 1:
                raise ValueError(f"Unfold: a {kh}x{kw} window with rates {rh}x{rw} does not fit a {h}x{w} image")
        cols = ops.unfold(x, (kh, kw), (rh, rw), 0, (sh, sw))  # (N, C * kh * kw, L), channel-major
        cols = ops.transpose(ops.reshape(cols, (n, c, kh * kw, out_h, out_w)), (0, 2, 1, 3, 4))
        return ops.reshape(cols, (n, kh * kw * c, out_h, out_w))


def _mirror(x, axis, before, after, symmetric):
    """x padded along `axis` by its mirror image: with the edge element repeated (SYMMETRIC) or not (REFLECT)."""
    size = x.shape[axis]
    limit = size if symmetric else size - 1
    if before > limit or after > limit:
        raise ValueError(f"Pad: a {'SYMMETRIC' if symmetric else 'REFLECT'} padding of ({before}, {after}) along "
                         f"axis {axis} needs it at most {limit}, but the axis has size {size}")
    skip = 0 if symmetric else 1

    def part(start, length):
        begin = [0] * x.ndim
        shape = list(x.shape)
        begin[axis], shape[axis] = start, length
        return ops.flip(ops.slice(x, tuple(begin), tuple(shape)), (axis,))

    pieces = []
    if before:
        pieces.append(part(skip, before))
    pieces.append(x)
    if after:
        pieces.append(part(size - skip - after, after))
    return ops.concat(pieces, axis) if len(pieces) > 1 else x


class Pad(Cell):
    """Pads each axis i by paddings[i] = (before, after): zeros (CONSTANT), a mirror image without the edge
    (REFLECT, NumPy's 'reflect') or with it (SYMMETRIC, NumPy's 'symmetric'). Up to 4 axes."""

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
            raise ValueError(f"Pad: 'mode' must be one of 'CONSTANT', 'REFLECT', 'SYMMETRIC', but got {mode!r}")
        if not isinstance(paddings, tuple):
            raise TypeError(f"Pad: 'paddings' must be a tuple of (before, after) pairs, but got "
                            f"{type(paddings).__name__}")
        for item in paddings:
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise ValueError(f"Pad: 'paddings' must have shape (n, 2), but got {paddings}")
            for v in item:
                if _check_int("Pad", "paddings", v) < 0:
                    raise ValueError(f"Pad: 'paddings' must be non-negative, but got {paddings}")
        if len(paddings) > 4:
            raise ValueError(f"Pad: 'paddings' covers up to 4 axes, but got {len(paddings)}")
        self.paddings, self.mode = tuple(tuple(p) for p in paddings), mode

    def construct(self, x):
        _check_tensor("Pad", "x", x)
        if len(self.paddings) != x.ndim:
            raise ValueError(f"Pad: 'paddings' has {len(self.paddings)} pairs, but 'x' has {x.ndim} axes")
        if self.mode == "CONSTANT":
            flat = []
            for before, after in reversed(self.paddings):  # ops.pad lists the last axis first
                flat += [before, after]
            return ops.pad(x, tuple(flat))
        for axis, (before, after) in enumerate(self.paddings):
            if before or after:
                x = _mirror(x, axis, before, after, self.mode == "SYMMETRIC")
        return x


class Roll(Cell):
    """Elements shifted by `shift` along `axis` (ints, or equal-length tuples/lists), wrapping around."""

    def __init__(self, shift, axis):
        super().__init__()
        for name, value in (("shift", shift), ("axis", axis)):
            if isinstance(value, bool) or not isinstance(value, (int, tuple, list)):
                raise TypeError(f"Roll: '{name}' must be an int, tuple or list, but got {type(value).__name__}")
        shift = tuple(shift) if isinstance(shift, (tuple, list)) else (shift,)
        axis = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
        if len(shift) != len(axis):
            raise ValueError(f"Roll: 'shift' and 'axis' must have the same length, but got {len(shift)} and "
                             f"{len(axis)}")
        self.shift = tuple(_check_int("Roll", "shift", s) for s in shift)
        self.axis = tuple(_check_int("Roll", "axis", a) for a in axis)

    def construct(self, input_x):
        _check_tensor("Roll", "input_x", input_x)
        for a in self.axis:
            if not -input_x.ndim <= a < input_x.ndim:
                raise ValueError(f"Roll: 'axis' {a} is out of range for a {input_x.ndim}-d input")
        return ops.roll(input_x, self.shift, self.axis)


class ChannelShuffle(Cell):
    """(N, C, *) with its channels viewed as (groups, C / groups) and that pair transposed (ShuffleNet)."""

    def __init__(self, groups):
        super().__init__()
        if isinstance(groups, bool) or not isinstance(groups, int):
            raise TypeError(f"ChannelShuffle: 'groups' must be an int, but got {type(groups).__name__}")
        if groups < 1:
            raise ValueError(f"ChannelShuffle: 'groups' must be a positive int, but got {groups}")
        self.groups = groups

    def construct(self, x):
        return ops.channel_shuffle(x, self.groups)


class Tril(Cell):
    """The lower triangle of the last two axes: elements above diagonal k are zeroed."""

    def construct(self, x, k=0):
        _check_tensor("Tril", "x", x)
        return ops.tril(x, _check_int("Tril", "k", k))


class Triu(Cell):
    """The upper triangle of the last two axes: elements below diagonal k are zeroed."""

    def construct(self, x, k=0):
        _check_tensor("Triu", "x", x)
        return ops.triu(x, _check_int("Triu", "k", k))


class OneHot(Cell):
    """Integer indices -> one-hot vectors of length `depth` along `axis`, `on_value` / `off_value` in `dtype`."""

    def __init__(self, axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=mstype.float32):
        super().__init__()
        self.axis = _check_int("OneHot", "axis", axis)
        self.depth = _check_int("OneHot", "depth", depth)
        if depth < 1:
            raise ValueError(f"OneHot: 'depth' must be a positive int, but got {depth}")
        self.on_value, self.off_value, self.dtype = on_value, off_value, dtype

    def construct(self, indices):
        _check_tensor("OneHot", "indices", indices)
        if not -indices.ndim - 1 <= self.axis <= indices.ndim:
            raise ValueError(f"OneHot: 'axis' must be in [{-indices.ndim - 1}, {indices.ndim}] for a "
                             f"{indices.ndim}-d input, but got {self.axis}")
        return ops.one_hot(indices, self.depth, Tensor(self.on_value, self.dtype), Tensor(self.off_value, self.dtype),
                           self.axis)


class Range(Cell):
    """The constant tensor np.arange(start, limit, delta) (start counts from 0 when limit is None): float32 if
    any argument is a float, else int32, as MindSpore."""

    def __init__(self, start, limit=None, delta=1):
        super().__init__()
        for name, value in (("start", start), ("limit", limit), ("delta", delta)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise TypeError(f"Range: '{name}' must be an int or float, but got {type(value).__name__}")
        if delta == 0:
            raise ValueError("Range: 'delta' must not be zero")
        data = np.arange(start, limit, delta)
        self.result_tensor = Tensor(data, mstype.float32 if data.dtype == np.float64 else mstype.int32)

    def construct(self):
        return self.result_tensor
