"""Neural-network building blocks (``mindspore.nn``): Cell, layers, losses, optimizers, wrappers."""
from sprout.nn.cell import Cell
from sprout.nn.graph_cell import GraphCell
from sprout.nn.layer import *  # noqa: F401,F403
from sprout.nn.learning_rate_schedule import (CosineDecayLR, ExponentialDecayLR, InverseDecayLR,
                                              LearningRateSchedule, NaturalExpDecayLR, PolynomialDecayLR,
                                              WarmUpLR, cosine_decay_lr, exponential_decay_lr,
                                              piecewise_constant_lr, warmup_lr)
from sprout.nn.loss import *  # noqa: F401,F403
from sprout.nn.optim import *  # noqa: F401,F403
from sprout.nn.wrap import *  # noqa: F401,F403
