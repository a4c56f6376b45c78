"""Optimizers (``mindspore.nn.optim``)."""
from sprout.nn.optim.adam import Adam, AdamW, AdamWeightDecay
from sprout.nn.optim.adaptive import ASGD, Adadelta, Adamax, Rprop
from sprout.nn.optim.optimizer import Optimizer
from sprout.nn.optim.rmsprop import Adagrad, Lamb, RMSProp
from sprout.nn.optim.sgd import SGD, Momentum

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamWeightDecay", "AdamW", "RMSProp", "Adagrad", "Lamb",
           "Adadelta", "Adamax", "Rprop", "ASGD"]
