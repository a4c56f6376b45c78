"""Padding layers (``mindspore.nn.ZeroPad2d``, ``ConstantPad1d/2d/3d``, ``ReflectionPad1d/2d/3d``,
``ReplicationPad1d/2d/3d``): ops.pad over the last 1, 2 or 3 axes. `padding` is an int (every side) or
(left, right[, top, bottom[, front, back]])."""
from sprout import ops
from sprout.nn.cell import Cell


class _PadNd(Cell):
    _axes = 1
    _mode = "constant"

    def __init__(self, padding, value=None):
        super().__init__()
        api, sides = type(self).__name__, 2 * self._axes
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * sides
        if not (isinstance(padding, (tuple, list)) and len(padding) == sides and
                all(isinstance(v, int) and not isinstance(v, bool) for v in padding)):
            raise ValueError(f"{api}: 'padding' must be an int or a tuple of {sides} ints, but got {padding!r}")
        self.padding, self.value = tuple(padding), value

    def construct(self, x):
        if self._mode == "constant":
            return ops.pad(x, self.padding, "constant", self.value)
        return ops.pad(x, self.padding, self._mode)

    def extend_repr(self):
        return f"padding={self.padding}" + (f", value={self.value}" if self._mode == "constant" else "")


class ConstantPad1d(_PadNd):
    def __init__(self, padding, value):
        super().__init__(padding, value)


class ConstantPad2d(ConstantPad1d):
    _axes = 2


class ConstantPad3d(ConstantPad1d):
    _axes = 3


class ZeroPad2d(_PadNd):
    _axes = 2

    def __init__(self, padding):
        super().__init__(padding, 0)


class ReflectionPad1d(_PadNd):
    _mode = "reflect"

    def __init__(self, padding):
        super().__init__(padding)


class ReflectionPad2d(ReflectionPad1d):
    _axes = 2


class ReflectionPad3d(ReflectionPad1d):
    _axes = 3


class ReplicationPad1d(ReflectionPad1d):
    _mode = "replicate"


class ReplicationPad2d(ReplicationPad1d):
    _axes = 2


class ReplicationPad3d(ReplicationPad1d):
    _axes = 3
