"""The graph-mode front end: Python source -> specialized MindIR. Note [Staging]

The stager walks a function's AST with the call's arguments in hand, as an interpreter whose values
are compile-time constants or graph nodes (values.py):
  - what is known at compile time is computed now, in Python: attribute lookups on Cells, `len`,
    `isinstance`, `x.shape`, arithmetic on constants, ifs on constant conditions, loops over tuples,
    ranges, CellLists and dicts (unrolled);
  - tensor operations emit nodes: library code (nn layers, ops functions, Tensor methods) runs on
    GraphTensors and emits through the primitive hook, so it serves both modes unchanged;
  - control flow on tensors becomes MindIR control flow. Blocks are graphs and jumps are tail calls:
    `if` emits Switch(cond, true_graph, false_graph) and a call of the result; the code after it
    continues in a join graph whose parameters are the variables the branches disagree on; a `while`
    is a header graph that calls its body or its exit through Switch, the body calling the header
    again (tail recursion); break and continue are jumps to the exit or the header.
  - each user function called with a new signature (its arguments' types, shapes and constants) gets
    its own graph, cached by that signature: a recursive call reuses the graph being built.
The result is already specialized: every node has its type and shape. The compiler's passes
(compiler/passes.h) then closure-convert, inline, simplify, fold, CSE and lower it.
"""
import ast
import builtins
import copy
import operator

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor
from sprout._frontend import values as V
from sprout._frontend.graph_tensor import GraphTensor
from sprout._frontend.source import GraphSyntaxError, function_source, unsupported, where

_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
           ast.MatMult: operator.matmul, ast.BitAnd: operator.and_, ast.BitOr: operator.or_,
           ast.BitXor: operator.xor, ast.LShift: operator.lshift, ast.RShift: operator.rshift}
_CMPOPS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
           ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
           ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}
_MAX_UNROLL = 10000


class StagedClosure:
    """A function defined inside staged code (def or lambda): its AST and the variables it captured."""

    def __init__(self, node, env, stager):
        self.node = node
        self.env = env
        self.file = stager.src.file
        self.globals = stager.globals
        self.name = getattr(node, "name", "lambda")

    def captures_tensors(self):
        return any(V._has_tensor(v) for v in self.env.values())


class Block:
    """Where staging emits now: a graph and the variables bound in it. `done` once it has jumped."""

    def __init__(self, graph, env):
        self.graph = graph
        self.env = env
        self.done = False

    def split(self):
        """Ends this block here and returns a block standing for the path that leaves it (break/continue)."""
        self.done = True
        return Block(self.graph, self.env)


class FunctionGraph:
    """A user function specialized for one signature: its graph and (once known) its result template."""

    def __init__(self, graph, arg_template):
        self.graph = graph
        self.arg_template = arg_template
        self.returns = []  # (block graph, value) of every return staged so far
        self.template = None
        self.assumed = None  # the template recursive calls were compiled with
        self.in_progress = True
        self.tail_calls = []  # jumps between its blocks: their result is the function's result
        self.owner = None     # for a function staged inline: the function its jumps belong to
        self.effectful = False  # it (or what it calls) writes Parameters or draws random numbers


def is_library(fn):
    """Library code runs natively on graph tensors; a library function marked `_sprout_stage` (one that
    calls user code, which may branch on tensors) is staged from source like user code."""
    if getattr(fn, "_sprout_stage", False):
        return False
    module = getattr(fn, "__module__", None) or ""
    return module == "sprout" or module.startswith("sprout.")


class CompileContext:
    """State of one compilation: the module, the entry graph, Parameters read, specialized graphs."""

    def __init__(self, name):
        self.module = _C.ir.Module()
        self.entry = self.module.new_graph(name)
        self.parameters = []          # Parameters read, in the order of their entry-graph parameters
        self._parameter_nodes = {}    # id(Parameter) -> entry graph parameter node
        self.functions = {}           # signature key -> FunctionGraph
        self.graph_count = {}
        self.current_graph = self.entry
        self.function_parent = self.entry  # where new function graphs live (their Parameters' scope)
        self.parameter_override = {}      # id(Parameter) -> node, while staging a function to differentiate

    def graph_name(self, base):
        n = self.graph_count.get(base, 0)
        self.graph_count[base] = n + 1
        return base if n == 0 else f"{base}_{n}"

    def new_graph(self, base, parent):
        return self.module.new_graph(self.graph_name(base), parent)

    def load_parameter(self, p):
        node = self.parameter_override.get(id(p)) or self._parameter_nodes.get(id(p))
        if node is None:
            node = self.entry.add_parameter(p.name)
            node.set_tensor_abstract(p.dtype, list(p.shape))
            self._parameter_nodes[id(p)] = node
            self.parameters.append(p)
        return GraphTensor(self.current_graph.load(node))

    def set_graph(self, graph):
        self.current_graph = graph
        _C.ir.set_graph(graph)


class Stager:
    """Stages one function body (Note [Staging])."""

    def __init__(self, ctx, src, globals_, closure_env, function_graph):
        self.ctx = ctx
        self.src = src
        self.globals = globals_
        self.closure_env = closure_env
        self.fg = function_graph
        self.cur = None
        self.loops = []

    # --- blocks -----------------------------------------------------------------------------------
    def enter(self, block):
        self.cur = block
        self.ctx.set_graph(block.graph)

    def loc(self, node):
        _C.ir.set_location(self.src.file, getattr(node, "lineno", 0))

    def jump(self, block, target_graph, args):
        """Ends `block` with a tail call of `target_graph` on `args` (nodes)."""
        g = block.graph
        callee = g.barrier(g.graph_value(target_graph))
        g.set_output(self.tail(g.call(callee, args, self.src.file, 0)))
        block.done = True

    def tail(self, call):
        """Records a jump, whose type (the function's result) is known once every return is staged."""
        fg = self.fg
        while fg.owner is not None:
            fg = fg.owner
        fg.tail_calls.append(call)
        return call

    def join(self, paths, base, parent):
        """Continues after several paths (blocks that fall through) in one block: a join graph whose
        parameters are the variables the paths disagree on."""
        paths = [p for p in paths if not p.done]
        if len(paths) <= 1:
            return paths[0] if paths else None
        names = [n for n in paths[0].env if all(n in p.env for p in paths[1:])]
        differing, templates = [], {}
        for n in names:
            vals = [p.env[n] for p in paths]
            if all(v is vals[0] for v in vals[1:]):
                continue
            t = V.template_of(vals, f"variable '{n}'")
            if t[0] == "const":
                continue
            differing.append(n)
            templates[n] = t
        graph = self.ctx.new_graph(base, parent)
        env = dict(paths[0].env)
        for p in paths:  # names bound on some paths only are unbound after the join (as in Python)
            for n in list(env):
                if n not in p.env:
                    env.pop(n)
        params = []
        for n in differing:
            nodes = [graph.add_parameter(f"{n}{i}" if i else n) for i in range(len(V.leaves(templates[n])))]
            params.extend(nodes)
            env[n] = V.rebuild(templates[n], list(nodes))
        for p in paths:
            self.ctx.set_graph(p.graph)
            args = [x for n in differing for x in V.flatten(p.env[n], templates[n], p.graph)]
            self.jump(p, graph, args)
        return Block(graph, env)

    # --- names --------------------------------------------------------------------------------------
    def lookup(self, name, node):
        if name in self.cur.env:
            return self.cur.env[name]
        if name in self.closure_env:
            return self.closure_env[name]
        if name in self.globals:
            return self.globals[name]
        if hasattr(builtins, name):
            return getattr(builtins, name)
        raise NameError(f"{where(self.src.file, node)}: name '{name}' is not defined")

    def value_of(self, v):
        """Parameters read by user code become graph values."""
        if isinstance(v, Parameter) and not isinstance(v, GraphTensor):
            return self.ctx.load_parameter(v)
        return v

    # --- statements -----------------------------------------------------------------------------------
    def stage_body(self, stmts):
        for stmt in stmts:
            if self.cur.done:
                return
            self.loc(stmt)
            method = getattr(self, "stmt_" + type(stmt).__name__, None)
            if method is None:
                self.unsupported_stmt(stmt)
            method(stmt)

    def unsupported_stmt(self, stmt):
        advice = {
            "Try": "handle errors outside the compiled function",
            "With": "move the with block outside the compiled function",
            "Global": "pass the value as an argument or keep it in a Cell attribute",
            "Nonlocal": "return the new value instead",
            "Import": "import at module level",
            "ImportFrom": "import at module level",
            "ClassDef": "define classes at module level",
            "Delete": "stop using the name instead of deleting it",
            "AsyncFunctionDef": "use a plain function",
        }.get(type(stmt).__name__, "see docs/graph_syntax.md for what is supported")
        unsupported(self.src.file, stmt, f"the '{type(stmt).__name__}' statement", advice)

    def stmt_Pass(self, stmt):
        pass

    def stmt_Expr(self, stmt):
        self.eval(stmt.value)

    def stmt_Assign(self, stmt):
        value = self.eval(stmt.value)
        for target in stmt.targets:
            self.assign(target, value)

    def stmt_AnnAssign(self, stmt):
        if stmt.value is not None:
            self.assign(stmt.target, self.eval(stmt.value))

    def stmt_AugAssign(self, stmt):
        op = _BINOPS[type(stmt.op)]
        target = stmt.target
        if isinstance(target, ast.Name):
            current = self.lookup(target.id, target)
        else:
            current = self.eval(ast.copy_location(
                type(target)(**{**{f: getattr(target, f) for f in target._fields}, "ctx": ast.Load()}), target))
        self.assign(target, self.binop(op, current, self.eval(stmt.value), stmt))

    def assign(self, target, value):
        if isinstance(target, ast.Name):
            self.cur.env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            stars = [k for k, t in enumerate(target.elts) if isinstance(t, ast.Starred)]
            if stars:
                items = list(self.iteration_items(value, target))
                k, after = stars[0], len(target.elts) - stars[0] - 1
                if len(items) < len(target.elts) - 1:
                    raise ValueError(f"{where(self.src.file, target)}: not enough values to unpack")
                items = items[:k] + [list(items[k:len(items) - after])] + items[len(items) - after:]
                targets = target.elts[:k] + [target.elts[k].value] + target.elts[k + 1:]
            else:
                items, targets = self.unpack(value, len(target.elts), target), target.elts
            for t, v in zip(targets, items):
                self.assign(t, v)
        elif isinstance(target, ast.Subscript):
            container = self.eval(target.value)
            index = self.eval(target.slice)
            if isinstance(container, GraphTensor):
                container[index] = value
            elif isinstance(container, (list, dict)):
                container[index] = value
            else:
                unsupported(self.src.file, target, f"item assignment on {V.describe(container)}",
                            "build a new tuple instead")
        elif isinstance(target, ast.Attribute):
            obj = self.eval(target.value)
            old = getattr(obj, target.attr, None)
            if isinstance(old, Parameter):
                unsupported(self.src.file, target, "assigning to a Parameter attribute",
                            "write ops.assign(self.param, value) to update it in place")
            unsupported(self.src.file, target, "setting attributes", "keep the value in a local variable")
        elif isinstance(target, ast.Starred):
            unsupported(self.src.file, target, "starred assignment", "index the tuple instead")
        else:
            unsupported(self.src.file, target, f"assigning to {type(target).__name__}", "assign to a name")

    def unpack(self, value, n, node):
        if isinstance(value, GraphTensor):
            if not value.shape or value.shape[0] != n:
                raise ValueError(f"{where(self.src.file, node)}: cannot unpack {V.describe(value)} into {n} names")
            return [value[i] for i in range(n)]
        try:
            items = list(value)
        except TypeError:
            raise TypeError(f"{where(self.src.file, node)}: cannot unpack {V.describe(value)}") from None
        if len(items) != n:
            raise ValueError(f"{where(self.src.file, node)}: cannot unpack {len(items)} values into {n} names")
        return items

    def stmt_Return(self, stmt):
        value = self.eval(stmt.value) if stmt.value is not None else None
        self.fg.returns.append((self.cur.graph, value))
        self.cur.done = True

    def stmt_FunctionDef(self, stmt):
        if stmt.decorator_list:
            unsupported(self.src.file, stmt, "decorators on nested functions", "define the function without them")
        closure = StagedClosure(stmt, None, self)
        closure.env = dict(self.cur.env)
        closure.env[stmt.name] = closure  # a nested function may call itself
        self.cur.env[stmt.name] = closure

    def stmt_Assert(self, stmt):
        test = self.eval(stmt.test)
        if isinstance(test, Tensor):
            unsupported(self.src.file, stmt, "assert on a tensor", "check the condition outside the compiled function")
        if not test:
            msg = self.eval(stmt.msg) if stmt.msg is not None else ""
            raise AssertionError(f"{where(self.src.file, stmt)}: {msg}")

    def stmt_Raise(self, stmt):
        exc = self.eval(stmt.exc) if stmt.exc is not None else RuntimeError("raise")
        raise exc

    def stmt_Break(self, stmt):
        if not self.loops:
            raise GraphSyntaxError(f"{where(self.src.file, stmt)}: 'break' outside a loop")
        self.loops[-1].on_break(self)

    def stmt_Continue(self, stmt):
        if not self.loops:
            raise GraphSyntaxError(f"{where(self.src.file, stmt)}: 'continue' outside a loop")
        self.loops[-1].on_continue(self)

    def stmt_If(self, stmt):
        cond = self.condition(self.eval(stmt.test), stmt)
        if not isinstance(cond, GraphTensor):
            self.stage_body(stmt.body if cond else stmt.orelse)
            return
        self.tensor_if(cond, stmt.body, stmt.orelse, stmt)

    def condition(self, value, node):
        if isinstance(value, GraphTensor):
            if value.size != 1:
                raise ValueError(f"{where(self.src.file, node)}: the condition is {V.describe(value)}; a tensor "
                                 f"condition must have exactly one element (use .all() or .any())")
            return value
        if isinstance(value, Tensor):
            return bool(value.asnumpy())
        return bool(value)

    def tensor_if(self, cond, body, orelse, node):
        here = self.cur
        g = here.graph
        t_block = Block(self.ctx.new_graph(f"{self.src.name}_true", g), self.copy_env(here.env))
        f_block = Block(self.ctx.new_graph(f"{self.src.name}_false", g), self.copy_env(here.env))
        self.ctx.set_graph(g)
        switch = g.special("Switch", [cond._node, g.graph_value(t_block.graph), g.graph_value(f_block.graph)],
                          self.src.file, node.lineno)
        g.set_output(self.tail(g.call(g.barrier(switch), [], self.src.file, node.lineno)))
        here.done = True
        for block, stmts in ((t_block, body), (f_block, orelse)):
            self.enter(block)
            self.stage_body(stmts)
        joined = self.join([t_block, f_block], f"{self.src.name}_after_if", g)
        if joined is None:
            self.cur = Block(g, {})
            self.cur.done = True
            return
        self.enter(joined)

    @staticmethod
    def copy_env(env):
        # Lists and dicts are values in graph mode: each branch gets its own copy.
        return {k: copy.copy(v) if isinstance(v, (list, dict)) else v for k, v in env.items()}

    def stmt_While(self, stmt):
        if stmt.orelse:
            unsupported(self.src.file, stmt, "while ... else", "put the else code after the loop behind a flag")
        # Unrolled while the condition is a compile-time constant.
        loop = UnrolledLoop()
        for _ in range(_MAX_UNROLL):
            cond = self.condition(self.eval(stmt.test), stmt)
            if isinstance(cond, GraphTensor):
                if loop.breaks:
                    unsupported(self.src.file, stmt, "a while loop whose condition becomes a tensor after a "
                                "tensor-dependent break", "make the condition a tensor from the start")
                return self.tensor_while(stmt)
            if not cond or self.unrolled_iteration(loop, stmt.body):
                break
        else:
            raise GraphSyntaxError(f"{where(self.src.file, stmt)}: a while loop with a compile-time condition ran "
                                   f"{_MAX_UNROLL} iterations while compiling; make its condition depend on a tensor")
        loop.finish(self)

    def tensor_while(self, stmt):
        here = self.cur
        assigned = _assigned_names(stmt.body)
        carried = [n for n in here.env if n in assigned]
        templates = {}
        for n in carried:
            v = here.env[n]
            t = V.template_of([v], f"variable '{n}'")
            if t[0] == "const" and V.scalar_kind(v) is not None:  # a Python number changed by the loop
                t = ("leaf", V._SCALAR_DTYPES[V.scalar_kind(v)], (), V.scalar_kind(v))
            templates[n] = t
        parent = here.graph
        header = self.ctx.new_graph(f"{self.src.name}_while", parent)
        params = {}
        env = dict(here.env)
        for n in carried:
            nodes = [header.add_parameter(n) for _ in V.leaves(templates[n])]
            params[n] = nodes
            env[n] = V.rebuild(templates[n], list(nodes))

        def back_edge(block):
            self.ctx.set_graph(block.graph)
            args = []
            for n in carried:
                if n not in block.env:
                    raise GraphSyntaxError(f"{where(self.src.file, stmt)}: variable '{n}' is unbound at the end "
                                           f"of an iteration")
                self.check_loop_value(n, block.env[n], templates[n], stmt)
                args += V.flatten(block.env[n], templates[n], block.graph)
            self.jump(block, header, args)

        self.ctx.set_graph(here.graph)
        entry_args = [x for n in carried for x in V.flatten(here.env[n], templates[n], here.graph)]
        self.jump(here, header, entry_args)

        head = Block(header, env)
        self.enter(head)
        cond = self.condition(self.eval(stmt.test), stmt)
        if not isinstance(cond, GraphTensor):
            cond = GraphTensor(header.constant(Tensor(bool(cond))))
        body = Block(self.ctx.new_graph(f"{self.src.name}_while_body", header), self.copy_env(env))
        exit_ = Block(self.ctx.new_graph(f"{self.src.name}_while_exit", header), self.copy_env(env))
        self.ctx.set_graph(header)
        switch = header.special("Switch", [cond._node, header.graph_value(body.graph),
                                           header.graph_value(exit_.graph)], self.src.file, stmt.lineno)
        header.set_output(self.tail(header.call(switch, [], self.src.file, stmt.lineno)))
        head.done = True

        loop = GraphLoop(back_edge)
        self.loops.append(loop)
        self.enter(body)
        self.stage_body(stmt.body)
        self.loops.pop()
        if not self.cur.done:
            back_edge(self.cur)
        joined = self.join([exit_] + loop.breaks, f"{self.src.name}_after_while", header)
        if joined is None:
            self.cur = Block(header, {})
            self.cur.done = True
            return
        self.enter(joined)

    def check_loop_value(self, name, value, template, node):
        if template[0] == "const":
            if not V._same_constant(value, template[1]):
                raise TypeError(f"{where(self.src.file, node)}: variable '{name}' changes from "
                                f"{V.describe(template[1])} to {V.describe(value)} in a loop on a tensor condition; "
                                f"only tensors and numbers may change there")
            return
        if template[0] in ("tuple", "list"):
            if not isinstance(value, (tuple, list)) or len(value) != len(template[1]):
                raise TypeError(f"{where(self.src.file, node)}: variable '{name}' changes structure in the loop "
                                f"(now {V.describe(value)})")
            for v, t in zip(value, template[1]):
                self.check_loop_value(name, v, t, node)
            return
        if template[0] == "dict":
            for k, t in zip(template[1], template[2]):
                self.check_loop_value(name, value[k], t, node)
            return
        _, dtype, shape, kind = template
        if isinstance(value, GraphTensor) and kind is None and (value.dtype != dtype or tuple(value.shape) != shape):
            raise TypeError(f"{where(self.src.file, node)}: variable '{name}' is Tensor[{dtype}]{shape} before the "
                            f"loop and {V.describe(value)} after an iteration; a loop must keep each variable's "
                            f"dtype and shape")

    def stmt_For(self, stmt):
        if stmt.orelse:
            unsupported(self.src.file, stmt, "for ... else", "put the else code after the loop behind a flag")
        items = self.eval(stmt.iter)
        seq = self.iteration_items(items, stmt)
        loop = UnrolledLoop()
        for item in seq:
            self.assign(stmt.target, item)
            if self.unrolled_iteration(loop, stmt.body):
                break
        loop.finish(self)

    def unrolled_iteration(self, loop, body):
        """Stages one iteration of a loop unrolled at compile time; True when no path continues."""
        self.loops.append(loop)
        self.stage_body(body)
        self.loops.pop()
        loop.finish_iteration(self)
        return loop.stopped

    def iteration_items(self, items, node):
        if isinstance(items, GraphTensor):
            if not items.shape:
                raise TypeError(f"{where(self.src.file, node)}: cannot iterate over a 0-d tensor")
            return [items[i] for i in range(items.shape[0])]
        if isinstance(items, dict):
            return list(items.keys())
        try:
            seq = list(items)
        except TypeError:
            raise TypeError(f"{where(self.src.file, node)}: cannot iterate over {V.describe(items)}") from None
        if any(isinstance(x, GraphTensor) and x._scalar_kind for x in seq):
            unsupported(self.src.file, node, "a for loop over a range with a tensor bound",
                        "use a while loop with a tensor condition")
        return seq

    # --- expressions ----------------------------------------------------------------------------------
    def eval(self, node):
        method = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            unsupported(self.src.file, node, f"the expression '{type(node).__name__}'",
                        "see docs/graph_syntax.md for what is supported")
        return method(node)

    def expr_Constant(self, node):
        return node.value

    def expr_Name(self, node):
        return self.value_of(self.lookup(node.id, node))

    def expr_Attribute(self, node):
        obj = self.eval(node.value)
        try:
            value = getattr(obj, node.attr)
        except AttributeError as e:
            raise AttributeError(f"{where(self.src.file, node)}: {e}") from None
        return self.value_of(value)

    def expr_Subscript(self, node):
        obj = self.eval(node.value)
        index = self.eval(node.slice)
        if isinstance(index, GraphTensor) and not isinstance(obj, Tensor):
            unsupported(self.src.file, node, f"indexing {V.describe(obj)} with a tensor",
                        "index with a constant, or stack the items into a tensor first")
        return self.value_of(obj[index])

    def expr_Slice(self, node):
        part = lambda n: None if n is None else self.eval(n)  # noqa: E731
        return slice(part(node.lower), part(node.upper), part(node.step))

    def expr_Index(self, node):  # Python < 3.9
        return self.eval(node.value)

    def expr_Tuple(self, node):
        return tuple(self.starred_items(node.elts))

    def expr_List(self, node):
        return list(self.starred_items(node.elts))

    def expr_Set(self, node):
        return set(self.starred_items(node.elts))

    def starred_items(self, elts):
        out = []
        for e in elts:
            if isinstance(e, ast.Starred):
                out.extend(self.iteration_items(self.eval(e.value), e))
            else:
                out.append(self.eval(e))
        return out

    def expr_Dict(self, node):
        out = {}
        for k, v in zip(node.keys, node.values):
            if k is None:
                out.update(self.eval(v))
            else:
                out[self.eval(k)] = self.eval(v)
        return out

    def expr_JoinedStr(self, node):
        parts = []
        for v in node.values:
            value = self.eval(v.value) if isinstance(v, ast.FormattedValue) else v.value
            parts.append(str(value))
        return "".join(parts)

    def expr_BinOp(self, node):
        return self.binop(_BINOPS[type(node.op)], self.eval(node.left), self.eval(node.right), node)

    def binop(self, op, a, b, node):
        try:
            result = op(a, b)
        except (TypeError, ValueError, RuntimeError) as e:
            raise type(e)(f"{where(self.src.file, node)}: {e}") from None
        return self.mark_scalar(result, op, a, b)

    @staticmethod
    def mark_scalar(result, op, *operands):
        """Arithmetic on runtime scalars and Python numbers gives a runtime scalar again."""
        if not isinstance(result, GraphTensor) or not any(V.is_runtime_scalar(x) for x in operands):
            return result
        if not all(V.is_runtime_scalar(x) or V.scalar_kind(x) for x in operands):
            return result
        if op in (operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne):
            kind = "bool"
        else:
            kinds = [x._scalar_kind if isinstance(x, GraphTensor) else V.scalar_kind(x) for x in operands]
            kind = max(kinds, key=["bool", "int", "float"].index)
            if op is operator.truediv:
                kind = "float"
        result._scalar_kind = kind
        return result

    def expr_UnaryOp(self, node):
        v = self.eval(node.operand)
        if isinstance(node.op, ast.Not):
            if isinstance(v, GraphTensor):
                return self.mark_scalar(v == False, operator.eq, v, False)  # noqa: E712
            return not v
        op = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}[type(node.op)]
        result = op(v)
        if isinstance(result, GraphTensor) and V.is_runtime_scalar(v):
            result._scalar_kind = v._scalar_kind
        return result

    def expr_BoolOp(self, node):
        is_and = isinstance(node.op, ast.And)
        value = self.eval(node.values[0])
        for rest in node.values[1:]:
            if not isinstance(value, GraphTensor):  # Python's short circuit on constants
                if bool(value) != is_and:
                    return value
                value = self.eval(rest)
                continue
            other = self.eval(rest)
            fn = _C.Primitive("LogicalAnd" if is_and else "LogicalOr")
            a, b = _as_bool(value), _as_bool(other)
            value = self.mark_scalar(fn(a, b), operator.eq, a, b)
        return value

    def expr_Compare(self, node):
        left = self.eval(node.left)
        result = None
        for op, comparator in zip(node.ops, node.comparators):
            right = self.eval(comparator)
            fn = _CMPOPS[type(op)]
            part = self.mark_scalar(fn(left, right), fn, left, right)
            if result is None:
                result = part
            elif isinstance(result, GraphTensor) or isinstance(part, GraphTensor):
                result = self.mark_scalar(_C.Primitive("LogicalAnd")(result, part), operator.eq, result, part)
            else:
                result = result and part
            left = right
        return result

    def expr_IfExp(self, node):
        cond = self.condition(self.eval(node.test), node)
        if not isinstance(cond, GraphTensor):
            return self.eval(node.body if cond else node.orelse)
        # A tensor condition: both sides are computed and one is selected.
        a, b = self.eval(node.body), self.eval(node.orelse)
        t = V.template_of([a, b], "the two sides of the conditional expression")
        if t[0] == "const":
            return a
        if t[0] != "leaf":
            unsupported(self.src.file, node, "a conditional expression choosing between tuples on a tensor "
                        "condition", "write an if statement")
        select = _C.Primitive("Select")
        _, dtype, shape, kind = t
        a = a if isinstance(a, Tensor) else Tensor(a, dtype=dtype)
        b = b if isinstance(b, Tensor) else Tensor(b, dtype=dtype)
        c = cond if not shape else _C.Primitive("BroadcastTo", {"shape": tuple(shape)})(cond)
        out = select(c, a, b)
        out._scalar_kind = kind
        return out

    def expr_Lambda(self, node):
        closure = StagedClosure(node, dict(self.cur.env), self)
        return closure

    def expr_ListComp(self, node):
        return self.comprehension(node, list)

    def expr_GeneratorExp(self, node):
        return self.comprehension(node, tuple)

    def expr_SetComp(self, node):
        return self.comprehension(node, set)

    def expr_DictComp(self, node):
        pairs = self.comprehension(node, list, element=lambda: (self.eval(node.key), self.eval(node.value)))
        return dict(pairs)

    def comprehension(self, node, kind, element=None):
        out = []
        saved = dict(self.cur.env)

        def loop(generators):
            if not generators:
                out.append(element() if element else self.eval(node.elt))
                return
            gen = generators[0]
            for item in self.iteration_items(self.eval(gen.iter), gen):
                self.assign(gen.target, item)
                conds = [self.condition(self.eval(c), c) for c in gen.ifs]
                if any(isinstance(c, GraphTensor) for c in conds):
                    unsupported(self.src.file, gen, "a comprehension filtered by a tensor condition",
                                "filter with a constant condition, or use ops.masked_select")
                if all(conds):
                    loop(generators[1:])

        loop(node.generators)
        self.cur.env = {**saved, **{k: v for k, v in self.cur.env.items() if k in saved}}
        return kind(out)

    def expr_Starred(self, node):
        unsupported(self.src.file, node, "a starred expression here", "unpack in a call or a tuple")

    def expr_Call(self, node):
        fn = self.eval(node.func)
        args = self.starred_items(node.args)
        kwargs = {}
        for kw in node.keywords:
            if kw.arg is None:
                kwargs.update(self.eval(kw.value))
            else:
                kwargs[kw.arg] = self.eval(kw.value)
        self.loc(node)
        try:
            return self.call(fn, args, kwargs, node)
        finally:
            self.ctx.set_graph(self.cur.graph)

    def call(self, fn, args, kwargs, node):
        from sprout._frontend import calls
        return calls.call(self, fn, args, kwargs, node)


class UnrolledLoop:
    """break/continue of a loop unrolled at compile time: each ends its path; paths that continued
    rejoin at the end of the iteration, paths that broke rejoin after the loop. On a constant path
    that is simply the end of the unrolling."""

    def __init__(self):
        self.continues = []
        self.breaks = []
        self.stopped = False

    def on_break(self, stager):
        self.breaks.append(stager.cur.split())

    def on_continue(self, stager):
        self.continues.append(stager.cur.split())

    def finish_iteration(self, stager):
        paths = [stager.cur] + self.continues
        self.continues = []
        joined = stager.join(paths, f"{stager.src.name}_next", stager.cur.graph)
        if joined is None:
            self.stopped = True
            return
        stager.enter(joined)

    def finish(self, stager):
        if not self.breaks:
            return
        joined = stager.join([stager.cur] + self.breaks, f"{stager.src.name}_after_loop", stager.cur.graph)
        if joined is not None:
            stager.enter(joined)


class GraphLoop:
    """break/continue inside a tensor while loop: jumps to the loop's exit or back to its header."""

    def __init__(self, back_edge):
        self.back_edge = back_edge
        self.breaks = []

    def on_break(self, stager):
        self.breaks.append(stager.cur.split())

    def on_continue(self, stager):
        self.back_edge(stager.cur)


def _assigned_names(stmts):
    """Names a loop body may rebind: assignment targets, and x of x[i] = v (graph values are immutable,
    so item assignment rebinds the name). Conservative: names assigned in nested functions count too."""
    names = set()
    for stmt in stmts:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                names.add(n.id)
            elif isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name):
                names.add(n.value.id)
    return names


def _as_bool(v):
    """An operand of `and`/`or` on tensors: a bool tensor (nonzero), or a Python bool."""
    if isinstance(v, Tensor):
        return v if v.dtype == mstype.bool_ else v != 0
    return bool(v)


__all__ = ["Stager", "CompileContext", "FunctionGraph", "StagedClosure", "Block", "GraphSyntaxError", "is_library"]
