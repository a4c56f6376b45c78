"""``ms.jit`` / ``ms.ms_function`` and GRAPH_MODE Cells: compile on first call, cache by signature.

A compiled function keeps one Program per input signature (dtypes and shapes of the tensor
arguments, values of the others): the same signature runs the cached Program, a new one compiles
again. Parameters the function reads are inputs of the Program, passed at every call, so updates
made outside (or inside, in place) are always seen.
"""
import functools
import inspect
import time

from sprout import _C
from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor
from sprout._frontend import calls
from sprout._frontend import values as V
from sprout._frontend.graph_tensor import GraphTensor
from sprout._frontend.context import CompileContext
from sprout.nn.cell import training_state


class CompiledGraph:
    def __init__(self, program, input_template, output_template, parameters, compile_ms):
        self.program = program
        self.input_template = input_template
        self.output_template = output_template
        self.parameters = parameters
        self.compile_ms = compile_ms

    def __call__(self, args):
        inputs = V.input_leaves(args, self.input_template) + self.parameters
        outputs = self.program.run(inputs)
        return V.output_value(self.output_template, list(outputs))


_dump_counter = [0]


def stage_function(fn, args, kwargs, name):
    """Stages fn(*args, **kwargs) into a graph: (context, input template, output template). The graph,
    ``context.entry``, takes the tensors of the arguments, then ``context.parameters``."""
    ctx = CompileContext(name)
    _C.ir.begin_trace(GraphTensor, Parameter, ctx.load_parameter)
    try:
        ctx.set_graph(ctx.entry)
        template, fg = calls.stage_entry(ctx, fn, args, kwargs)
    finally:
        _C.ir.end_trace()
    return ctx, template, fg.template


def compile_function(fn, args, kwargs, name):
    """Stages fn(*args, **kwargs), runs the compiler, returns a CompiledGraph."""
    from sprout.context import get_context
    start = time.perf_counter()
    ctx, template, output_template = stage_function(fn, args, kwargs, name)
    dump_dir, prefix = "", ""
    if get_context("save_graphs"):
        dump_dir = get_context("save_graphs_path")
        prefix = f"{name}_{_dump_counter[0]}_"
        _dump_counter[0] += 1
    program = _C.ir.compile(ctx.entry, dump_dir, prefix, verify=_VERIFY[0])
    return CompiledGraph(program, template, output_template, list(ctx.parameters), (time.perf_counter() - start) * 1e3)


_VERIFY = [False]  # tests turn the IR verifier on after every pass


def _gradient_entry(grad_fn):
    """jit(ms.grad(f)): the function made by ms.grad/value_and_grad/GradOperation has no source to
    stage, so the entry is a call of it, which staging turns into the J transform of f."""
    def gradient(*args):
        return grad_fn(*args)
    gradient.__name__ = gradient.__qualname__ = getattr(grad_fn, "__name__", "gradient")
    return gradient


class JitFunction:
    """A function compiled to a graph on its first call with each new input signature."""

    def __init__(self, fn, obj=None, cache=None):
        functools.update_wrapper(self, fn)
        self.fn = _gradient_entry(fn) if getattr(fn, "_sprout_grad", None) is not None else fn
        self.obj = obj
        self._cache = {} if cache is None else cache
        # Plain positional parameters: the call's arguments are the bound values (no binding needed).
        params = inspect.signature(fn).parameters.values()
        self._plain = all(p.kind == p.POSITIONAL_OR_KEYWORD and p.default is p.empty for p in params)
        self._arity = len(params)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        bound = self.__dict__.setdefault("_bound", {})
        if id(obj) not in bound:
            bound[id(obj)] = JitFunction(self.fn, obj)
        return bound[id(obj)]

    def __call__(self, *args, **kwargs):
        if calls.active_context() is not None:
            raise RuntimeError(f"graph mode: {self.fn.__qualname__} (a jit function) was called from library code "
                               f"while compiling; call it from the compiled function itself")
        full_args = (self.obj,) + args if self.obj is not None else args
        if _C.is_recording():
            return self._call_on_tape(full_args, kwargs)
        if self._plain and not kwargs and len(full_args) == self._arity:  # the hot path: no binding
            key = (training_state(),) + tuple(_arg_key(a) for a in full_args)
            graph = self._cache.get(key)
            if graph is None:
                graph = self._cache[key] = compile_function(self.fn, full_args, kwargs, self.fn.__name__)
            return graph(full_args)
        return self.compiled(full_args, kwargs)(_bind_values(self.fn, full_args, kwargs))

    def _call_on_tape(self, args, kwargs):
        """Called while an eager gradient is being taken: the compiled forward runs, and the tape gets one
        node whose backward is the compiled gradient program of this function (its J transform)."""
        if kwargs:
            raise TypeError(f"{self.fn.__qualname__}: a compiled function differentiated in PYNATIVE mode takes "
                            f"positional arguments only")
        compiled = self.compiled(args, kwargs)
        with _C.NoGrad():
            out = compiled(_bind_values(self.fn, args, kwargs))
        outputs = _tensor_leaves(out)
        inputs = _tensor_leaves(args)
        if not outputs:
            return out
        vjp = compiled.__dict__.get("vjp")
        if vjp is None:
            vjp = compiled.vjp = JitFunction(_make_vjp(self.fn, args, compiled.parameters))

        def backward(douts):
            douts = [d if d is not None else _zeros_like(o) for d, o in zip(douts, outputs)]
            input_grads, weight_grads = vjp(*inputs, tuple(douts))
            return tuple(input_grads) + tuple(weight_grads)

        tracked = _C.record_custom(backward, inputs + list(compiled.parameters), outputs)
        return _replace_leaves(out, list(tracked))

    def compiled(self, args, kwargs):
        key = ((training_state(),) + tuple(_arg_key(a) for a in args)
               + tuple((k, _arg_key(v)) for k, v in sorted(kwargs.items())))
        graph = self._cache.get(key)
        if graph is None:
            graph = compile_function(self.fn, args, kwargs, self.fn.__name__)
            self._cache[key] = graph
        return graph

    @property
    def cache_size(self):
        return len(self._cache)


def _make_vjp(fn, args, parameters):
    """fn's vector-Jacobian product with respect to the tensors in its arguments and the Parameters it
    reads: vjp(*tensors, sens) -> (tensor gradients, Parameter gradients)."""
    from sprout.ops.composite.grad import GradOperation
    from sprout.common.parameter import ParameterTuple
    grad_op = GradOperation(get_all=True, get_by_list=True, sens_param=True)
    weights = ParameterTuple(parameters)

    def with_tensor_args(*tensors):
        return fn(*_replace_leaves(tuple(args), list(tensors)))

    with_tensor_args._sprout_stage = True  # staged from source although it lives in the library

    def vjp(*tensors_and_sens):
        return grad_op(with_tensor_args, weights)(*tensors_and_sens)

    vjp._sprout_stage = True  # differentiated again for higher orders: staged too
    return vjp


def _tensor_leaves(value):
    from sprout.common.tensor import Tensor
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _tensor_leaves(v)]
    return []


def _replace_leaves(value, tensors):
    from sprout.common.tensor import Tensor
    if isinstance(value, Tensor):
        return tensors.pop(0)
    if isinstance(value, (tuple, list)):
        return type(value)(_replace_leaves(v, tensors) for v in value)
    return value


def _zeros_like(t):
    from sprout.common.tensor import Tensor
    return Tensor(shape=t.shape, dtype=t.dtype, init="zeros")


def _arg_key(value):
    """The part of an argument that selects a compiled program: a tensor's dtype and shape (its values
    are inputs), everything else by value."""
    if isinstance(value, Tensor):
        return (value.dtype, value.shape)
    return V.signature(_real_signature(value))


def _real_signature(value):
    """A real argument's signature: tensors by dtype and shape (not identity), as graph inputs."""
    from sprout.common.tensor import Tensor
    if isinstance(value, Tensor):
        return _Spec(value.dtype, tuple(value.shape))
    if isinstance(value, (tuple, list)):
        return type(value)(_real_signature(v) for v in value)
    if isinstance(value, dict):
        return {k: _real_signature(v) for k, v in value.items()}
    return value


class _Spec(tuple):
    def __new__(cls, dtype, shape):
        return super().__new__(cls, ("tensor", dtype, shape))


def _bind_values(fn, args, kwargs):
    return tuple(calls.bind_arguments(fn, args, kwargs, fn.__code__.co_filename, None).values())


def jit(function=None, mode="PSJit", input_signature=None, hash_args=None, jit_config=None, compile_once=False):
    """``@ms.jit``: compiles the function (or Cell method) to a graph; see the module docstring."""
    if mode not in ("PSJit", "PIJit"):
        raise ValueError(f"jit: 'mode' must be 'PSJit' or 'PIJit', but got {mode!r}")

    def wrap(fn):
        if isinstance(fn, JitFunction):
            return fn
        if not callable(fn) or not hasattr(fn, "__code__"):
            raise TypeError(f"jit: expects a Python function or method, but got {type(fn).__name__}")
        return JitFunction(fn)

    return wrap(function) if function is not None else wrap


def ms_function(fn=None, obj=None, input_signature=None, hash_args=None, jit_config=None):
    """The older spelling of :func:`jit`."""
    return jit(fn) if fn is not None else jit
