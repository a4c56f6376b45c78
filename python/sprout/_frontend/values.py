"""Compile-time values of the front end: how a staged value crosses a graph boundary.

While staging, a value is a Python object (a compile-time constant: int, str, None, a Cell, a
function, a dtype, a constant Tensor), a GraphTensor (a node), or a tuple/list/dict of these. Where
values flow between graphs (call arguments, results, the variables live across an if or a loop) only
the GraphTensors travel, as graph parameters; the rest of the structure is the *template*, fixed at
compile time. Joining the values of two branches gives one template; where they cannot join the
error names both.
"""
from sprout.common import dtype as mstype
from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor
from sprout._frontend.graph_tensor import GraphTensor

_SCALAR_DTYPES = {"bool": mstype.bool_, "int": mstype.int64, "float": mstype.float32}


def scalar_kind(value):
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    return None


def is_runtime_scalar(value):
    return isinstance(value, GraphTensor) and value._scalar_kind is not None


def describe(value):
    """How an error message names a value."""
    if isinstance(value, GraphTensor):
        if value._scalar_kind:
            return f"a runtime {value._scalar_kind}"
        return f"Tensor[{value.dtype}]{tuple(value.shape)}"
    if isinstance(value, Tensor):
        return f"constant Tensor[{value.dtype}]{tuple(value.shape)}"
    if isinstance(value, (tuple, list)):
        return f"{type(value).__name__} of {len(value)}"
    if value is None:
        return "None"
    if isinstance(value, (bool, int, float, str)):
        return f"{type(value).__name__} {value!r}"
    return type(value).__name__


# Templates: ("const", value) | ("leaf", dtype, shape, scalar_kind) | ("tuple"|"list", [templates])
#            | ("dict", keys, [templates])

def template_of(values, what):
    """The template covering every value in `values` (one per path); TypeError when they differ."""
    first = values[0]
    if all(_same_constant(first, v) for v in values[1:]) and not _has_tensor(first):
        return ("const", first)
    if all(isinstance(v, (tuple, list)) for v in values):
        kinds = {type(v) for v in values}
        if len(kinds) == 1 and len({len(v) for v in values}) == 1:
            kind = "list" if isinstance(first, list) else "tuple"
            return (kind, [template_of([v[i] for v in values], f"{what}[{i}]") for i in range(len(first))])
    if all(isinstance(v, dict) for v in values) and len({tuple(v) for v in values}) == 1:
        keys = list(first)
        return ("dict", keys, [template_of([v[k] for v in values], f"{what}[{k!r}]") for k in keys])
    if all(_tensor_like(v) for v in values):
        tensors = [v for v in values if _is_tensor(v)]
        if not tensors:  # Python scalars and runtime scalars only: one runtime scalar
            kinds = [v._scalar_kind if isinstance(v, GraphTensor) else scalar_kind(v) for v in values]
            kind = max(kinds, key=["bool", "int", "float"].index)
            return ("leaf", _SCALAR_DTYPES[kind], (), kind)
        if len(tensors) == len(values):
            specs = {(t.dtype, tuple(t.shape)) for t in tensors}
            if len(specs) == 1:
                dtype, shape = specs.pop()
                return ("leaf", dtype, shape, None)
    raise TypeError(f"graph mode: {what} has different types on different paths: "
                    + " and ".join(describe(v) for v in _distinct(values))
                    + "; make every branch (and every loop iteration) give it the same type and shape")


def _distinct(values):
    out = []
    for v in values:
        if not any(v is o for o in out):
            out.append(v)
    return out[:2] if len(out) > 1 else out


def _is_tensor(v):
    return (isinstance(v, GraphTensor) and v._scalar_kind is None) or (isinstance(v, Tensor) and not isinstance(v, GraphTensor))


def _tensor_like(v):
    return isinstance(v, Tensor) or scalar_kind(v) is not None


def _has_tensor(v):
    if isinstance(v, Tensor):
        return True
    if isinstance(v, (tuple, list)):
        return any(_has_tensor(x) for x in v)
    if isinstance(v, dict):
        return any(_has_tensor(x) for x in v.values())
    return False


def _same_constant(a, b):
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, (bool, int, float, str)) or a is None:
        return a == b
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same_constant(x, y) for x, y in zip(a, b))
    return False


def leaves(template):
    """The ("leaf", ...) entries of a template, in order."""
    kind = template[0]
    if kind == "leaf":
        return [template]
    if kind in ("tuple", "list"):
        return [leaf for t in template[1] for leaf in leaves(t)]
    if kind == "dict":
        return [leaf for t in template[2] for leaf in leaves(t)]
    return []


def flatten(value, template, graph):
    """The nodes of `graph` that carry `value`'s leaves, converting constants as the template asks."""
    kind = template[0]
    if kind == "const":
        return []
    if kind in ("tuple", "list"):
        return [n for v, t in zip(value, template[1]) for n in flatten(v, t, graph)]
    if kind == "dict":
        return [n for k, t in zip(template[1], template[2]) for n in flatten(value[k], t, graph)]
    _, dtype, shape, _ = template
    if isinstance(value, GraphTensor):
        if value.dtype != dtype:
            value = value.astype(dtype)
        return [value._node]
    if isinstance(value, Tensor):
        return [graph.constant(value)]
    return [graph.constant(Tensor(value, dtype=dtype))]


def rebuild(template, nodes):
    """The staged value a template stands for, given one node per leaf (consumed from `nodes`)."""
    kind = template[0]
    if kind == "const":
        return template[1]
    if kind == "tuple":
        return tuple(rebuild(t, nodes) for t in template[1])
    if kind == "list":
        return [rebuild(t, nodes) for t in template[1]]
    if kind == "dict":
        return {k: rebuild(t, nodes) for k, t in zip(template[1], template[2])}
    _, dtype, shape, kind = template
    node = nodes.pop(0)
    node.set_tensor_abstract(dtype, list(shape))
    return GraphTensor(node, kind)


def signature(value):
    """The part of a value that selects a specialized graph: types, shapes and constants."""
    if isinstance(value, GraphTensor):
        return ("T", value.dtype, tuple(value.shape), value._scalar_kind)
    if isinstance(value, Parameter):
        return ("P", id(value))
    if isinstance(value, Tensor):
        return ("C", id(value))
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, tuple(signature(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple((k, signature(v)) for k, v in value.items()))
    if isinstance(value, (bool, int, float, str, type(None))):
        return ("K", type(value).__name__, value)
    try:
        hash(value)
        return ("O", type(value).__name__, value)
    except TypeError:
        return ("O", id(value))


def tensor_leaves_template(value):
    """A template that passes every GraphTensor of `value` as a parameter (call arguments)."""
    if isinstance(value, GraphTensor):
        return ("leaf", value.dtype, tuple(value.shape), value._scalar_kind)
    if isinstance(value, tuple):
        return ("tuple", [tensor_leaves_template(v) for v in value])
    if isinstance(value, list):
        return ("list", [tensor_leaves_template(v) for v in value])
    if isinstance(value, dict):
        return ("dict", list(value), [tensor_leaves_template(v) for v in value.values()])
    return ("const", value)


def input_template(value):
    """The template of a compiled function's arguments: every Tensor is a graph input, the rest constants."""
    if isinstance(value, Tensor):
        return ("leaf", value.dtype, tuple(value.shape), None)
    if isinstance(value, tuple):
        return ("tuple", [input_template(v) for v in value])
    if isinstance(value, list):
        return ("list", [input_template(v) for v in value])
    if isinstance(value, dict):
        return ("dict", list(value), [input_template(v) for v in value.values()])
    return ("const", value)


def input_leaves(value, template):
    """The tensors of real arguments, in template order."""
    kind = template[0]
    if kind == "leaf":
        return [value]
    if kind in ("tuple", "list"):
        return [x for v, t in zip(value, template[1]) for x in input_leaves(v, t)]
    if kind == "dict":
        return [x for k, t in zip(template[1], template[2]) for x in input_leaves(value[k], t)]
    return []


def output_value(template, tensors):
    """A compiled function's Python result from the program's outputs (one per leaf)."""
    kind = template[0]
    if kind == "const":
        return template[1]
    if kind == "tuple":
        return tuple(output_value(t, tensors) for t in template[1])
    if kind == "list":
        return [output_value(t, tensors) for t in template[1]]
    if kind == "dict":
        return {k: output_value(t, tensors) for k, t in zip(template[1], template[2])}
    t = tensors.pop(0)
    return t.item() if template[3] is not None else t


def leaf_specs(template):
    return [(leaf[1], list(leaf[2])) for leaf in leaves(template)]

