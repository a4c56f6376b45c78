"""Gradients inside compiled code: ms.grad / value_and_grad / GradOperation called while staging.

The function to differentiate is staged into a *target* graph whose parameters are the weights and
the tensor leaves of the arguments (weights read inside it, also in the Cells it calls, resolve to
those parameters). The caller then emits J(target)(args) = (out, bprop) and bprop(sens)
(`Graph.emit_j`, `Graph.emit_bprop`); the compiler expands J by source transformation (Note [J transform] in
src/compiler/autodiff.cc). The results are formatted exactly as the eager APIs format theirs.
"""
from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.composite.grad import _positions, grad, vjp
from sprout.ops.function.array_func import ones_like
from sprout._frontend import values as V
from sprout._frontend.graph_tensor import GraphTensor
from sprout._frontend.source import where
from sprout._frontend.context import Block, FunctionGraph
from sprout._frontend.stager import Stager


def stage_grad(stager, spec, args, node):
    g = stager.cur.graph
    args = _graph_values(g, args)
    sens = None
    api = spec["api"]
    if api == "GradOperation":
        op = spec["op"]
        if op.sens_param:
            if not args:
                raise ValueError("GradOperation: sens_param=True needs the sensitivity as the last argument")
            args, sens = args[:-1], args[-1]
        positions = tuple(range(len(args))) if op.get_all else ((0,) if args else ())
        if op.get_by_list and not op.get_all:
            positions = ()
        if not positions and not op.get_by_list:
            raise ValueError("GradOperation: the function has no input to differentiate with respect to")
        has_aux = False
    else:
        if spec["sens_param"]:
            if not args:
                raise ValueError(f"{api}: sens_param=True needs the sensitivity as the last argument")
            args, sens = args[:-1], args[-1]
        positions = _positions(spec["grad_position"], len(args), api)
        has_aux = spec["has_aux"]
    for p in positions:
        if not isinstance(args[p], GraphTensor) or args[p]._scalar_kind is not None:
            raise TypeError(f"{where(stager.src.file, node)}: {api}: cannot differentiate with respect to the input "
                            f"at position {p}: expected a Tensor, but got {V.describe(args[p])}")
    weights = spec["weights"]
    j = _emit_j(stager, spec["fn"], args, weights, node)
    out_leaves = V.leaves(j.out_template)
    if not out_leaves:
        raise TypeError(f"{where(stager.src.file, node)}: {api}: the function must return a Tensor (or tuple of "
                        f"Tensors) to differentiate")
    main_leaves = len(V.leaves(_main_template(j.out_template, has_aux, api)))
    if sens is not None:
        sens_values = list(sens) if isinstance(sens, (tuple, list)) else [sens]
        if len(sens_values) != main_leaves:  # as eager: one sensitivity per main output
            raise ValueError(f"{api}: the sensitivity has {len(sens_values)} tensor(s) but the function returned "
                             f"{main_leaves}")
        sens_nodes = _sens_nodes(g, sens_values, j.outs, out_leaves, f"{api}: the sensitivity")
    else:  # ones for the (floating) main outputs, zeros for auxiliary ones
        sens_nodes = [(_prim("OnesLike") if i < main_leaves and mstype.is_floating_type(leaf[1])
                       else _prim("ZerosLike"))(GraphTensor(o))._node
                      for i, (o, leaf) in enumerate(zip(j.outs, out_leaves))]
    weight_grads, per_arg = _split_grads(g.emit_bprop(j.target, j.bprop, sens_nodes), len(weights), j.arg_template)
    value = V.rebuild(j.out_template, list(j.outs))
    return _format(spec, value, [per_arg[p] for p in positions], weight_grads, positions, has_aux, api)


class _J:
    """J(target)(weights, args) emitted: the target, its templates, the output leaf nodes and bprop."""

    def __init__(self, target, out_template, arg_template, outs, bprop):
        self.target, self.out_template, self.arg_template = target, out_template, arg_template
        self.outs, self.bprop = outs, bprop


def _emit_j(stager, fn, args, weights, node):
    g = stager.cur.graph
    effects_before = _C.ir.effect_count()
    target, out_template, arg_template = _stage_target(stager, fn, args, weights, node)
    ordered = _C.ir.effect_count() > effects_before  # the function has effects: later ones wait for it
    stager.ctx.set_graph(g)
    arg_nodes = [stager.ctx.load_parameter(w)._node for w in weights] + V.flatten(tuple(args), arg_template, g)
    outs, bprop = g.emit_j(target, arg_nodes, ordered)
    return _J(target, out_template, arg_template, list(outs), bprop)


def _graph_values(g, values):
    """Constant tensors among call arguments become graph constants (something to differentiate by)."""
    return [GraphTensor(g.constant(a)) if isinstance(a, Tensor) and not isinstance(a, GraphTensor) else a
            for a in values]


def _sens_nodes(g, values, outs, leaves, what):
    """Nodes weighting the output leaves: `values` for the first ones, zeros for the rest (auxiliary
    outputs); each checked against its output's shape and cast to its dtype."""
    if len(values) > len(leaves) or not values:
        raise ValueError(f"{what} has {len(values)} tensor(s) but the function returned {len(leaves)}")
    nodes = []
    for s, leaf in zip(values, leaves):
        s = s if isinstance(s, Tensor) else Tensor(s, dtype=leaf[1])
        if tuple(s.shape) != tuple(leaf[2]):
            raise ValueError(f"{what} has shape {tuple(s.shape)} but the output it weighs has shape "
                             f"{tuple(leaf[2])}; they must match")
        s = s if isinstance(s, GraphTensor) else GraphTensor(g.constant(s))
        nodes.append(s.astype(leaf[1])._node)
    return nodes + [_prim("ZerosLike")(GraphTensor(o))._node for o in outs[len(values):]]


def _split_grads(grads, n_weights, arg_template):
    """bprop's gradients (weights first, then the argument leaves) as (weight grads, one per argument)."""
    grads = [GraphTensor(n) for n in grads]
    rest, per_arg = grads[n_weights:], []
    for t in arg_template[1]:
        n = len(V.leaves(t))
        per_arg.append(V.rebuild(t, [x._node for x in rest[:n]]) if n else None)
        rest = rest[n:]
    return tuple(grads[:n_weights]), per_arg


def _split_aux(value):
    return value[0], (value[1] if len(value) == 2 else tuple(value[1:]))


def _prim(name):
    from sprout.ops.function._prims import prim
    return prim(name)


class StagedVjp:
    """The vjp_fn of ops.vjp called in compiled code: calling it emits the bprop call. With has_aux the
    cotangent weighs the main output only (the auxiliary outputs get zeros)."""

    def __init__(self, j, main_leaves, n_inputs, weights):
        self.j, self.main_leaves, self.n_inputs, self.weights = j, main_leaves, n_inputs, weights

    def __call__(self, stager, v, node):
        g = stager.cur.graph
        values = list(v) if len(v) != 1 or self.main_leaves == 1 else list(v[0])
        if len(values) != self.main_leaves:
            raise ValueError(f"{where(stager.src.file, node)}: vjp: the cotangent has {len(values)} tensor(s) but "
                             f"the function returned {self.main_leaves}")
        sens = _sens_nodes(g, values, self.j.outs, V.leaves(self.j.out_template),
                           f"{where(stager.src.file, node)}: vjp: the cotangent")
        weight_grads, per_arg = _split_grads(g.emit_bprop(self.j.target, self.j.bprop, sens), len(self.weights),
                                             self.j.arg_template)
        result = tuple(per_arg) if self.n_inputs != 1 else per_arg[0]
        return (result, weight_grads) if self.weights else result


def stage_vjp(stager, fn, inputs, weights, has_aux, node):
    """ops.vjp(fn, *inputs) in compiled code: (outputs, vjp_fn[, aux])."""
    from sprout.ops.composite.grad import _weights_list
    inputs = _graph_values(stager.cur.graph, inputs)
    weights = _weights_list(weights, "vjp")
    j = _emit_j(stager, fn, inputs, weights, node)
    value = V.rebuild(j.out_template, list(j.outs))
    main_leaves = len(V.leaves(_main_template(j.out_template, has_aux, "vjp")))
    vjp_fn = StagedVjp(j, main_leaves, len(inputs), weights)
    if has_aux:
        main, aux = _split_aux(value)
        return main, vjp_fn, aux
    return value, vjp_fn


def _main_template(template, has_aux, api):
    if not has_aux:
        return template
    if template[0] != "tuple" or len(template[1]) < 2:
        raise ValueError(f"{api}: with has_aux=True the function must return a tuple (output, aux...)")
    return template[1][0]


def _format(spec, value, input_grads, weight_grads, positions, has_aux, api):
    if api == "GradOperation":
        op = spec["op"]
        if op.get_by_list and op.get_all:
            return tuple(input_grads), weight_grads
        if op.get_by_list:
            return weight_grads
        return tuple(input_grads) if op.get_all else input_grads[0]
    if spec["return_ids"]:
        input_grads = [(p, g) for p, g in zip(positions, input_grads)]
        weight_grads = tuple((w.name, g) for w, g in zip(spec["weights"], weight_grads))
    pos_part = input_grads[0] if spec["single"] else tuple(input_grads)
    if not spec["weights"]:
        result = pos_part
    elif not positions:
        result = tuple(weight_grads)
    else:
        result = (pos_part, tuple(weight_grads))
    if spec["with_value"]:  # the value is what fn returned, auxiliary outputs included
        return value, result
    return (result, tuple(value[1:])) if has_aux else result  # grad's aux: always a tuple (MindSpore)


def _stage_target(stager, fn, args, weights, node):
    """The graph T(weights..., arg leaves...) returning fn(*args)'s leaves."""
    from sprout._frontend import calls
    ctx = stager.ctx
    # Nested in the caller's graph: a closure being differentiated may use the caller's tensors.
    target = ctx.new_graph(f"{getattr(fn, '__name__', 'fn')}_grad_target", stager.cur.graph)
    weight_nodes = [target.add_parameter(w.name) for w in weights]
    for w, n in zip(weights, weight_nodes):
        n.set_tensor_abstract(w.dtype, list(w.shape))
    arg_template = V.tensor_leaves_template(tuple(args))
    params = [target.add_parameter(f"x{i}") for i in range(len(V.leaves(arg_template)))]
    staged_args = V.rebuild(arg_template, list(params))
    saved = (ctx.functions, ctx.function_parent, dict(ctx.parameter_override))
    ctx.functions = {}  # graphs cached outside read the weights from the entry graph, not from here
    ctx.function_parent = target
    for w, n in zip(weights, weight_nodes):
        ctx.parameter_override[id(w)] = n
    try:
        fg = FunctionGraph(target, arg_template)
        sub = Stager(ctx, stager.src, stager.globals, {}, fg)
        sub.enter(Block(target, {}))
        result = calls.call(sub, fn, list(staged_args), {}, node)
        fg.returns.append((sub.cur.graph, result))
        if not calls.finish_function(fg):
            raise TypeError(f"{where(stager.src.file, node)}: the function to differentiate returns a function; it "
                            f"must return tensors")
    finally:
        ctx.functions, ctx.function_parent, ctx.parameter_override = saved
    return target, fg.template, arg_template


def jvp_in_graph(fn, inputs, v, has_aux=False):
    """ops.jvp in compiled code, staged from this source: J v is the gradient, with respect to the
    cotangent u, of <vjp(u), v> (the vjp is linear in u, so this is exact at any u)."""
    inputs = inputs if isinstance(inputs, tuple) else (inputs,)
    v = v if isinstance(v, tuple) else (v,)
    if has_aux:
        out, _, aux = vjp(fn, *inputs, has_aux=True)
    else:
        out, _ = vjp(fn, *inputs)

    def weighted(u):
        if has_aux:
            _, vjp_fn, _ = vjp(fn, *inputs, has_aux=True)
        else:
            _, vjp_fn = vjp(fn, *inputs)
        grads = vjp_fn(u)
        grads = grads if isinstance(grads, tuple) else (grads,)
        total = 0.0
        for g_, vi in zip(grads, v):
            total = total + (g_ * vi).sum()
        return total

    tangent = grad(weighted)(ones_like(out))
    return (out, tangent, aux) if has_aux else (out, tangent)


jvp_in_graph._sprout_stage = True
