"""Operators: Primitive classes (``ops.Add()``), functions (``ops.add``) and user-defined ops."""
from sprout.ops.primitive import (Custom, Primitive, PrimitiveWithCheck, PrimitiveWithInfer,
                                  prim_attr_register)
from sprout.ops.operations import *  # noqa: F401,F403
from sprout.ops.function import *  # noqa: F401,F403
from sprout.ops.function_primitives import *  # noqa: F401,F403
from sprout.ops import composite, operations, function
from sprout.common.grad_hooks import HookBackward, InsertGradientOf
from sprout.ops.composite import GradOperation, grad, jacfwd, jacrev, jvp, value_and_grad, vjp, vmap
from sprout.ops.composite import HyperMap, Map, MultitypeFuncGraph, Partial


class ReduceOp:
    """How AllReduce combines the ranks' tensors (``ops.AllReduce(ops.ReduceOp.SUM)``)."""
    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"
