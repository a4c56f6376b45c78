"""mindspore.mint.nn: PyTorch's torch.nn layer names and arguments (Linear(in_features, out_features),
BatchNorm2d with PyTorch's momentum 0.1 ...), as Sprout Cells."""
from sprout.mint.nn import functional
from sprout.mint.nn._cells import *  # noqa: F401,F403
from sprout.mint.nn._cells import __all__ as _cells_all
from sprout.mint.nn._layers import *  # noqa: F401,F403
from sprout.mint.nn._layers import __all__ as _layers_all
from sprout.nn.cell import Cell  # noqa: F401 (MindSpore's mint.nn has it too)

__all__ = _cells_all + _layers_all
