"""mindspore.mint.optim: PyTorch-style optimizers (params, lr, betas ...) as Cells called with the gradients.
As in MindSpore, they are experimental.optim's optimizers (one implementation of each update rule); only
their error messages name them mint.optim.*."""
from sprout.experimental.optim import adam as _adam
from sprout.experimental.optim import sgd as _sgd

__all__ = ["AdamW", "Adam", "SGD", "FusedAdamW"]


class Adam(_adam.Adam):
    __doc__ = _adam.Adam.__doc__
    _api_prefix = "mint.optim."


class AdamW(_adam.AdamW):
    __doc__ = _adam.AdamW.__doc__
    _api_prefix = "mint.optim."


class FusedAdamW(AdamW):
    """AdamW (MindSpore's fused kernel on Ascend; the same arithmetic here)."""


class SGD(_sgd.SGD):
    __doc__ = _sgd.SGD.__doc__
    _api_prefix = "mint.optim."
