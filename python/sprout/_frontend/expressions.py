"""Expressions while staging (Note [Staging] in stager.py): computed now on compile-time values,
emitted as nodes on graph tensors. A mixin of Stager, which provides the names, blocks and calls."""
import ast
import operator

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout._frontend import values as V
from sprout._frontend.context import StagedClosure
from sprout._frontend.graph_tensor import GraphTensor
from sprout._frontend.source import unsupported, where

BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
          ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
          ast.MatMult: operator.matmul, ast.BitAnd: operator.and_, ast.BitOr: operator.or_,
          ast.BitXor: operator.xor, ast.LShift: operator.lshift, ast.RShift: operator.rshift}
_CMPOPS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
           ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
           ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b}


class ExpressionStaging:
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
        return self.binop(BINOPS[type(node.op)], self.eval(node.left), self.eval(node.right), node)

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



def _as_bool(v):
    """An operand of `and`/`or` on tensors: a bool tensor (nonzero), or a Python bool."""
    if isinstance(v, Tensor):
        return v if v.dtype == mstype.bool_ else v != 0
    return bool(v)
