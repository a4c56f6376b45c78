"""TimeDistributed (``mindspore.nn.TimeDistributed``): a layer applied to every time step of a sequence."""
from sprout import ops
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell
from sprout.ops.primitive import Primitive


def _check_int(name, value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"TimeDistributed: '{name}' must be an int, but got {type(value).__name__}")
    return value


def _swap_perm(axis_a, axis_b, ndim):
    """MindSpore's permutation: axis_b moved to the position of axis_a (the smaller one), the rest shifted."""
    perm = tuple(range(ndim))
    axis_a, axis_b = (axis_a, axis_b) if axis_a < axis_b else (axis_b, axis_a)
    return perm[:axis_a] + (perm[axis_b],) + perm[axis_a:axis_b] + perm[axis_b + 1:]


class TimeDistributed(Cell):
    """layer on every slice of x (at least 3-d) along time_axis, stacked back along it. With reshape_with_axis
    the time axis is merged into that axis, the layer runs once and the result is split again (faster, but
    wrong for layers that mix samples, such as BatchNorm in training)."""

    def __init__(self, layer, time_axis, reshape_with_axis=None):
        if not isinstance(layer, (Cell, Primitive)):
            raise TypeError(f"TimeDistributed: 'layer' must be a Cell or Primitive, but got {type(layer).__name__}")
        super().__init__()
        self.layer = layer
        self.time_axis = _check_int("time_axis", time_axis)
        self.reshape_with_axis = None if reshape_with_axis is None else _check_int("reshape_with_axis",
                                                                                  reshape_with_axis)

    def _check_output(self, out):
        if not isinstance(out, Tensor) and not hasattr(out, "shape"):
            raise TypeError(f"TimeDistributed: the layer must return a Tensor, but returned {type(out).__name__}")

    def construct(self, inputs):
        if not isinstance(inputs, Tensor) and not hasattr(inputs, "shape"):
            raise TypeError(f"TimeDistributed: the input must be a Tensor, but got {type(inputs).__name__}")
        ndim = len(inputs.shape)
        if ndim < 3:
            raise ValueError(f"TimeDistributed: the input must be at least 3-d, but has shape {tuple(inputs.shape)}")
        if not -ndim <= self.time_axis < ndim:
            raise ValueError(f"TimeDistributed: 'time_axis' must be in [{-ndim}, {ndim}), but got {self.time_axis}")
        time_axis = self.time_axis % ndim
        if self.reshape_with_axis is not None:
            return self._by_reshape(inputs, time_axis, ndim)
        steps = ops.unbind(inputs, time_axis)
        outs = []
        for step in steps:
            out = self.layer(step)
            self._check_output(out)
            if time_axis > len(out.shape):
                raise ValueError(f"TimeDistributed: 'time_axis' {time_axis} is beyond the layer's {len(out.shape)}-d "
                                 f"output")
            outs.append(out)
        return ops.stack(outs, time_axis)

    def _by_reshape(self, inputs, time_axis, ndim):
        # MindSpore's construction: move the time axis next to reshape_with_axis, merge them, run the layer,
        # split the merged axis again.
        if not -ndim <= self.reshape_with_axis < ndim:
            raise ValueError(f"TimeDistributed: 'reshape_with_axis' must be in [{-ndim}, {ndim}), but got "
                             f"{self.reshape_with_axis}")
        reshape_axis = self.reshape_with_axis % ndim
        if reshape_axis == time_axis:
            raise ValueError("TimeDistributed: 'reshape_with_axis' must differ from 'time_axis'")
        if reshape_axis == ndim - 1:
            time_axis_new = ndim - 2
        else:
            time_axis_new = reshape_axis + 1 if time_axis > reshape_axis else reshape_axis - 1
        pos = min(time_axis_new, reshape_axis)
        x = ops.transpose(inputs, _swap_perm(time_axis_new, time_axis, ndim))
        shape = tuple(x.shape)
        out = self.layer(x.reshape(shape[:pos] + (-1,) + shape[pos + 2:]))
        self._check_output(out)
        merged = tuple(x.reshape(shape[:pos] + (-1,) + shape[pos + 2:]).shape)
        if pos >= len(out.shape) or merged[pos] != out.shape[pos]:
            raise ValueError(f"TimeDistributed: the layer changed the merged axis {pos} (input {merged}, output "
                             f"{tuple(out.shape)}); call it without 'reshape_with_axis'")
        new_shape = tuple(out.shape[:pos]) + shape[pos:pos + 2] + tuple(out.shape[pos + 1:])
        return out.reshape((-1,) + new_shape[1:])
