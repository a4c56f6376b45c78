"""Composite operations (``mindspore.ops.composite``): automatic differentiation."""
from sprout.ops.composite.grad import GradOperation, grad, jvp, value_and_grad, vjp
from sprout.ops.composite.transforms import jacfwd, jacrev, vmap
from sprout.ops.composite.functional_composites import HyperMap, Map, MultitypeFuncGraph, Partial

__all__ = ["GradOperation", "grad", "value_and_grad", "vjp", "jvp", "jacrev", "jacfwd", "vmap", "Partial",
           "MultitypeFuncGraph", "HyperMap", "Map"]
