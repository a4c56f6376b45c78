"""Automatic differentiation in PYNATIVE mode: ``ms.grad``, ``ms.value_and_grad``,
``ops.GradOperation``, ``ops.vjp``, ``ops.jvp``, ``ms._no_grad``.

The C++ tape records ops while a grad scope is open and the backward pass runs the ops' registered
bprop rules (Note [Eager autodiff], src/runtime/autograd/graph.h). Nesting gives higher orders:
a grad computed inside another grad's function is recorded by the outer one.
"""
import numbers
import sys

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common import grad_hooks as _grad_hooks
from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim

_ONES_LIKE = prim("OnesLike")


class _no_grad:
    """Context manager (and decorator) pausing gradient recording: ops inside are constants to autodiff."""

    def __enter__(self):
        self._guard = _C.NoGrad()
        self._guard.__enter__()
        return self

    def __exit__(self, *exc):
        self._guard.__exit__(*exc)
        return False

    def __call__(self, fn):
        def wrapper(*args, **kwargs):
            with _no_grad():
                return fn(*args, **kwargs)
        return wrapper


def _flatten_tensors(value):
    """The tensors of a (nested) tuple/list output, in order."""
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _flatten_tensors(v)]
    return []


def _positions(grad_position, n_args, api):
    if grad_position is None:
        return ()
    single = isinstance(grad_position, numbers.Integral) and not isinstance(grad_position, bool)
    positions = (grad_position,) if single else grad_position
    if not isinstance(positions, tuple) or not all(isinstance(p, numbers.Integral) and not isinstance(p, bool)
                                                   for p in positions):
        raise TypeError(f"{api}: 'grad_position' must be an int or a tuple of ints, but got {grad_position!r}")
    for p in positions:
        if not -n_args <= p < n_args:
            raise ValueError(f"{api}: 'grad_position' {p} is out of range for a function called with "
                             f"{n_args} positional argument(s)")
    return tuple(p % n_args for p in positions)


def _weights_list(weights, api):
    if weights is None:
        return []
    if isinstance(weights, Parameter):
        return [weights]
    weights = list(weights)
    for w in weights:
        if not isinstance(w, Parameter):
            raise TypeError(f"{api}: 'weights' must be Parameters (a ParameterTuple or list), but one is "
                            f"{type(w).__name__}")
    return weights


def _differentiable(t):
    return mstype.is_floating_type(t.dtype)


def _check_eager(api, value):
    """The tape records eager ops: a value being compiled (ms.jit, GRAPH_MODE) has none to record."""
    from sprout._frontend.graph_tensor import GraphTensor  # here: the frontend imports this module
    if isinstance(value, GraphTensor):
        raise RuntimeError(f"{api}: runs in PYNATIVE mode only, but was called inside compiled code (ms.jit or "
                           "GRAPH_MODE); call it outside, or use ms.grad, which compiles")


def _taped_call(fn, args, positions, weights, api):
    """Runs fn with the chosen inputs and weights tracked. Returns (output, targets, restore)."""
    args = list(args)
    targets = []
    for p in positions:
        a = args[p]
        _check_eager(api, a)
        if not isinstance(a, Tensor):
            raise TypeError(f"{api}: cannot differentiate with respect to the input at position {p}: expected a "
                            f"Tensor, but got {type(a).__name__}")
        if _differentiable(a):
            args[p] = _C.track(a)
            if _grad_hooks._pending:
                _grad_hooks.attach_pending_hooks(a, args[p])
        targets.append(args[p])
    saved = [(w, _C.track_inplace(w)) for w in weights]
    if _grad_hooks._pending:
        for w in weights:
            _grad_hooks.attach_pending_hooks(w, w)

    def restore():
        for w, token in saved:
            _C.restore_autograd(w, token)

    try:
        with _C.GradScope():
            out = fn(*args)
    except BaseException:
        restore()
        raise
    return out, targets + list(weights), restore


def _library_stager():
    """The stager of the graph being built while library code runs natively in it (a library Cell's
    construct calling a gradient function, TrainOneStepCell's), else None."""
    calls = sys.modules.get("sprout._frontend.calls")
    return calls.current_stager() if calls is not None else None


def _stage_gradient(stager, grad_fn, args):
    """The gradient function called from library code while a graph is staged: the compiler's gradient, as
    when user code calls it (the stager intercepts that call)."""
    from sprout._frontend.autodiff import stage_grad
    return stage_grad(stager, grad_fn._sprout_grad, list(args), None)


def _split_aux(out, has_aux, api, aux_as_tuple=False):
    """(main output, auxiliary outputs detached). grad gives the auxiliary outputs as a tuple always, vjp and
    jvp a lone one unwrapped (MindSpore's conventions)."""
    if not has_aux:
        return out, None
    if not isinstance(out, tuple) or len(out) < 2:
        raise ValueError(f"{api}: with has_aux=True the function must return a tuple (output, aux...), but it "
                         f"returned {type(out).__name__}")
    aux = tuple(_C.detach(a) if isinstance(a, Tensor) else a for a in out[1:])
    return out[0], aux[0] if len(aux) == 1 and not aux_as_tuple else aux


def _ones_like(t):
    """Ones of t's shape and dtype, a constant even while an outer grad records (through the OnesLike
    primitive: a tenth of the time of an initialized Tensor, which goes through NumPy)."""
    with _C.NoGrad():
        return _ONES_LIKE(t)


def _check_sens(sens, roots, api):
    sens_list = _flatten_tensors(sens)
    if len(sens_list) != len(roots):
        raise ValueError(f"{api}: the sensitivity has {len(sens_list)} tensor(s) but the function returned "
                         f"{len(roots)}")
    for s, r in zip(sens_list, roots):
        if tuple(s.shape) != tuple(r.shape):
            raise ValueError(f"{api}: the sensitivity has shape {s.shape} but the output it weighs has shape "
                             f"{r.shape}; they must match")
    return [s.astype(r.dtype, copy=False) for s, r in zip(sens_list, roots)]


def _gradients(main, sens, targets, api):
    roots = [r for r in _flatten_tensors(main)]
    if not roots:
        raise TypeError(f"{api}: the function must return a Tensor (or tuple of Tensors) to differentiate, but "
                        f"returned {type(main).__name__}")
    sens_list = _check_sens(sens, roots, api) if sens is not None else [_ones_like(r) for r in roots]
    keep = [i for i, r in enumerate(roots) if _differentiable(r)]
    return _C.backward([roots[i] for i in keep], [sens_list[i] for i in keep], targets)


def _format(grads, n_positions, weights, single_position, return_ids, positions):
    pos_grads = grads[:n_positions]
    weight_grads = grads[n_positions:]
    if return_ids:
        pos_grads = [(p, g) for p, g in zip(positions, pos_grads)]
        weight_grads = [(w.name, g) for w, g in zip(weights, weight_grads)]
    pos_part = pos_grads[0] if single_position else tuple(pos_grads)
    if not weights:
        return pos_part
    if n_positions == 0:
        return tuple(weight_grads)
    return pos_part, tuple(weight_grads)


def _grad_impl(fn, grad_position, weights, has_aux, return_ids, sens_param, with_value, api):
    weight_list = _weights_list(weights, api)
    if not isinstance(sens_param, bool):
        raise TypeError(f"{api}: 'sens_param' must be a bool, but got {type(sens_param).__name__}")
    if grad_position is None and not weight_list:
        raise ValueError(f"{api}: 'grad_position' and 'weights' cannot both be None")
    single = isinstance(grad_position, numbers.Integral) and not isinstance(grad_position, bool)

    positions_by_arity = {}  # _positions checks with ABCs: once per number of arguments

    def wrapper(*args):
        stager = _library_stager()
        if stager is not None:
            return _stage_gradient(stager, wrapper, args)
        sens = None
        if sens_param:  # the sensitivity (the main output's cotangent) comes last
            if not args:
                raise ValueError(f"{api}: sens_param=True needs the sensitivity as the last argument")
            args, sens = args[:-1], args[-1]
        positions = positions_by_arity.get(len(args))
        if positions is None:
            positions = positions_by_arity[len(args)] = _positions(grad_position, len(args), api)
        out, targets, restore = _taped_call(fn, args, positions, weight_list, api)
        try:
            main, aux = _split_aux(out, has_aux, api, aux_as_tuple=True)
            grads = _gradients(main, sens, targets, api)
        finally:
            restore()
        result = _format(grads, len(positions), weight_list, single, return_ids, positions)
        if with_value:  # the value is what fn returned, auxiliary outputs included
            return ((main,) + aux if has_aux else main), result
        return (result, aux) if has_aux else result

    # What graph mode needs to differentiate the same function (sprout/_frontend/autodiff.py).
    wrapper._sprout_grad = {"api": api, "fn": fn, "grad_position": grad_position, "weights": weight_list,
                            "has_aux": has_aux, "return_ids": return_ids, "with_value": with_value,
                            "sens_param": sens_param,
                            "single": single}
    return wrapper


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False, sens_param=False):
    """A function computing the gradient of `fn` with respect to inputs and/or weights (MindSpore 2.x). With
    has_aux, fn returns (output, aux...) and the result is (gradients, (aux...)); with sens_param, the last
    argument is the output's cotangent (the gradient flowing in) instead of ones."""
    return _grad_impl(fn, grad_position, weights, has_aux, return_ids, sens_param, False, "grad")


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False, sens_param=False):
    """Like grad, returning ``(fn(*args), gradients)``."""
    return _grad_impl(fn, grad_position, weights, has_aux, return_ids, sens_param, True, "value_and_grad")


class GradOperation:
    """``ops.GradOperation(get_all=False, get_by_list=False, sens_param=False)``: a higher-order function
    producing the gradient function of `fn` (and of the Parameters given as `weights`)."""

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        for name, value in (("get_all", get_all), ("get_by_list", get_by_list), ("sens_param", sens_param)):
            if not isinstance(value, bool):
                raise TypeError(f"GradOperation: '{name}' must be a bool, but got {type(value).__name__}")
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param

    def __call__(self, fn, weights=None):
        if self.get_by_list and weights is None:
            raise ValueError("GradOperation: get_by_list=True needs the Parameters: grad_op(fn, weights)")
        weight_list = _weights_list(weights, "GradOperation") if self.get_by_list else []

        def grad_fn(*args):
            stager = _library_stager()
            if stager is not None:
                return _stage_gradient(stager, grad_fn, args)
            sens = None
            if self.sens_param:
                if not args:
                    raise ValueError("GradOperation: sens_param=True needs the sensitivity as the last argument")
                args, sens = args[:-1], args[-1]
            positions = tuple(range(len(args))) if self.get_all else ((0,) if args else ())
            if not self.get_all and not args and not self.get_by_list:
                raise ValueError("GradOperation: the function has no input to differentiate with respect to")
            if not self.get_all and self.get_by_list:
                positions = ()
            out, targets, restore = _taped_call(fn, args, positions, weight_list, "GradOperation")
            try:
                grads = _gradients(out, sens, targets, "GradOperation")
            finally:
                restore()
            input_grads, weight_grads = grads[:len(positions)], tuple(grads[len(positions):])
            if self.get_by_list and self.get_all:
                return tuple(input_grads), weight_grads
            if self.get_by_list:
                return weight_grads
            return tuple(input_grads) if self.get_all else input_grads[0]

        grad_fn._sprout_grad = {"api": "GradOperation", "fn": fn, "op": self, "weights": weight_list}
        return grad_fn


def vjp(fn, *inputs, weights=None, has_aux=False):
    """``(outputs, vjp_fn)``: vjp_fn(v) gives v^T J with respect to each input (MindSpore 2.x ops.vjp)."""
    weight_list = _weights_list(weights, "vjp")
    out, targets, restore = _taped_call(fn, inputs, tuple(range(len(inputs))), weight_list, "vjp")
    restore()
    main, aux = _split_aux(out, has_aux, "vjp")

    def vjp_fn(*v):
        grads = _gradients(main, v if len(v) != 1 else v[0], targets, "vjp")
        input_grads = tuple(grads[:len(inputs)])
        result = input_grads if len(inputs) != 1 else input_grads[0]
        return (result, tuple(grads[len(inputs):])) if weight_list else result

    return (main, vjp_fn, aux) if has_aux else (main, vjp_fn)


def jvp(fn, inputs, v, has_aux=False):
    """``(outputs, J v)``: the Jacobian-vector product, by differentiating the vjp with respect to its
    cotangent (the vjp is linear in it, so this is exact)."""
    inputs = inputs if isinstance(inputs, tuple) else (inputs,)
    v = v if isinstance(v, tuple) else (v,)
    if len(v) != len(inputs):
        raise ValueError(f"jvp: 'v' has {len(v)} tensor(s) but 'inputs' has {len(inputs)}")
    for vi, xi in zip(v, inputs):
        if tuple(vi.shape) != tuple(xi.shape):
            raise ValueError(f"jvp: 'v' entry of shape {vi.shape} does not match its input of shape {xi.shape}")
    with _C.GradScope():
        out, targets, restore = _taped_call(fn, inputs, tuple(range(len(inputs))), [], "jvp")
        restore()
        main, aux = _split_aux(out, has_aux, "jvp")
        roots = [r for r in _flatten_tensors(main) if _differentiable(r)]
        cotangents = [_C.track(_ones_like(r)) for r in roots]
        vjps = _C.backward(roots, cotangents, targets)  # recorded: linear in the cotangents
    tangents = _C.backward(vjps, [vi.astype(g.dtype, copy=False) for vi, g in zip(v, vjps)], cotangents)
    tangents = [_C.detach(t) for t in tangents]
    jvp_out = tangents[0] if isinstance(main, Tensor) else tuple(tangents)
    return (main, jvp_out, aux) if has_aux else (main, jvp_out)
