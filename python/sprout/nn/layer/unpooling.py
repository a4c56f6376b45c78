"""MaxUnpool1d/2d/3d (``mindspore.nn``): the inverses of max pooling, each value written back at the index
its max pool returned, zeros elsewhere (ops.max_unpool1d/2d/3d)."""
from sprout import ops
from sprout.nn.cell import Cell


class _MaxUnpool(Cell):
    _fn = None

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding = padding

    def construct(self, x, indices, output_size=None):
        name = type(self).__name__
        if output_size is not None:
            if not isinstance(output_size, tuple):
                raise ValueError(f"{name}: 'output_size' must be a tuple, but got {type(output_size).__name__}")
            if not output_size:
                raise ValueError(f"{name}: 'output_size' must not be empty")
        return type(self)._fn(x, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extend_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpool):
    """(N, C, L_in) or (C, L_in) -> L_out = (L_in - 1) * stride - 2 * padding + kernel_size."""
    _fn = staticmethod(ops.max_unpool1d)


class MaxUnpool2d(_MaxUnpool):
    """(N, C, H_in, W_in) or (C, H_in, W_in) -> H_out = (H_in - 1) * stride[0] - 2 * padding[0] + kernel_size[0],
    and likewise W_out."""
    _fn = staticmethod(ops.max_unpool2d)


class MaxUnpool3d(_MaxUnpool):
    """(N, C, D, H, W) or (C, D, H, W) inputs, each spatial size unpooled as in MaxUnpool1d."""
    _fn = staticmethod(ops.max_unpool3d)
