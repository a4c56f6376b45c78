"""mindspore.mint: MindSpore 2.x's PyTorch-style API (torch names and arguments: input, dim, keepdim; int64
indices; (values, indices) pairs) over Sprout's ops. Submodules nn, nn.functional, optim, linalg, special.
mint.distributed is not provided (Sprout's collectives are in sprout.communication)."""
from sprout.common.tensor import Tensor  # noqa: F401 (MindSpore's mint has it too)
from sprout.mint._creation import *  # noqa: F401,F403
from sprout.mint._creation import __all__ as _creation_all
from sprout.mint._elementwise import *  # noqa: F401,F403
from sprout.mint._elementwise import __all__ as _elementwise_all
from sprout.mint._products import *  # noqa: F401,F403
from sprout.mint._products import __all__ as _products_all
from sprout.mint._reduce import *  # noqa: F401,F403
from sprout.mint._reduce import __all__ as _reduce_all
from sprout.mint._shape import *  # noqa: F401,F403
from sprout.mint._shape import __all__ as _shape_all
from sprout.mint._more import *  # noqa: F401,F403
from sprout.mint._more import __all__ as _more_all
from sprout.mint import linalg, nn, optim, special  # noqa: F401

__all__ = _creation_all + _elementwise_all + _products_all + _reduce_all + _shape_all + _more_all
