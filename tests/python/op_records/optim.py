"""Records of the in-place optimizer updates and Assign/AssignAdd/AssignSub.

The references are NumPy transcriptions of MindSpore's documented update formulas. The ops return
the updated var (and for Adam, AdamWeightDecay, ApplyAdagrad also the slots), which is what the
harness compares; test_optim_ops.py checks every slot and the in-place behaviour. The updates have
no gradient, so the records carry no `prim` for the finite-difference check.
"""
import numpy as np

import sprout as ms
from sprout import ops
from op_records.record import FLOAT_DTYPES, NUMERIC_DTYPES, OpRecord

# Value ranges per input kind: 'x' signed, 'p' positive, 'q' at least 1, 'r' a rate in (0, 1), 't' a step count.
_RANGES = {"x": (-2.0, 2.0), "p": (0.5, 2.0), "q": (1.0, 2.0), "r": (0.1, 0.9)}


def _sampler(kinds):
    def sample(rng, shapes, dtype):
        return [rng.integers(1, 6, size=s).astype(np.float64) if k == "t" else rng.uniform(*_RANGES[k], size=s)
                for k, s in zip(kinds, shapes)]
    return sample


def _shapes(roles):
    """Sample shapes from the roles ('u'/'t' tensors like var, 's' scalars): var 0-d, 2-d, empty, large."""
    return [tuple(() if r == "s" else var for r in roles) for var in ((), (3, 4), (0, 5), (70001,))]


def _gradient_descent(var, alpha, delta):
    return var - alpha * delta


def _momentum(nesterov, scale):
    def ref(var, accum, lr, grad, momentum):
        g = scale * grad
        accum = momentum * accum + g
        return var - lr * (g + momentum * accum) if nesterov else var - lr * accum
    return ref


def _sgd(dampening, weight_decay, nesterov):
    def ref(params, grad, lr, accum, momentum, stat):
        g = grad + weight_decay * params
        accum = np.where(stat > 0, g, momentum * accum + (1 - dampening) * g)
        g = g + momentum * accum if nesterov else accum
        return params - lr * g
    return ref


def _adamax(var, m, v, b1p, lr, beta1, beta2, eps, grad):
    m = beta1 * m + (1 - beta1) * grad
    v = np.maximum(beta2 * v, np.abs(grad))
    return var - lr / (1 - b1p) * m / (v + eps), m, v


def _adadelta(var, accum, accum_update, lr, rho, eps, grad):
    accum = rho * accum + (1 - rho) * grad * grad
    update = np.sqrt(accum_update + eps) / np.sqrt(accum + eps) * grad
    accum_update = rho * accum_update + (1 - rho) * update * update
    return var - lr * update, accum, accum_update


def _adam(nesterov):
    def ref(var, m, v, b1p, b2p, lr, beta1, beta2, eps, grad):
        m = m + (grad - m) * (1 - beta1)
        v = v + (grad * grad - v) * (1 - beta2)
        lr_t = lr * np.sqrt(1 - b2p) / (1 - b1p)
        step = m * beta1 + (1 - beta1) * grad if nesterov else m
        return var - lr_t * step / (np.sqrt(v) + eps), m, v
    return ref


def _adam_weight_decay(var, m, v, lr, beta1, beta2, eps, decay, grad):
    m = beta1 * m + (1 - beta1) * grad
    v = beta2 * v + (1 - beta2) * grad * grad
    return var - lr * (m / (np.sqrt(v) + eps) + decay * var), m, v


def _rmsprop(var, ms_, mom, lr, grad, decay, momentum, eps):
    ms_ = decay * ms_ + (1 - decay) * grad * grad
    mom = momentum * mom + lr * grad / np.sqrt(ms_ + eps)
    return var - mom


def _centered_rmsprop(var, mg, ms_, mom, grad, lr, decay, momentum, eps):
    mg = decay * mg + (1 - decay) * grad
    ms_ = decay * ms_ + (1 - decay) * grad * grad
    mom = momentum * mom + lr * grad / np.sqrt(ms_ - mg * mg + eps)
    return var - mom


def _adagrad(update_slots):
    def ref(var, accum, lr, grad):
        if update_slots:
            accum = accum + grad * grad
        return var - lr * grad / np.sqrt(accum), accum
    return ref


def _lamb(var, m, v, lr, beta1, beta2, eps, decay, step, grad):
    m = beta1 * m + (1 - beta1) * grad
    v = beta2 * v + (1 - beta2) * grad * grad
    r = m / (1 - beta1 ** step) / (np.sqrt(v / (1 - beta2 ** step)) + eps) + decay * var
    w_norm, r_norm = np.linalg.norm(var), np.linalg.norm(r)
    ratio = w_norm / r_norm if w_norm > 0 and r_norm > 0 else 1.0
    return var - lr * ratio * r


def _t(*shape, dtype=ms.float32):
    return ms.Tensor(np.ones(shape), dtype)


_ADAM_SCALARS = (0.5, 0.5, 0.1, 0.9, 0.999, 1e-8)
# Half precision accumulates a few roundings per step (moments stored, then reused).
_HALF_TOL = {ms.float16: (5e-3, 5e-3), ms.bfloat16: (4e-2, 4e-2)}

def _gradient_descent_matmul(transpose_a, transpose_b):
    def ref(var, alpha, x, y):
        return var - alpha * ((x.T if transpose_a else x) @ (y.T if transpose_b else y))
    return ref


def _matmul_update_record(transpose_a, transpose_b):
    """ApplyGradientDescentMatMul, which the compiler makes of SGD on a MatMul gradient."""
    def shapes(m, k, n):
        return ((m, n), (), (k, m) if transpose_a else (m, k), (n, k) if transpose_b else (k, n))
    op = lambda *a: ops.ApplyGradientDescentMatMul(transpose_a, transpose_b)(*a)  # noqa: E731
    bad = [(lambda: ops.ApplyGradientDescentMatMul()(_t(2, 3), 0.1, _t(2, 4), _t(4, 2)), ValueError,
            r"ApplyGradientDescentMatMul: the product of 'x' \(2, 4\) and 'y' \(4, 2\) \(transpose_a=False, "
            r"transpose_b=False\) must have the shape of 'var' \(2, 3\)"),
           (lambda: ops.ApplyGradientDescentMatMul()(_t(2, 2, dtype=ms.float16), 0.1, _t(2, 2, dtype=ms.float16),
                                                     _t(2, 2, dtype=ms.float16)), TypeError,
            "ApplyGradientDescentMatMul: 'var' must be Float32 or Float64, but got Float16"),
           (lambda: ops.ApplyGradientDescentMatMul()(_t(2, 2), _t(2), _t(2, 2), _t(2, 2)), ValueError,
            "ApplyGradientDescentMatMul: 'alpha' must be a real scalar"),
           (lambda: ops.ApplyGradientDescentMatMul()(_t(2, 2), 0.1, _t(2, 2, dtype=ms.float64), _t(2, 2)), TypeError,
            r"ApplyGradientDescentMatMul: 'x' must have the dtype of 'var' \(Float32\), but got Float64")]
    return OpRecord("ApplyGradientDescentMatMul", op, _gradient_descent_matmul(transpose_a, transpose_b),
                    [shapes(3, 4, 5), shapes(0, 2, 3), shapes(2, 0, 3), shapes(64, 96, 200)],
                    dtypes=(ms.float32, ms.float64), sampler=_sampler("xrxx"), tol={ms.float32: (1e-5, 1e-5)},
                    bad=bad)


RECORDS = [
    *[_matmul_update_record(ta, tb) for ta in (False, True) for tb in (False, True)],
    OpRecord("ApplyGradientDescent", lambda *a: ops.ApplyGradientDescent()(*a), _gradient_descent, _shapes("ust"),
             sampler=_sampler("xrx"),
             bad=[(lambda: ops.ApplyGradientDescent()(_t(2), 0.1, _t(3)), ValueError,
                   r"ApplyGradientDescent: 'delta' must have the shape of 'var' \(2,\), but got \(3,\)"),
                  (lambda: ops.ApplyGradientDescent()(_t(2), _t(2), _t(2)), ValueError,
                   r"ApplyGradientDescent: 'alpha' must be a scalar \(a number or a one-element tensor\), but got shape \(2,\)"),
                  (lambda: ops.ApplyGradientDescent()(_t(2, dtype=ms.int32), 0.1, _t(2, dtype=ms.int32)), TypeError,
                   r"ApplyGradientDescent: 'var' must be a floating-point tensor"),
                  (lambda: ops.ApplyGradientDescent()(_t(2), 0.1, _t(2, dtype=ms.float64)), TypeError,
                   r"ApplyGradientDescent: 'delta' must have the dtype of 'var' \(Float32\), but got Float64")]),
    OpRecord("ApplyAdagrad", lambda *a: ops.ApplyAdagrad()(*a), _adagrad(True), _shapes("uust"), sampler=_sampler("xprx"),
             bad=[(lambda: ops.ApplyAdagrad()(_t(2), _t(3), 0.1, _t(2)), ValueError,
                   r"ApplyAdagrad: 'accum' must have the shape of 'var' \(2,\), but got \(3,\)"),
                  (lambda: ops.ApplyAdagrad()(_t(2), _t(2), ms.Tensor(True), _t(2)), TypeError,
                   r"ApplyAdagrad: 'lr' must be a real number, but got a Bool tensor")]),
    OpRecord("ApplyAdagrad", lambda *a: ops.ApplyAdagrad(update_slots=False)(*a), _adagrad(False), _shapes("uust"),
             sampler=_sampler("xprx")),
    OpRecord("AdamWeightDecay", lambda *a: ops.AdamWeightDecay()(*a), _adam_weight_decay, _shapes("uuussssst"),
             sampler=_sampler("xxprrrrrx"), tol=_HALF_TOL,
             bad=[(lambda: ops.AdamWeightDecay()(_t(2), _t(2), _t(2, dtype=ms.float16), 0.1, 0.9, 0.99, 1e-8, 0.0,
                                                 _t(2)), TypeError,
                   r"AdamWeightDecay: 'v' must have the dtype of 'var' \(Float32\), but got Float16")]),
    OpRecord("ApplyAdaMax", lambda *a: ops.ApplyAdaMax()(*a), _adamax, _shapes("uuussssst"),
             sampler=_sampler("xxprrrrrx"), tol=_HALF_TOL,
             bad=[(lambda: ops.ApplyAdaMax()(_t(2), _t(2), _t(3), 0.5, 0.1, 0.9, 0.999, 1e-8, _t(2)), ValueError,
                   r"ApplyAdaMax: 'v' must have the shape of 'var' \(2,\), but got \(3,\)")]),
    OpRecord("ApplyAdadelta", lambda *a: ops.ApplyAdadelta()(*a), _adadelta, _shapes("uuussst"),
             sampler=_sampler("xpprrrx"), tol=_HALF_TOL,
             bad=[(lambda: ops.ApplyAdadelta()(_t(2), _t(2), _t(2), 0.1, _t(2), 1e-6, _t(2)), ValueError,
                   r"ApplyAdadelta: 'rho' must be a scalar")]),
    OpRecord("ApplyRMSProp", lambda *a: ops.ApplyRMSProp()(*a), _rmsprop, _shapes("uuustsss"),
             sampler=_sampler("xpxrxrrr"), tol=_HALF_TOL),
    OpRecord("ApplyCenteredRMSProp", lambda *a: ops.ApplyCenteredRMSProp()(*a), _centered_rmsprop,
             _shapes("uuuutssss"), sampler=_sampler("xrqxxrrrr"), tol=_HALF_TOL),
    OpRecord("Lamb", lambda *a: ops.Lamb()(*a), _lamb, _shapes("uuusssssst"), sampler=_sampler("xxprrrrrtx"),
             tol={**_HALF_TOL, ms.float32: (2e-5, 1e-5)},
             bad=[(lambda: ops.Lamb()(_t(2), _t(2), _t(2), 0.1, 0.9, 0.99, 1e-6, 0.0, 0.0, _t(2)), ValueError,
                   r"Lamb: 'global_step' must be >= 1 \(the step t of the bias corrections 1 - beta\^t\), but got 0")]),
]
for _nesterov in (False, True):
    RECORDS += [
        # stat sampled from [-2, 2]: some elements take their first step (accum = g), the others the momentum one.
        OpRecord("SGD", lambda *a, n=_nesterov: ops.SGD(dampening=0.0 if n else 0.25, weight_decay=0.125,
                                                          nesterov=n)(*a),
                 _sgd(0.0 if _nesterov else 0.25, 0.125, _nesterov), _shapes("utsusu"), sampler=_sampler("xxrxrx"),
                 tol=_HALF_TOL,
                 bad=[(lambda: ops.SGD()(_t(2), _t(3), 0.1, _t(2), 0.9, _t(2)), ValueError,
                       r"SGD: 'gradient' must have the shape of 'parameters' \(2,\), but got \(3,\)"),
                      (lambda: ops.SGD(dampening="no"), TypeError, r"SGD: attribute 'dampening' expects")]),
        OpRecord("ApplyMomentum", lambda *a, n=_nesterov: ops.ApplyMomentum(use_nesterov=n, gradient_scale=0.5)(*a),
                 _momentum(_nesterov, 0.5), _shapes("uusts"), sampler=_sampler("xxrxr"),
                 bad=[(lambda: ops.ApplyMomentum()(_t(2), _t(2), 0.1, _t(2), _t(1, 2)), ValueError,
                       r"ApplyMomentum: 'momentum' must be a scalar \(a number or a one-element tensor\)"),
                      (lambda: ops.ApplyMomentum(use_nesterov=1), TypeError,
                       r"ApplyMomentum: attribute 'use_nesterov' expects bool")]),
        OpRecord("Adam", lambda *a, n=_nesterov: ops.Adam(use_nesterov=n)(*a), _adam(_nesterov), _shapes("uuusssssst"),
                 sampler=_sampler("xxprrrrrrx"), tol=_HALF_TOL,
                 bad=[(lambda: ops.Adam()(_t(2), _t(2), _t(2), *_ADAM_SCALARS, _t(2, 1)), ValueError,
                       r"Adam: 'gradient' must have the shape of 'var' \(2,\), but got \(2, 1\)")]),
    ]


def _assign_sampler(rng, shapes, dtype):
    arrays = []
    for s in shapes:
        a = rng.integers(0, 50, size=s) if dtype in NUMERIC_DTYPES and dtype not in FLOAT_DTYPES else \
            rng.uniform(-3, 3, size=s)
        arrays.append(a)
    return arrays


_ASSIGN_SHAPES = [((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 3), ()), ((), ()), ((0, 2), (2,)), ((50000,), (50000,))]
RECORDS += [
    OpRecord("Assign", ops.assign, lambda x, y: np.broadcast_to(y, x.shape).copy(), _ASSIGN_SHAPES,
             NUMERIC_DTYPES + (ms.bool_,), sampler=_assign_sampler, exact=True,
             bad=[(lambda: ops.assign(_t(2, 3), _t(3, 3)), ValueError,
                   r"Assign: 'value' must broadcast to the shape of 'variable' \(2, 3\), but got shape \(3, 3\)"),
                  (lambda: ops.assign(np.ones(3), _t(3)), TypeError,
                   r"assign: 'variable' must be a Tensor or Parameter, but got ndarray")]),
    OpRecord("AssignAdd", ops.assign_add, lambda x, y: x + y, _ASSIGN_SHAPES, NUMERIC_DTYPES, sampler=_assign_sampler,
             bad=[(lambda: ops.assign_add(ms.Tensor([True]), ms.Tensor([True])), TypeError,
                   r"AssignAdd: 'variable' must be a numeric tensor, but got Bool")]),
    OpRecord("AssignSub", ops.assign_sub, lambda x, y: x - y, _ASSIGN_SHAPES, NUMERIC_DTYPES, sampler=_assign_sampler,
             bad=[(lambda: ops.assign_sub(_t(2), _t(1, 2, 2)), ValueError,
                   r"AssignSub: 'value' must broadcast to the shape of 'variable' \(2,\)")]),
    # A value of another dtype is converted to the variable's (a Parameter keeps its dtype).
    OpRecord("AssignAdd", lambda x, y: ops.assign_add(x, ms.Tensor(y.asnumpy().astype(np.float64))),
             lambda x, y: x + y, [((4,), (4,))], FLOAT_DTYPES, sampler=_assign_sampler),
]
