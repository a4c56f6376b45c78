"""Tensors, Parameters and dtypes (``mindspore.common``)."""
from sprout.common import dtype
from sprout.common.dtype import *  # noqa: F401,F403
from sprout.common.parameter import Parameter, ParameterTuple
from sprout.common.seed import get_seed, set_seed
from sprout.common.tensor import Tensor, from_dlpack, from_numpy
