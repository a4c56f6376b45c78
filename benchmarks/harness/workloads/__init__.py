"""Workloads, one module per area; importing a module registers its
workloads in registry.WORKLOADS, in the order the report shows them."""
from . import dispatch, elementwise, matmul, nn, conv, rnn, training, optim, models, data  # noqa: F401  (order matters)

ALL_MODULES = (dispatch, elementwise, matmul, nn, conv, rnn, training, optim, models, data)
