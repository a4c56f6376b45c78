"""Central finite differences: the reference the gradient tests compare autodiff with."""
import numpy as np

import sprout as ms


def numeric_grad(f, x, eps=1e-6):
    """d f(x) / d x of a scalar function f, by central differences in float64."""
    x = np.ascontiguousarray(x, dtype=np.float64)  # the perturbations write through reshape(-1): a view only then
    g = np.zeros_like(x)
    for i in range(x.size):
        d = np.zeros_like(x)
        d.reshape(-1)[i] = eps
        g.reshape(-1)[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


def check_grad(fn, *arrays, eps=1e-6, rtol=1e-6, atol=1e-8, seed=0):
    """ms.grad of sum(fn(*inputs) * w), w random, against central differences in float64, for every input."""
    tensors = [ms.Tensor(np.asarray(a, np.float64)) for a in arrays]
    w = ms.Tensor(np.random.default_rng(seed).standard_normal(np.shape(fn(*tensors).asnumpy())))
    loss = lambda *xs: (fn(*xs) * w).sum()  # noqa: E731
    grads = ms.grad(loss, grad_position=tuple(range(len(arrays))))(*tensors)
    grads = grads if isinstance(grads, tuple) else (grads,)
    for i, a in enumerate(arrays):
        def f(v, i=i):
            return float(loss(*[ms.Tensor(v) if j == i else t for j, t in enumerate(tensors)]).asnumpy())
        np.testing.assert_allclose(grads[i].asnumpy(), numeric_grad(f, a, eps), rtol=rtol, atol=atol,
                                   err_msg=f"input {i}")
