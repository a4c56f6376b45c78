"""Sprout: a MindSpore-style deep learning framework with a C++ core.

``import sprout as ms`` gives the MindSpore 2.x names: ``ms.Tensor``, ``ms.ops``, ``ms.set_context``...
"""
import os as _os
import sys as _sys

from sprout import _openblas_core

_openblas_core.set_openblas_core(_os.environ)  # before _C loads OpenBLAS (Note [OpenBLAS core on new Intel CPUs])

from sprout import _C  # noqa: E402

# The optional `mkl` wheel puts libmkl_rt into the environment's lib/ (Note [MKL at run time]).
_MKL_LIBRARY = _os.path.join(_sys.prefix, "lib", "libmkl_rt.so.3")
if _os.path.exists(_MKL_LIBRARY):
    _C.set_mkl_library(_MKL_LIBRARY)
from sprout.common import dtype
from sprout.common.dtype import *  # noqa: F401,F403
from sprout.common.parameter import Parameter, ParameterTuple
from sprout.common.seed import get_seed, set_seed
from sprout.common.mutable import mutable
from sprout.common.tensor import Tensor, from_dlpack, from_numpy, tensor
from sprout import context
from sprout.context import GRAPH_MODE, PYNATIVE_MODE, get_context, set_context
from sprout.parallel_context import (ParallelMode, get_auto_parallel_context, reset_auto_parallel_context,
                                     set_auto_parallel_context)
from sprout import ops
from sprout import nn
from sprout import amp
from sprout import runtime
from sprout import train
from sprout import communication
from sprout import mint
from sprout.train import Model
from sprout.train.mindir import export, load
from sprout.train.serialization import load_checkpoint, load_param_into_net, save_checkpoint
from sprout.ops.composite import grad, jacfwd, jacrev, jvp, value_and_grad, vjp, vmap
from sprout.ops.function import get_grad, is_tensor
from sprout.common.sparse import COOTensor, CSRTensor, RowTensor, SparseTensor
from sprout.ops.composite.grad import _no_grad
from sprout._frontend.jit import jit, ms_function
from sprout.profiler import Profiler
from sprout.common.generator import Generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state
from sprout.global_settings import set_deterministic, set_recursion_limit
from sprout.run_check import run_check
from sprout.jit_class import jit_class
from sprout.recompute import recompute
from sprout.log import get_level, get_log_config
from sprout.parallel.merge_sliced_parameter import merge_sliced_parameter
from sprout.train.dataset_helper import DatasetHelper
from sprout.common import tensor_aliases, tensor_inplace
from sprout.common.tensor import _attach_functional_methods

_attach_functional_methods()
tensor_aliases.attach()
tensor_inplace.attach()

__version__ = "0.1.0"


def __getattr__(name):
    """`ms.experimental` and `ms.numpy` imported when first reached (MindSpore makes them attributes of the
    package; importing them with `import sprout` would only slow it down)."""
    if name in ("experimental", "numpy"):
        import importlib
        return importlib.import_module(f"sprout.{name}")
    raise AttributeError(f"module 'sprout' has no attribute '{name}'")
