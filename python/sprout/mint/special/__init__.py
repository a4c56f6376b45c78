"""mindspore.mint.special: PyTorch's torch.special names for functions sprout.ops has."""
from sprout import ops
from sprout.ops import erfc, exp2, expm1, log1p, sinc  # noqa: F401 (same arguments)

__all__ = ["erfc", "expm1", "exp2", "round", "sinc", "log1p", "log_softmax"]


def round(input):
    """Rounds half to even, as mint.round with decimals=0."""
    return ops.round(input)


def log_softmax(input, dim=None, *, dtype=None):
    """log(softmax(input)) along `dim` (PyTorch's default for None: 0 for 0-, 1- and 3-d input, else 1)."""
    from sprout.mint.nn.functional import log_softmax as _log_softmax
    return _log_softmax(input, dim, dtype=dtype)
