"""Neural-network building blocks (``mindspore.nn``): Cell, layers, losses, optimizers, wrappers."""
from sprout.nn.cell import Cell
from sprout.nn.graph_cell import GraphCell
from sprout.nn.layer import *  # noqa: F401,F403
from sprout.nn.learning_rate_schedule import (CosineDecayLR, ExponentialDecayLR, InverseDecayLR,
                                              LearningRateSchedule, NaturalExpDecayLR, PolynomialDecayLR,
                                              WarmUpLR)
from sprout.nn import dynamic_lr
from sprout.nn.dynamic_lr import *  # noqa: F401,F403
from sprout.nn.loss import *  # noqa: F401,F403
from sprout.nn.optim import *  # noqa: F401,F403
from sprout.nn.wrap import *  # noqa: F401,F403
# mindspore.nn re-exports the metrics of mindspore.train (nn.Accuracy, nn.F1, nn.get_metric_fn ...).
from sprout.train.metrics import *  # noqa: F401,F403,E402
