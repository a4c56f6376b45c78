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
import itertools

from sprout import _C
from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor
from sprout._frontend import values as V
from sprout._frontend.context import Block, StagedClosure
from sprout._frontend.expressions import BINOPS, ExpressionStaging
from sprout._frontend.graph_tensor import GraphTensor
from sprout._frontend.source import GraphSyntaxError, unsupported, where

_MAX_UNROLL = 10000


class Stager(ExpressionStaging):
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
        op = BINOPS[type(stmt.op)]
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
            param = self.parameter_attribute(target.value)
            container = self.eval(target.value)
            index = self.eval(target.slice)
            if isinstance(container, GraphTensor):
                container[index] = value
                if param is not None:  # self.w[i] = v writes the Parameter, as in PYNATIVE mode
                    from sprout.ops.function.optim_func import assign
                    assign(param, container)
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

    def parameter_attribute(self, node):
        """The Parameter `node` names when it is an attribute of a Cell (`self.w`), else None."""
        from sprout.nn.cell import Cell
        if not isinstance(node, ast.Attribute) or not isinstance(node.value, (ast.Name, ast.Attribute)):
            return None
        owner = self.eval(node.value)
        if isinstance(owner, Cell):
            return owner._params.get(node.attr)
        return None

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

    def check_unroll(self, count, node):
        # A for loop is unrolled while compiling, one copy of its body per item: the same bound as
        # constant while loops keeps compilation from running for minutes or out of memory.
        if count > _MAX_UNROLL:
            raise GraphSyntaxError(f"{where(self.src.file, node)}: a for loop is unrolled while compiling and may run "
                                   f"at most {_MAX_UNROLL} iterations, but this one has more; use a while loop with a "
                                   f"tensor condition")

    def iteration_items(self, items, node):
        if isinstance(items, GraphTensor):
            if not items.shape:
                raise TypeError(f"{where(self.src.file, node)}: cannot iterate over a 0-d tensor")
            self.check_unroll(items.shape[0], node)
            return [items[i] for i in range(items.shape[0])]
        if isinstance(items, dict):
            return list(items.keys())
        try:
            # At most one item past the limit: a range(10**9) must not be made into a list first.
            seq = list(itertools.islice(iter(items), _MAX_UNROLL + 1))
        except TypeError:
            raise TypeError(f"{where(self.src.file, node)}: cannot iterate over {V.describe(items)}") from None
        self.check_unroll(len(seq), node)
        if any(isinstance(x, GraphTensor) and x._scalar_kind for x in seq):
            unsupported(self.src.file, node, "a for loop over a range with a tensor bound",
                        "use a while loop with a tensor condition")
        return seq

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
