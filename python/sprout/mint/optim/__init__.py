"""mindspore.mint.optim: PyTorch-style optimizers (params, lr, betas ...) as Cells called with the gradients."""
from sprout.mint.optim._adam import Adam, AdamW, FusedAdamW
from sprout.mint.optim._sgd import SGD

__all__ = ["AdamW", "Adam", "SGD", "FusedAdamW"]
