"""PyTorch-style optimizers (``mindspore.experimental.optim``): parameter groups with their own options,
each group's lr a Parameter that the schedulers of ``lr_scheduler`` write; ``optimizer(grads)`` takes the
gradients in the order of ``optimizer.parameters``. The update rules are PyTorch's."""
from sprout.experimental.optim.optimizer import Optimizer
from sprout.experimental.optim.adam import Adam, AdamW
from sprout.experimental.optim.adam_variants import Adamax, NAdam, RAdam
from sprout.experimental.optim.adaptive import Adadelta, Adagrad, RMSprop
from sprout.experimental.optim.rprop import Rprop
from sprout.experimental.optim.sgd import ASGD, SGD
from sprout.experimental.optim import lr_scheduler

__all__ = ["Optimizer", "AdamW", "SGD", "Adam", "Adadelta", "Adagrad", "ASGD", "Adamax", "RMSprop", "Rprop",
           "RAdam", "NAdam"]
