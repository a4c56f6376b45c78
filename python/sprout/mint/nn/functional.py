"""mindspore.mint.nn.functional: PyTorch's torch.nn.functional names and arguments over Sprout's ops."""
from sprout.mint._elementwise import clamp  # noqa: F401 (also in MindSpore's module)
from sprout.mint.nn._activation_func import *  # noqa: F401,F403
from sprout.mint.nn._activation_func import __all__ as _activation_all
from sprout.mint.nn._layers_func import *  # noqa: F401,F403
from sprout.mint.nn._layers_func import __all__ as _layers_all
from sprout.mint.nn._loss_func import *  # noqa: F401,F403
from sprout.mint.nn._loss_func import __all__ as _loss_all
from sprout.ops import broadcast_to  # noqa: F401

__all__ = _activation_all + _layers_all + _loss_all
