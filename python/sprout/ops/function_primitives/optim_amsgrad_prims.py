"""Optimizer-update primitives the C++ registry lacks: ``ops.ApplyAdamWithAmsgrad``,
``ops.ApplyAdamWithAmsgradV2`` and ``ops.SparseApplyAdagrad``.

Like the registry's Apply* ops (Note [In-place updates]) they write their state in place: each new value is
computed out of place and written with Assign, the graph-safe write optimizers use, so a Parameter updated
inside a compiled Cell keeps the write. They return the written tensors (in compiled code, Assign's outputs,
which carry the writes' ordering).
"""
import numbers

from sprout import _C
from sprout._frontend import is_building_graph
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import unsorted_segment_sum
from sprout.ops.function_primitives._attr_checks import check_bool, check_float
from sprout.ops.primitive import Primitive, prim_attr_register

__all__ = ["ApplyAdamWithAmsgrad", "ApplyAdamWithAmsgradV2", "SparseApplyAdagrad"]


def _state(api, arg, x, like, dtypes):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Parameter or Tensor (it is updated in place), but got "
                        f"{type(x).__name__}")
    if x.dtype not in dtypes:
        raise TypeError(f"{api}: '{arg}' must be a {' or '.join(str(d) for d in dtypes)} tensor, but got {x.dtype}")
    if like is not None and tuple(x.shape) != tuple(like.shape):
        raise ValueError(f"{api}: '{arg}' must have the shape of 'var' {like.shape}, but got {x.shape}")
    return x


def _scalar(api, arg, value, dtype):
    """A number or a one-element tensor, as a 0-d tensor of var's dtype."""
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"{api}: '{arg}' must be a scalar (one element), but got shape {value.shape}")
        if value.dtype not in mstype.float_type:
            raise TypeError(f"{api}: '{arg}' must be a floating-point tensor, but got {value.dtype}")
        value = value.reshape(())
        return value if value.dtype == dtype else prim("Cast")(value, dtype)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{api}: '{arg}' must be a float or a Tensor, but got {type(value).__name__}")
    return Tensor(float(value), dtype)


def _write(targets_and_values):
    """Assigns each value to its target; eagerly the targets' memory, compiled the Assign outputs."""
    written = tuple(prim("Assign")(t, v) for t, v in targets_and_values)
    return written if is_building_graph() else tuple(_C.detach(t) for t, _ in targets_and_values)


def _amsgrad_step(api, var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, dtypes):
    var = _state(api, "var", var, None, dtypes)
    m, v, vhat = (_state(api, n, x, var, dtypes) for n, x in (("m", m), ("v", v), ("vhat", vhat)))
    if not isinstance(grad, Tensor):
        raise TypeError(f"{api}: 'grad' must be a Tensor, but got {type(grad).__name__}")
    grad = _state(api, "grad", grad, var, dtypes)
    d = var.dtype
    b1p, b2p, lr = (_scalar(api, n, x, d) for n, x in (("beta1_power", beta1_power), ("beta2_power", beta2_power),
                                                        ("lr", lr)))
    b1, b2, eps = (_scalar(api, n, x, d) for n, x in (("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)))
    one = Tensor(1.0, d)
    sub, mul, add = prim("Sub"), prim("Mul"), prim("Add")
    lr_t = prim("Div")(mul(lr, prim("Sqrt")(sub(one, b2p))), sub(one, b1p))
    m_new = add(mul(b1, m), mul(sub(one, b1), grad))
    v_new = add(mul(b2, v), mul(sub(one, b2), mul(grad, grad)))
    vhat_new = prim("Maximum")(vhat, v_new)
    var_new = sub(var, prim("Div")(mul(lr_t, m_new), add(prim("Sqrt")(vhat_new), eps)))
    return _write(((var, var_new), (m, m_new), (v, v_new), (vhat, vhat_new)))


class ApplyAdamWithAmsgrad(Primitive):
    """``ApplyAdamWithAmsgrad(beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False)(var, m, v, vhat,
    beta1_power, beta2_power, lr, grad)``: one AMSGrad step, in place: m and v are Adam's moments, vhat their
    running maximum, var -= lr sqrt(1 - beta2^t) / (1 - beta1^t) m / (sqrt(vhat) + epsilon). Returns
    (var, m, v, vhat)."""

    @prim_attr_register
    def __init__(self, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False):
        for arg, value in (("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)):
            check_float("ApplyAdamWithAmsgrad", arg, value)
        check_bool("ApplyAdamWithAmsgrad", "use_locking", use_locking)
        self.init_prim_io_names(["var", "m", "v", "vhat", "beta1_power", "beta2_power", "lr", "grad"],
                                ["var", "m", "v", "vhat"])

    def __call__(self, var, m, v, vhat, beta1_power, beta2_power, lr, grad):
        return _amsgrad_step("ApplyAdamWithAmsgrad", var, m, v, vhat, beta1_power, beta2_power, lr, self.beta1,
                             self.beta2, self.epsilon, grad, (mstype.float16, mstype.float32))


class ApplyAdamWithAmsgradV2(Primitive):
    """``ApplyAdamWithAmsgradV2(use_locking=False)(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2,
    epsilon, grad)``: ApplyAdamWithAmsgrad with beta1, beta2 and epsilon as inputs; float64 allowed."""

    @prim_attr_register
    def __init__(self, use_locking=False):
        check_bool("ApplyAdamWithAmsgradV2", "use_locking", use_locking)
        self.init_prim_io_names(["var", "m", "v", "vhat", "beta1_power", "beta2_power", "lr", "beta1", "beta2",
                                 "epsilon", "grad"], ["var", "m", "v", "vhat"])

    def __call__(self, var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
        return _amsgrad_step("ApplyAdamWithAmsgradV2", var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2,
                             epsilon, grad, (mstype.float16, mstype.float32, mstype.float64))


class SparseApplyAdagrad(Primitive):
    """``SparseApplyAdagrad(lr, update_slots=True, use_locking=False)(var, accum, grad, indices)``: Adagrad on
    the rows of var named by `indices` (grad holds one row per index; repeated indices add up first): accum +=
    grad^2 (if update_slots), var -= lr grad / sqrt(accum). Other rows are untouched. Returns (var, accum)."""

    @prim_attr_register
    def __init__(self, lr, update_slots=True, use_locking=False):
        check_float("SparseApplyAdagrad", "lr", lr)
        check_bool("SparseApplyAdagrad", "update_slots", update_slots)
        check_bool("SparseApplyAdagrad", "use_locking", use_locking)
        self.init_prim_io_names(["var", "accum", "grad", "indices"], ["var", "accum"])

    def __call__(self, var, accum, grad, indices):
        api = "SparseApplyAdagrad"
        dtypes = (mstype.float16, mstype.float32)
        var = _state(api, "var", var, None, dtypes)
        accum = _state(api, "accum", accum, var, dtypes)
        if not isinstance(indices, Tensor) or indices.dtype not in (mstype.int32, mstype.int64) or indices.ndim != 1:
            raise TypeError(f"{api}: 'indices' must be a 1-d int32 or int64 tensor, but got "
                            f"{(indices.dtype, indices.shape) if isinstance(indices, Tensor) else type(indices).__name__}")
        if not isinstance(grad, Tensor) or grad.dtype != var.dtype:
            raise TypeError(f"{api}: 'grad' must be a tensor of var's dtype {var.dtype}, but got "
                            f"{grad.dtype if isinstance(grad, Tensor) else type(grad).__name__}")
        if var.ndim == 0 or tuple(grad.shape) != (indices.shape[0],) + tuple(var.shape[1:]):
            raise ValueError(f"{api}: 'grad' must have shape {(indices.shape[0],) + tuple(var.shape[1:])} (one row of "
                             f"'var' {var.shape} per index), but got {grad.shape}")
        rows = var.shape[0]
        dense = unsorted_segment_sum(grad, indices, rows)                 # repeated indices summed
        hits = unsorted_segment_sum(prim("OnesLike")(indices).astype(var.dtype), indices, rows)
        touched = prim("Greater")(hits.reshape((rows,) + (1,) * (var.ndim - 1)), Tensor(0.0, var.dtype))
        touched = prim("BroadcastTo", shape=tuple(var.shape))(touched)
        accum_new = prim("Add")(accum, prim("Mul")(dense, dense)) if self.update_slots else accum
        safe = prim("Select")(touched, accum_new, prim("OnesLike")(accum_new))
        step = prim("Div")(prim("Mul")(dense, Tensor(self.lr, var.dtype)), prim("Sqrt")(safe))
        var_new = prim("Select")(touched, prim("Sub")(var, step), var)
        accum_new = prim("Select")(touched, accum_new, accum)
        return _write(((var, var_new), (accum, accum_new)))
