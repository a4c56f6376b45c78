"""Calls while staging (Note [Staging] in stager.py): which callee is staged, which runs now.

  user functions and methods, user Cells' construct   staged from source, one graph per signature
  closures defined in staged code                      staged; inlined when they capture tensors
  library code (sprout.*), primitives, builtins         run now, on GraphTensors: they emit nodes
"""
import ast
import inspect
import types
from collections import OrderedDict

from sprout import _C
from sprout._frontend import values as V
from sprout._frontend.graph_tensor import GraphTensor
from sprout._frontend.source import GraphSyntaxError, function_source, unsupported, where
from sprout._frontend.context import Block, FunctionGraph, StagedClosure, is_library
from sprout._frontend.stager import Stager

_active = []   # the compile contexts being staged (a stack: staging never nests across threads)
_stagers = []  # the stagers whose native calls (library code) are running


def active_context():
    return _active[-1] if _active else None


def current_stager():
    return _stagers[-1] if _stagers else None


def call(stager, fn, args, kwargs, node):
    from sprout.nn.cell import Cell
    from sprout._frontend.jit import JitFunction
    if isinstance(fn, StagedClosure):
        return call_closure(stager, fn, args, kwargs, node)
    from sprout._frontend import autodiff as _ad
    from sprout.ops.composite.grad import jvp as _jvp, vjp as _vjp
    if isinstance(fn, _ad.StagedVjp):
        return fn(stager, list(args), node)
    if fn is _vjp:
        return _ad.stage_vjp(stager, args[0], list(args[1:]), kwargs.get("weights"), kwargs.get("has_aux", False),
                             node)
    if fn is _jvp:
        return stage_call(stager, _ad.jvp_in_graph, list(args), kwargs, node)
    grad_spec = getattr(fn, "_sprout_grad", None)
    if grad_spec is not None:
        from sprout._frontend.autodiff import stage_grad
        if kwargs:
            raise TypeError(f"{where(stager.src.file, node)}: gradient functions take positional arguments only")
        return stage_grad(stager, grad_spec, list(args), node)
    if isinstance(fn, JitFunction):
        fn = fn.fn if fn.obj is None else types.MethodType(fn.fn, fn.obj)
    if fn is print:  # the Print op: in program order, tensors printed when the graph runs
        from sprout.ops.operations import _print
        unknown = set(kwargs) - {"sep", "end", "flush"}
        if unknown or kwargs.get("end", "\n") != "\n":
            unsupported(stager.src.file, node, f"print with {', '.join(sorted(unknown)) or 'end'}=",
                        "print one line at a time, with sep= at most")
        fn, args, kwargs = _print, [tuple(args)], {"sep": kwargs.get("sep", " ")}
    if isinstance(fn, Cell):
        return call_cell(stager, fn, args, kwargs)
    if isinstance(fn, types.MethodType) and isinstance(fn.__func__, types.FunctionType) \
            and not is_library(fn.__func__):
        return stage_call(stager, fn.__func__, [fn.__self__] + list(args), kwargs, node)
    if isinstance(fn, types.FunctionType) and not is_library(fn):
        return stage_call(stager, fn, args, kwargs, node)
    if fn is range and any(isinstance(a, GraphTensor) for a in args):
        unsupported(stager.src.file, node, "range() with a tensor bound", "use a while loop with a tensor condition")
    _stagers.append(stager)
    try:
        return fn(*args, **kwargs)
    except GraphSyntaxError:
        raise
    except (TypeError, ValueError, RuntimeError) as e:
        if str(e).startswith(stager.src.file):
            raise
        raise type(e)(f"{where(stager.src.file, node)}: {e}") from None
    finally:
        _stagers.pop()


def call_cell(stager, cell, args, kwargs):
    from sprout.nn.cell import Cell
    if cell._backward_hooks or cell._backward_pre_hooks:
        raise RuntimeError(f"{type(cell).__name__}: backward hooks (register_backward_hook, register_backward_pre_hook) "
                           "run in PYNATIVE mode only, but the cell is being compiled (ms.jit or GRAPH_MODE) as part of "
                           "a larger graph; remove them (handle.remove()) or run in PYNATIVE mode")
    args = cell._cast_inputs(tuple(args))
    # Forward hooks run where Cell.__call__ runs them, staged like any function the source calls.
    for hook in list(cell._forward_pre_hooks.values()):
        replaced = call(stager, hook, [cell, args], {}, None)
        if replaced is not None:
            args = replaced if isinstance(replaced, tuple) else (replaced,)
    output = _call_construct(stager, cell, list(args), kwargs)
    for hook in list(cell._forward_hooks.values()):
        replaced = call(stager, hook, [cell, args, output], {}, None)
        if replaced is not None:
            output = replaced
    return output


def _call_construct(stager, cell, args, kwargs):
    from sprout.nn.cell import Cell
    construct = type(cell).construct
    construct = getattr(construct, "fn", construct)  # a @jit construct is staged like a plain one
    if type(cell).bprop is not Cell.bprop:
        return cell._cast_output(stage_custom_bprop_cell(stager, cell, construct, args, kwargs))
    if cell._recompute:
        return cell._cast_output(stage_recomputed_cell(stager, cell, construct, args, kwargs))
    if is_library(construct):
        _stagers.append(stager)
        try:
            return cell._cast_output(construct(cell, *args, **kwargs))
        finally:
            _stagers.pop()
    return cell._cast_output(stage_call(stager, construct, [cell] + args, kwargs, None))


def stage_custom_bprop_cell(stager, cell, construct, args, kwargs):
    """A Cell with its own bprop: construct gets its graph, ending in Depend(result, Partial(bprop_graph,
    inputs..., out...)), and autodiff calls that closure with the output's sensitivity."""
    ctx = stager.ctx
    env = bind_arguments(construct, [cell] + list(args), kwargs, stager.src.file, None)
    key = ("custom_bprop", construct.__code__, id(cell), tuple(V.signature(v) for v in env.values()))
    fg = ctx.functions.get(key)
    if fg is None:
        src = function_source(construct)
        fg = stage_function(ctx, src, construct.__globals__, _closure_env(construct), env, ctx.function_parent, key,
                            finish=False)
        if len(fg.returns) != 1:
            raise GraphSyntaxError(f"{src.file}: {type(cell).__name__}.construct must have exactly one return when the "
                                   f"Cell defines bprop")
        graph, out = fg.returns[0]
        inputs = [v for v in fg.staged_env.values()][1:]
        bprop_fn = type(cell).bprop
        bprop_env = bind_arguments(bprop_fn, [cell] + inputs + [out, out], {}, src.file, None)
        bfg = stage_function(ctx, function_source(bprop_fn), bprop_fn.__globals__, _closure_env(bprop_fn), bprop_env,
                             graph, None)
        if bfg is None:
            raise TypeError(f"{type(cell).__name__}.bprop must return tensors")
        if not finish_function(fg):
            raise TypeError(f"{type(cell).__name__}.construct must return tensors")
        bound = V.flatten(tuple(inputs) + (out,), V.tensor_leaves_template(tuple(inputs) + (out,)), graph)
        saved_graph = ctx.current_graph  # library code calling this cell goes on in the caller's graph
        ctx.set_graph(graph)
        try:
            graph.attach_custom_bprop(bfg.graph, bound)
        finally:
            ctx.set_graph(saved_graph)
    return emit_call(stager, fg, env, None)


def stage_recomputed_cell(stager, cell, construct, args, kwargs):
    """A Cell marked recompute(): its construct gets a graph of its own, marked so that autodiff recomputes its
    values in the backward graph (Note [Recomputed cells in compiled code] in src/compiler/autodiff.cc)."""
    ctx = stager.ctx
    env = bind_arguments(construct, [cell] + list(args), kwargs, stager.src.file, None)
    key = ("recompute", construct.__code__, id(cell), tuple(V.signature(v) for v in env.values()))
    fg = ctx.functions.get(key)
    if fg is None:
        native = construct if is_library(construct) else None
        fg = stage_function(ctx, function_source(construct), construct.__globals__, _closure_env(construct), env,
                            ctx.function_parent, key, native=native)
        if fg is None:
            raise TypeError(f"{type(cell).__name__}.construct must return tensors when the Cell is recomputed")
        fg.graph.set_recompute(True)
    return emit_call(stager, fg, env, None)


def bind_arguments(fn, args, kwargs, file, node):
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except TypeError as e:
        raise TypeError(f"{where(file, node)}: {fn.__qualname__}(): {e}") from None
    bound.apply_defaults()
    return dict(bound.arguments)


def _closure_env(fn):
    if not fn.__closure__:
        return {}
    env = {}
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__):
        try:
            env[name] = cell.cell_contents
        except ValueError:
            pass
    return env


def stage_call(stager, fn, args, kwargs, node):
    """Calls user function `fn`: emits a call of its graph for this signature (staging it if new)."""
    ctx = stager.ctx
    env = bind_arguments(fn, args, kwargs, stager.src.file, node)
    key = (fn.__code__, tuple(id(c) for c in fn.__closure__ or ()), tuple(V.signature(v) for v in env.values()))
    fg = ctx.functions.get(key)
    if fg is None:
        fg = stage_function(ctx, function_source(fn), fn.__globals__, _closure_env(fn), env, ctx.function_parent, key)
        if fg is None:  # it returns something a graph cannot (a closure over its tensors): inline it
            return stage_inline(stager, function_source(fn), fn.__globals__, _closure_env(fn), env)
    return emit_call(stager, fg, env, node)


def stage_function(ctx, src, globals_, closure_env, env, parent, key, finish=True, native=None):
    """Stages `src` with arguments `env` into a new graph; None if its result cannot leave the graph.
    With finish=False the returns are left for the caller to finish (finish_function). With `native` (the
    library function `src` is), the function runs natively into the graph instead of being staged."""
    arg_template = V.tensor_leaves_template(tuple(env.values()))
    graph = ctx.new_graph(src.name, parent)
    params = [graph.add_parameter(n) for n in _leaf_names(env, arg_template)]
    staged_env = dict(zip(env, V.rebuild(arg_template, list(params))))
    fg = FunctionGraph(graph, arg_template)
    fg.staged_env = staged_env
    if key is not None:
        ctx.functions[key] = fg
    saved_graph = ctx.current_graph
    effects_before = _C.ir.effect_count()
    try:
        fg.effectful = True  # while in progress: a recursive call is ordered conservatively
        if native is not None:
            _run_natively(ctx, native, fg, Block(graph, staged_env))
        else:
            run_body(ctx, src, globals_, closure_env, fg, Block(graph, staged_env))
        fg.effectful = _C.ir.effect_count() > effects_before
        if finish and not finish_function(fg):
            ctx.functions.pop(key, None)
            return None
    except BaseException:
        ctx.functions.pop(key, None)
        raise
    finally:
        ctx.set_graph(saved_graph)
    return fg


def _leaf_names(env, template):
    """Parameter names for the leaves of the arguments `env` under the tuple `template`."""
    names = []
    for name, t in zip(env, template[1]):
        n = len(V.leaves(t))
        names += [name] if n == 1 else [f"{name}{i}" for i in range(n)]
    return names


def run_body(ctx, src, globals_, closure_env, fg, block):
    stager = Stager(ctx, src, globals_, closure_env, fg)
    stager.enter(block)
    if isinstance(src.node, ast.Lambda):
        value = stager.eval(src.node.body)
        fg.returns.append((stager.cur.graph, value))
        stager.cur.done = True
    else:
        stager.stage_body(src.node.body)
    if not stager.cur.done:
        fg.returns.append((stager.cur.graph, None))
    return stager


def finish_function(fg):
    """Joins the returns into the result template and sets each returning graph's output."""
    if fg.template is None:
        fg.template = V.template_of([v for _, v in fg.returns], f"the result of {fg.graph.name}")
    if not _representable(fg.template, fg.graph):
        return False
    for graph, value in fg.returns:
        nodes = V.flatten(value, fg.template, graph)
        graph.set_output(graph.barrier(graph.special("MakeTuple", nodes)))
    for call_node in fg.tail_calls:
        call_node.set_tuple_specs(V.leaf_specs(fg.template))
    fg.in_progress = False
    if fg.assumed is not None and fg.assumed != fg.template:
        raise TypeError(f"graph mode: the recursive function {fg.graph.name} returns {fg.template} but its recursive "
                        f"calls were compiled assuming {fg.assumed}; make every return give the same type")
    return True


def _representable(template, graph):
    kind = template[0]
    if kind == "const":
        value = template[1]
        return not (isinstance(value, StagedClosure) and value.captures_tensors()) and not isinstance(value, GraphTensor)
    if kind in ("tuple", "list"):
        return all(_representable(t, graph) for t in template[1])
    if kind == "dict":
        return all(_representable(t, graph) for t in template[2])
    return True


def emit_call(stager, fg, env, node):
    if fg.in_progress:  # a recursive call: the result type is what the returns staged so far agree on
        if not fg.returns:
            raise GraphSyntaxError(f"{where(stager.src.file, node)}: the recursive call of {fg.graph.name} comes "
                                   f"before any return; put the base case first")
        fg.assumed = V.template_of([v for _, v in fg.returns], f"the result of {fg.graph.name}")
        template = fg.assumed
    else:
        template = fg.template
    g = stager.cur.graph
    args = V.flatten(tuple(env.values()), fg.arg_template, g)
    line = getattr(node, "lineno", 0)
    call_node = g.call(g.barrier(g.graph_value(fg.graph)), args, stager.src.file, line)
    call_node.set_tuple_specs(V.leaf_specs(template))
    if fg.effectful:
        g.mark_effect(call_node)
    items = [g.tuple_getitem(call_node, i) for i in range(len(V.leaves(template)))]
    return V.rebuild(template, items)


class _ClosureSource:
    def __init__(self, closure):
        self.node = closure.node
        self.file = closure.file
        self.name = closure.name


def call_closure(stager, closure, args, kwargs, node):
    src = _ClosureSource(closure)
    env = _bind_closure(stager, closure, args, kwargs, node)
    if closure.captures_tensors():
        return stage_inline(stager, src, closure.globals, closure.env, env)
    key = (id(closure.node), id(closure), tuple(V.signature(v) for v in env.values()))
    fg = stager.ctx.functions.get(key)
    if fg is None:
        fg = stage_function(stager.ctx, src, closure.globals, closure.env, env, stager.ctx.function_parent, key)
        if fg is None:
            return stage_inline(stager, src, closure.globals, closure.env, env)
    return emit_call(stager, fg, env, node)


def _bind_closure(stager, closure, args, kwargs, node):
    a = closure.node.args
    names = [x.arg for x in a.posonlyargs + a.args]
    env = {}
    if len(args) > len(names) and a.vararg is None:
        raise TypeError(f"{where(stager.src.file, node)}: {closure.name}() takes {len(names)} positional arguments "
                        f"but {len(args)} were given")
    for n, v in zip(names, args):
        env[n] = v
    if a.vararg is not None:
        env[a.vararg.arg] = tuple(args[len(names):])
    defaults = dict(zip(names[len(names) - len(a.defaults):], a.defaults))
    defaults.update({k.arg: d for k, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
    extra = {}
    for k, v in kwargs.items():
        if k in names or k in [x.arg for x in a.kwonlyargs]:
            env[k] = v
        elif a.kwarg is not None:
            extra[k] = v
        else:
            raise TypeError(f"{where(stager.src.file, node)}: {closure.name}() got an unexpected argument '{k}'")
    for n in names + [x.arg for x in a.kwonlyargs]:
        if n not in env:
            if n not in defaults:
                raise TypeError(f"{where(stager.src.file, node)}: {closure.name}() missing argument '{n}'")
            env[n] = stager.eval(defaults[n])
    if a.kwarg is not None:
        env[a.kwarg.arg] = extra
    return env


def stage_inline(stager, src, globals_, closure_env, env):
    """Stages a call in the caller's own graph (for closures over the caller's tensors)."""
    fg = FunctionGraph(None, None)
    fg.owner = stager.fg
    caller = stager.cur
    run_body(stager.ctx, src, globals_, closure_env, fg, Block(caller.graph, dict(env)))
    paths = [Block(graph, {"__return__": value}) for graph, value in fg.returns]
    joined = stager.join(paths, f"{src.name}_return", caller.graph) if len(paths) > 1 else paths[0]
    stager.enter(Block(joined.graph, caller.env))
    return joined.env["__return__"]


def _run_natively(ctx, fn, fg, block):
    """A library function with a graph of its own (an nn layer called in GRAPH_MODE, a recomputed layer) runs
    natively on the staged arguments, as it does when user code calls it: staged from its source, a closure
    it defines would reach the library helpers it is passed to as a StagedClosure (nn.GRUCell's step)."""
    stager = Stager(ctx, function_source(fn), fn.__globals__, _closure_env(fn), fg)
    stager.enter(block)
    call = inspect.BoundArguments(inspect.signature(fn), OrderedDict(block.env))
    _stagers.append(stager)
    try:
        value = fn(*call.args, **call.kwargs)
    finally:
        _stagers.pop()
    fg.returns.append((stager.cur.graph, value))


def _is_library_construct(fn, args):
    """Is fn the construct of a library Cell (args[0])? Other library functions compiled as the entry, such as
    ms.grad's wrapper, are staged: the stager turns the gradient they ask for into the J transform."""
    from sprout.nn.cell import Cell
    return is_library(fn) and bool(args) and isinstance(args[0], Cell) and fn.__name__ == "construct"


def stage_entry(ctx, fn, args, kwargs):
    """Stages the compiled function itself as the entry graph. Returns (input template, FunctionGraph)."""
    env = bind_arguments(fn, args, kwargs, fn.__code__.co_filename, None)
    template = V.input_template(tuple(env.values()))
    params = [ctx.entry.add_parameter(n) for n in _leaf_names(env, template)]
    staged_env = dict(zip(env, V.rebuild(template, list(params))))
    fg = FunctionGraph(ctx.entry, template)
    _active.append(ctx)
    try:
        if _is_library_construct(fn, args):
            _run_natively(ctx, fn, fg, Block(ctx.entry, staged_env))
        else:
            run_body(ctx, function_source(fn), fn.__globals__, _closure_env(fn), fg, Block(ctx.entry, staged_env))
        if not finish_function(fg):
            raise TypeError(f"graph mode: {fn.__qualname__} returns a function that captured tensors; compiled "
                            f"functions must return tensors, numbers, strings or tuples/lists/dicts of these")
    finally:
        _active.pop()
    return template, fg
