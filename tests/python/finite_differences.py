"""Central finite differences: the reference the gradient tests compare autodiff with."""
import numpy as np


def numeric_grad(f, x, eps=1e-6):
    """d f(x) / d x of a scalar function f, by central differences in float64."""
    x = np.ascontiguousarray(x, dtype=np.float64)  # the perturbations write through reshape(-1): a view only then
    g = np.zeros_like(x)
    for i in range(x.size):
        d = np.zeros_like(x)
        d.reshape(-1)[i] = eps
        g.reshape(-1)[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return g
