"""Records of the normalization ops (Note [BatchNorm outputs] in src/ops/nn_norm.cc)."""
from dataclasses import dataclass

import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import OpRecord

DTYPES = (ms.float16, ms.bfloat16, ms.float32, ms.float64)
TOL = {ms.float16: (4e-3, 4e-3), ms.float32: (1e-5, 1e-5)}


@dataclass
class MultiOutputRecord(OpRecord):
    grad_outputs: tuple = (0,)  # the differentiable outputs; the gradient check gives the others zero douts


def _batch_norm_ref(training, epsilon=1e-5, momentum=0.1):
    def reference(x, scale, bias, mean, var):
        axes = (0,) + tuple(range(2, x.ndim))
        shape = (1, -1) + (1,) * (x.ndim - 2)
        if training:
            used_mean, used_var = x.mean(axis=axes), x.var(axis=axes)
            running_mean, running_var = (1 - momentum) * mean + momentum * used_mean, (1 - momentum) * var + momentum * used_var
        else:
            used_mean, used_var, running_mean, running_var = mean, var, mean, var
        y = (x - used_mean.reshape(shape)) / np.sqrt(used_var.reshape(shape) + epsilon) * scale.reshape(shape) + bias.reshape(shape)
        return [y, running_mean, running_var, used_mean, used_var]
    return reference


def _batch_norm_record(training, shapes, grad_shapes, **attrs):
    full = dict(is_training=training, **attrs)
    return MultiOutputRecord(
        "BatchNorm", lambda *t: ops.BatchNorm(**full)(*t), _batch_norm_ref(training, **attrs), shapes, DTYPES,
        low=0.5, high=2.0, tol=TOL, prim=lambda: _C.Primitive("BatchNorm", full), grad_shapes=grad_shapes,
        bad=BAD if training else [], grad_outputs=(0, 3, 4))  # y and the statistics it used (Note [BatchNorm outputs])


def _stats(x_shape):
    c = x_shape[1]
    return (x_shape,) + ((c,),) * 4


def _t(*shape, dtype=ms.float32):
    return ms.Tensor(np.ones(shape), dtype)


def _running_update_in_place():
    """Training writes the updated running statistics into the mean/variance inputs, as MindSpore does."""
    mean, var = _t(2), _t(2)
    x = ms.Tensor(np.arange(8.0).reshape(2, 2, 2), ms.float32).reshape(2, 2, 2, 1)
    out = ops.BatchNorm(is_training=True, momentum=0.5)(x, _t(2), _t(2), mean, var)
    if not np.allclose(mean.asnumpy(), out[1].asnumpy()) or not np.allclose(var.asnumpy(), out[2].asnumpy()):
        raise AssertionError("running statistics were not updated in place")
    raise ValueError("updated in place")


BAD = [
    (lambda: ops.BatchNorm()(_t(2, 3, 4, 4), _t(4), _t(3), _t(3), _t(3)), ValueError,
     r"BatchNorm: 'scale' must have shape \(3,\) for 'x' of shape \(2, 3, 4, 4\), but got \(4,\)"),
    (lambda: ops.BatchNorm()(_t(2, 3, 4), _t(3), _t(3), _t(3), _t(3)), ValueError,
     "BatchNorm: 'x' must be 2-d"),
    (lambda: ops.BatchNorm()(_t(2, 3), _t(3), _t(3, dtype=ms.float64), _t(3), _t(3)), TypeError,
     "BatchNorm: 'bias' must have the dtype of 'x'"),
    (lambda: ops.BatchNorm(momentum=1.5)(_t(2, 3), _t(3), _t(3), _t(3), _t(3)), ValueError,
     r"BatchNorm: 'momentum' must be in \[0, 1\]"),
    (lambda: ops.BatchNorm(is_training=True)(_t(0, 3), _t(3), _t(3), _t(3), _t(3)), ValueError,
     "training needs a non-empty batch"),
    (_running_update_in_place, ValueError, "updated in place"),
]

RECORDS = [
    _batch_norm_record(True, [_stats((4, 3, 2, 3)), _stats((5, 2)), _stats((1, 2, 3, 1))], [_stats((3, 2, 2, 2))]),
    _batch_norm_record(False, [_stats((4, 3, 2, 3)), _stats((3, 4)), _stats((0, 2, 2, 2))], [_stats((2, 3, 2, 1))],
                       epsilon=1e-3, momentum=0.3),
]


def _layer_norm_ref(begin_norm_axis, begin_params_axis, epsilon):
    def reference(x, gamma, beta):
        axes = tuple(range(begin_norm_axis % x.ndim, x.ndim))
        mean = x.mean(axis=axes, keepdims=True)
        rstd = 1 / np.sqrt(x.var(axis=axes, keepdims=True) + epsilon)
        return [(x - mean) * rstd * gamma + beta, mean, rstd]
    return reference


def _layer_norm_record(x_shapes, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7, grad_shape=None):
    attrs = dict(begin_norm_axis=begin_norm_axis, begin_params_axis=begin_params_axis, epsilon=epsilon)
    params = lambda s: s[begin_params_axis % len(s):]  # noqa: E731
    shapes = [(s, params(s), params(s)) for s in x_shapes]
    return MultiOutputRecord(
        "LayerNorm", lambda x, g, b: ops.LayerNorm(**attrs)(x, g, b),
        _layer_norm_ref(begin_norm_axis, begin_params_axis, epsilon), shapes, DTYPES, tol=LAYER_NORM_TOL,
        prim=lambda: _C.Primitive("LayerNorm", attrs), grad_shapes=[shapes[0]] if grad_shape is None else grad_shape,
        bad=LAYER_NORM_BAD, grad_outputs=(0, 1, 2))  # mean and rstd are differentiable (Note [LayerNorm gradients])


# float16: the output is rounded after normalizing to unit variance (values up to ~3).
LAYER_NORM_TOL = {ms.float16: (4e-3, 4e-3), ms.float32: (1e-5, 1e-5)}

LAYER_NORM_BAD = [
    (lambda: ops.LayerNorm()(_t(2, 3, 4), _t(4), _t(4)), ValueError,
     r"LayerNorm: 'gamma' must have shape \(3, 4\) \(input_x.shape\[begin_params_axis:\]\), but got \(4,\)"),
    (lambda: ops.LayerNorm(begin_norm_axis=3)(_t(2, 3, 4), _t(3, 4), _t(3, 4)), ValueError,
     r"LayerNorm: 'begin_norm_axis' must be in \[-1, 3\)"),
    (lambda: ops.LayerNorm()(_t(2, 0), _t(0), _t(0)), ValueError, "there is nothing to normalize"),
    (lambda: ops.LayerNorm()(_t(2, 3, dtype=ms.int32), _t(3, dtype=ms.int32), _t(3, dtype=ms.int32)), TypeError,
     "LayerNorm: 'input_x' must have dtype in"),
]

RECORDS += [
    _layer_norm_record([(4, 3, 5), (1, 7, 1), (0, 3, 2)], grad_shape=[((3, 2, 3), (2, 3), (2, 3))]),
    _layer_norm_record([(3, 4, 5), (2, 3, 1)], begin_norm_axis=-1, begin_params_axis=-1, epsilon=1e-5),
    _layer_norm_record([(3, 4, 5)], begin_norm_axis=1, begin_params_axis=2, epsilon=1e-3),  # gamma over the last axis
    _layer_norm_record([(3, 4, 5)], begin_norm_axis=2, begin_params_axis=1, epsilon=1e-3),  # gamma over rows too
    _layer_norm_record([(3, 4)], begin_norm_axis=0, begin_params_axis=0, epsilon=1e-3),
]

# The functional forms, on the records' machinery (prim = the primitive they call).
RECORDS += [
    MultiOutputRecord(
        "BatchNorm", lambda x, mean, var, w, b: ops.batch_norm(x, mean, var, w, b, training=True, momentum=0.2, eps=1e-3),
        lambda x, mean, var, w, b: _batch_norm_ref(True, 1e-3, 0.2)(x, w, b, mean, var)[0],
        [_stats((4, 3, 2, 2))], DTYPES, low=0.5, high=2.0, tol=TOL,
        prim=lambda: _C.Primitive("BatchNorm", dict(is_training=True, epsilon=1e-3, momentum=0.2)),
        bad=[(lambda: ops.batch_norm(_t(2, 3), _t(3), np.ones(3), _t(3), _t(3)), TypeError,
              "batch_norm: 'running_var' must be a Tensor")]),
    MultiOutputRecord(
        "LayerNorm", lambda x, w, b: ops.layer_norm(x, (4, 5), w, b, eps=1e-4),
        lambda x, w, b: _layer_norm_ref(1, 1, 1e-4)(x, w, b)[0], [((3, 4, 5), (4, 5), (4, 5))], DTYPES,
        tol=LAYER_NORM_TOL, prim=lambda: _C.Primitive("LayerNorm", dict(epsilon=1e-4)),
        bad=[(lambda: ops.layer_norm(_t(2, 3, 4), (3,)), ValueError,
              r"layer_norm: 'normalized_shape' \(3,\) must be the trailing dimensions")]),
    MultiOutputRecord(
        "LayerNorm", lambda x: ops.layer_norm(x, 6), lambda x: _layer_norm_ref(-1, -1, 1e-5)(x, 1.0, 0.0)[0],
        [((2, 6),)], DTYPES, tol=LAYER_NORM_TOL, prim=lambda: _C.Primitive("LayerNorm", dict(epsilon=1e-5)),
        grad_shapes=[((2, 6), (6,), (6,))]),
]


def _layer_norm_grad_ref(begin_norm_axis, begin_params_axis):
    def reference(x, dy, rstd, mean, gamma):
        axes = tuple(range(begin_norm_axis % x.ndim, x.ndim))
        lead = tuple(range(begin_params_axis % x.ndim))
        xhat, g = (x - mean) * rstd, dy * gamma
        dx = rstd * (g - g.mean(axis=axes, keepdims=True) - xhat * (g * xhat).mean(axis=axes, keepdims=True))
        return [dx, (dy * xhat).sum(axis=lead), dy.sum(axis=lead)]
    return reference


def _layer_norm_grad_record(x_shape, begin_norm_axis=1, begin_params_axis=1):
    attrs = dict(begin_norm_axis=begin_norm_axis, begin_params_axis=begin_params_axis)
    norm, params = begin_norm_axis % len(x_shape), begin_params_axis % len(x_shape)
    stat = x_shape[:norm] + (1,) * (len(x_shape) - norm)
    shapes = [(x_shape, x_shape, stat, stat, x_shape[params:])]
    return MultiOutputRecord(
        "LayerNormGrad", lambda *t: ops.LayerNormGrad(**attrs)(*t), _layer_norm_grad_ref(begin_norm_axis, begin_params_axis),
        shapes, DTYPES, low=0.5, high=2.0, tol=LAYER_NORM_TOL, prim=lambda: _C.Primitive("LayerNormGrad", attrs),
        grad_outputs=(0, 1, 2),
        bad=[(lambda: ops.LayerNormGrad()(_t(2, 3), _t(2, 3), _t(2), _t(2, 1), _t(3)), ValueError,
              r"LayerNormGrad: 'rstd' must have shape \(2, 1\) \(LayerNorm's rstd\), but got \(2,\)")])


RECORDS += [
    _layer_norm_grad_record((3, 4, 2)),
    _layer_norm_grad_record((2, 3, 4), begin_norm_axis=1, begin_params_axis=2),
    _layer_norm_grad_record((2, 3, 4), begin_norm_axis=2, begin_params_axis=1),
    _layer_norm_grad_record((3, 5), begin_norm_axis=-1, begin_params_axis=0),
]


def _batch_norm_grad_ref(training, epsilon):
    def reference(dy, x, scale, mean, var):
        axes = (0,) + tuple(range(2, x.ndim))
        shape = (1, -1) + (1,) * (x.ndim - 2)
        rstd = (1 / np.sqrt(var + epsilon)).reshape(shape)
        xhat = (x - mean.reshape(shape)) * rstd
        g = dy * scale.reshape(shape)
        if training:
            dx = rstd * (g - g.mean(axis=axes, keepdims=True) - xhat * (g * xhat).mean(axis=axes, keepdims=True))
        else:
            dx = g * rstd
        return [dx, (dy * xhat).sum(axis=axes), dy.sum(axis=axes)]
    return reference


def _batch_norm_grad_record(training, x_shapes, epsilon=1e-5):
    attrs = dict(is_training=training, epsilon=epsilon)
    shapes = [(s, s) + ((s[1],),) * 3 for s in x_shapes]
    return MultiOutputRecord(
        "BatchNormGrad", lambda *t: ops.BatchNormGrad(**attrs)(*t), _batch_norm_grad_ref(training, epsilon), shapes,
        DTYPES, low=0.5, high=2.0, tol={ms.float16: (8e-3, 8e-3), ms.float32: (2e-5, 2e-5)},
        prim=lambda: _C.Primitive("BatchNormGrad", attrs), grad_shapes=shapes[:1], grad_outputs=(0, 1, 2),
        bad=[(lambda: ops.BatchNormGrad()(_t(2, 3, 2), _t(2, 3), _t(3), _t(3), _t(3)), ValueError,
              r"BatchNormGrad: 'y_backprop' Tensor\[Float32\]\(2, 3, 2\) must match 'x'")])


RECORDS += [
    _batch_norm_grad_record(True, [(3, 2, 2, 3), (4, 3), (0, 2, 2, 2)]),
    _batch_norm_grad_record(False, [(2, 3, 2, 2), (3, 2)], epsilon=1e-3),
]


def _group_norm_ref(groups, eps):
    def reference(x, w, b):
        g = x.reshape(x.shape[0], groups, -1)
        y = ((g - g.mean(axis=2, keepdims=True)) / np.sqrt(g.var(axis=2, keepdims=True) + eps)).reshape(x.shape)
        shape = (1, -1) + (1,) * (x.ndim - 2)
        return y * w.reshape(shape) + b.reshape(shape)
    return reference


# ops.group_norm: LayerNorm over each group, then the per-channel affine.
RECORDS.append(MultiOutputRecord(
    "LayerNorm", lambda x, w, b: ops.group_norm(x, 2, w, b, eps=1e-4), _group_norm_ref(2, 1e-4),
    [((3, 4, 2, 3), (4,), (4,)), ((2, 6, 5), (6,), (6,))], DTYPES, tol=LAYER_NORM_TOL,
    prim=lambda: _C.Primitive("LayerNorm", dict(begin_norm_axis=2, begin_params_axis=2, epsilon=1e-4)),
    grad_shapes=[((2, 2, 6), (6,), (6,))],
    bad=[(lambda: ops.group_norm(_t(2, 6, 4), 4), ValueError,
          "group_norm: 'num_groups' must be a positive int dividing the 6 channels, but got 4")]))


def _group_norm_ref(num_groups, epsilon):
    def reference(x, gamma, beta):
        n, c = x.shape[:2]
        grouped = x.reshape(n, num_groups, c // num_groups * int(np.prod(x.shape[2:])))
        mean, var = grouped.mean(axis=2), grouped.var(axis=2)
        xhat = ((grouped - mean[..., None]) / np.sqrt(var[..., None] + epsilon)).reshape(x.shape)
        channel = (1, c) + (1,) * (x.ndim - 2)
        return [xhat * gamma.reshape(channel) + beta.reshape(channel), mean, 1 / np.sqrt(var + epsilon)]
    return reference


def _group_norm_record(x_shapes, num_groups, epsilon=1e-5):
    attrs = dict(num_groups=num_groups, epsilon=epsilon)
    shapes = [(s, (s[1],), (s[1],)) for s in x_shapes]
    return MultiOutputRecord(
        "GroupNorm", lambda x, g, b: ops.GroupNorm(**attrs)(x, g, b), _group_norm_ref(num_groups, epsilon), shapes,
        DTYPES, tol=LAYER_NORM_TOL, prim=lambda: _C.Primitive("GroupNorm", attrs), grad_shapes=shapes[:1],
        bad=GROUP_NORM_BAD, grad_outputs=(0, 1, 2))  # mean and rstd are differentiable, as LayerNorm's


GROUP_NORM_BAD = [
    (lambda: ops.GroupNorm(num_groups=3)(_t(2, 4, 3), _t(4), _t(4)), ValueError,
     "GroupNorm: 'num_groups' must be positive and divide the 4 channels of 'x', but got 3"),
    (lambda: ops.GroupNorm(num_groups=2)(_t(4), _t(4), _t(4)), ValueError, r"GroupNorm: 'x' must be \(N, C, \*\)"),
    (lambda: ops.GroupNorm(num_groups=2)(_t(2, 4, 3), _t(2), _t(4)), ValueError,
     r"GroupNorm: 'gamma' must have shape \(4,\) \(one per channel of x\), but got \(2,\)"),
    (lambda: ops.GroupNorm(num_groups=2)(_t(2, 4), _t(4), _t(4, dtype=ms.float64)), TypeError,
     "GroupNorm: 'beta' must have the dtype of 'x'"),
    (lambda: ops.GroupNorm(num_groups=2, epsilon=0.0)(_t(2, 4), _t(4), _t(4)), ValueError,
     "GroupNorm: 'epsilon' must be positive"),
    (lambda: ops.group_norm(_t(2, 4, 3), 3), ValueError,
     "group_norm: 'num_groups' must be a positive int dividing the 4 channels, but got 3"),
]


def _group_norm_grad_ref(num_groups):
    def reference(x, dy, rstd, mean, gamma):
        n, c = x.shape[:2]
        channel = (1, c) + (1,) * (x.ndim - 2)
        grouped = lambda v: v.reshape(n, num_groups, c // num_groups * int(np.prod(x.shape[2:])))  # noqa: E731
        xhat = (grouped(x) - mean[..., None]) * rstd[..., None]
        g = grouped(dy * gamma.reshape(channel))
        dx = rstd[..., None] * (g - g.mean(axis=2, keepdims=True) - xhat * (g * xhat).mean(axis=2, keepdims=True))
        axes = (0,) + tuple(range(2, x.ndim))
        return [dx.reshape(x.shape), (dy * xhat.reshape(x.shape)).sum(axis=axes), dy.sum(axis=axes)]
    return reference


def _group_norm_grad_record(x_shape, num_groups):
    attrs = dict(num_groups=num_groups)
    stat = (x_shape[0], num_groups)
    shapes = [(x_shape, x_shape, stat, stat, (x_shape[1],))]
    return MultiOutputRecord(
        "GroupNormGrad", lambda *t: ops.GroupNormGrad(**attrs)(*t), _group_norm_grad_ref(num_groups), shapes, DTYPES,
        low=0.5, high=2.0, tol=LAYER_NORM_TOL, prim=lambda: _C.Primitive("GroupNormGrad", attrs),
        grad_outputs=(0, 1, 2),
        bad=[(lambda: ops.GroupNormGrad(num_groups=2)(_t(2, 4), _t(2, 4), _t(2, 1), _t(2, 2), _t(4)), ValueError,
              r"GroupNormGrad: 'rstd' must have shape \(2, 2\) \(GroupNorm's rstd\), but got \(2, 1\)")])


RECORDS += [
    _group_norm_record([(3, 4, 5), (2, 6, 2, 3), (1, 2), (0, 4, 3)], num_groups=2),
    _group_norm_record([(2, 6, 3, 2)], num_groups=6, epsilon=1e-3),  # InstanceNorm's grouping
    _group_norm_record([(2, 3, 7)], num_groups=1),                    # LayerNorm's over (C, *)
    _group_norm_grad_record((3, 4, 5), 2),
    _group_norm_grad_record((2, 6, 2, 2), 3),
    _group_norm_grad_record((2, 2), 1),
]
