"""Optimizers (``mindspore.nn.optim``)."""
from sprout.nn.optim.ada_factor import AdaFactor
from sprout.nn.optim.ada_max import AdaMax
from sprout.nn.optim.adam import Adam, AdamW, AdamWeightDecay
from sprout.nn.optim.adaptive import ASGD, Adadelta, Adamax, Rprop
from sprout.nn.optim.ftrl import FTRL
from sprout.nn.optim.lars import LARS
from sprout.nn.optim.lazy_adam import LazyAdam
from sprout.nn.optim.optimizer import Optimizer
from sprout.nn.optim.proximal_adagrad import ProximalAdagrad
from sprout.nn.optim.rmsprop import Adagrad, Lamb, RMSProp
from sprout.nn.optim.sgd import SGD, Momentum

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamWeightDecay", "AdamW", "RMSProp", "Adagrad", "Lamb",
           "Adadelta", "Adamax", "Rprop", "ASGD", "FTRL", "LARS", "LazyAdam", "ProximalAdagrad", "AdaFactor",
           "AdaMax"]
