"""ms.jacrev / ms.jacfwd against finite differences, and ms.vmap against explicit loops."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops

RNG = np.random.default_rng(5)


def T(a):
    return ms.Tensor(np.asarray(a))


def numeric_jacobian(f, x, eps=1e-6):
    """d f(x) / d x as an array of shape f(x).shape + x.shape."""
    y = np.asarray(f(x))
    jac = np.zeros(y.shape + x.shape)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        jac[(...,) + i] = (np.asarray(f(x + d)) - np.asarray(f(x - d))) / (2 * eps)
    return jac


def f_two_outputs(x, y):
    return ops.sin(x)[:, None] * ops.matmul(y, y.T)[0], (x * y[0]).sum()


@pytest.mark.parametrize("transform", [ms.jacrev, ms.jacfwd])
def test_jacobians_match_finite_differences(transform):
    x, y = RNG.standard_normal(3), RNG.standard_normal((2, 3))
    (j0x, j0y), (j1x, j1y) = transform(f_two_outputs, grad_position=(0, 1))(T(x), T(y))
    for got, which, arg in ((j0x, 0, 0), (j0y, 0, 1), (j1x, 1, 0), (j1y, 1, 1)):
        def f(v, which=which, arg=arg):
            args = [T(x), T(y)]
            args[arg] = T(v)
            return f_two_outputs(*args)[which].asnumpy()
        want = numeric_jacobian(f, (x, y)[arg])
        assert got.shape == want.shape
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6, atol=1e-8)
    single = transform(ops.tanh)(T(x))  # one input, one output: the Jacobian itself
    np.testing.assert_allclose(single.asnumpy(), np.diag(1 - np.tanh(x) ** 2), rtol=1e-12)


@pytest.mark.parametrize("transform", [ms.jacrev, ms.jacfwd])
def test_jacobians_with_aux_and_errors(transform):
    def f(x):
        return x * x, x.sum()

    jac, aux = transform(f, has_aux=True)(T(np.array([1.0, 2.0])))
    np.testing.assert_array_equal(jac.asnumpy(), np.diag([2.0, 4.0]))
    assert float(aux.asnumpy()) == 3.0
    with pytest.raises(ValueError, match="grad_position"):
        transform(ops.sin, grad_position=3)(T(np.ones(2)))

    @ms.jit
    def compiled(x):
        return transform(ops.sin)(x)

    with pytest.raises(RuntimeError, match=f"{transform.__name__}: runs in PYNATIVE mode only"):
        compiled(T(np.ones(2)))


def test_jacobian_of_a_gradient_is_the_hessian():
    x = RNG.standard_normal(3)
    a = RNG.standard_normal((3, 3))

    def energy(v):
        return (v * ops.matmul(T(a), v)).sum() + (v ** 3).sum()

    hessian = ms.jacfwd(ms.grad(energy))(T(x)).asnumpy()
    np.testing.assert_allclose(hessian, a + a.T + np.diag(6 * x), rtol=1e-10)
    np.testing.assert_allclose(ms.jacrev(ms.grad(energy))(T(x)).asnumpy(), hessian, rtol=1e-10)


def test_vmap_matches_a_loop():
    x, w = RNG.standard_normal((4, 3)), RNG.standard_normal((3, 2))
    got = ms.vmap(lambda r, m: ops.matmul(r[None], m)[0], in_axes=(0, None))(T(x), T(w))
    np.testing.assert_allclose(got.asnumpy(), x @ w, rtol=1e-12)
    cols = ms.vmap(lambda c: c.sum(), in_axes=1)(T(x))
    np.testing.assert_allclose(cols.asnumpy(), x.sum(0), rtol=1e-12)
    # Tuple arguments and outputs, out_axes per output (None: the same for every entry).
    pair = (T(x), T(x * 2))
    s, d, const = ms.vmap(lambda p, k: (p[0] + p[1], p[1] - p[0], k), in_axes=((0, 0), None),
                          out_axes=(1, 0, None))(pair, T(w))
    np.testing.assert_allclose(s.asnumpy(), (3 * x).T, rtol=1e-12)
    np.testing.assert_allclose(d.asnumpy(), x, rtol=1e-12)
    np.testing.assert_array_equal(const.asnumpy(), w)
    # Per-example gradients, the usual reason for vmap.
    per_example = ms.vmap(ms.grad(lambda r: (r ** 2).sum()))(T(x))
    np.testing.assert_allclose(per_example.asnumpy(), 2 * x, rtol=1e-12)


def _squared_norm(r):
    return (r * r).sum()


def test_vmap_inside_compiled_code_and_errors():
    x = RNG.standard_normal((3, 4))

    @ms.jit
    def norms(v):
        return ms.vmap(_squared_norm)(v)

    @ms.jit
    def with_a_local_function(v):
        return ms.vmap(lambda r: r)(v)

    with pytest.raises(TypeError, match="vmap: 'fn' must be callable, but got StagedClosure"):
        with_a_local_function(T(x))

    np.testing.assert_allclose(norms(T(x)).asnumpy(), (x * x).sum(1), rtol=1e-12)
    with pytest.raises(ValueError, match=r"vmap: the mapped axes must have one size, but got sizes \[2, 3\]"):
        ms.vmap(lambda a, b: a + b)(T(np.ones((2, 1))), T(np.ones((3, 1))))
    with pytest.raises(ValueError, match="vmap: at least one argument must be mapped"):
        ms.vmap(lambda a: a, in_axes=None)(T(x))
    with pytest.raises(ValueError, match="vmap: 'in_axes' 2 is out of range"):
        ms.vmap(lambda a: a, in_axes=2)(T(x))
    with pytest.raises(ValueError, match="vmap: 'in_axes' has 1 entries for 2 arguments"):
        ms.vmap(lambda a, b: a, in_axes=(0,))(T(x), T(x))
    # fn runs once per entry, so an empty batch leaves no output to learn the shapes from.
    with pytest.raises(ValueError, match="vmap: the mapped axes have size 0"):
        ms.vmap(lambda a: ops.sum(a))(T(np.zeros((0, 3))))
