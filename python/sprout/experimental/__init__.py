"""MindSpore's experimental namespace: ``optim``, the PyTorch-style optimizers and lr schedulers.

Not imported by ``import sprout``: code writes ``from mindspore.experimental import optim`` as with MindSpore.
"""
from sprout.experimental import optim

__all__ = ["optim"]
