"""Fractional max pooling layers (``mindspore.nn.FractionalMaxPool2d``, ``FractionalMaxPool3d``): the
functional ops' arguments kept by the cell (Note [Fractional pooling windows] in
ops/function/nn_fractional_pool_func.py)."""
from sprout import ops
from sprout.nn.cell import Cell


class FractionalMaxPool2d(Cell):
    """Fractional max pooling of (N, C, H, W) or (C, H, W) inputs to `output_size` or `output_ratio` by windows
    of `kernel_size`; with `return_indices`, (output, indices flat in each H * W plane)."""

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None):
        super().__init__()
        self.kernel_size, self.output_size, self.output_ratio = kernel_size, output_size, output_ratio
        self.return_indices, self._random_samples = return_indices, _random_samples

    def construct(self, input):
        return ops.fractional_max_pool2d(input, self.kernel_size, self.output_size, self.output_ratio,
                                         self.return_indices, self._random_samples)


class FractionalMaxPool3d(Cell):
    """Fractional max pooling of (N, C, D, H, W) or (C, D, H, W) inputs to `output_size` or `output_ratio` by
    windows of `kernel_size`; with `return_indices`, (output, indices flat in each D * H * W volume)."""

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False, _random_samples=None):
        super().__init__()
        self.kernel_size, self.output_size, self.output_ratio = kernel_size, output_size, output_ratio
        self.return_indices, self._random_samples = return_indices, _random_samples

    def construct(self, input):
        return ops.fractional_max_pool3d(input, self.kernel_size, self.output_size, self.output_ratio,
                                         self.return_indices, self._random_samples)
