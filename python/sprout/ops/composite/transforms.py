"""Function transforms built on grad's machinery (MindSpore 2.x ``ops.jacrev``, ``ops.jacfwd``, ``ops.vmap``).

jacrev runs one vector-Jacobian product per output element, jacfwd one Jacobian-vector product per input
element, and vmap calls the function once per batch entry and stacks the results: exact for any function
the tape can differentiate (or, for vmap, any pure function), at the cost of that loop. jacrev and jacfwd
run in PYNATIVE mode (the tape's); vmap also inside compiled code, where its loop unrolls. MindSpore compiles
vmap with per-op batching rules instead; Sprout has none, so vmap here is the loop, said plainly.
"""
import numpy as np

from sprout.common.tensor import Tensor
from sprout.ops.composite.grad import _check_eager, _positions, _split_aux, jvp, vjp
from sprout.ops.function.array_func import reshape, stack
from sprout.ops.function.array_view_func import unbind


def _flat(value, api, what):
    """The tensors of a Tensor or a (nested) tuple/list of them, and a function rebuilding that structure."""
    if isinstance(value, Tensor):
        return [value], lambda items: items[0]
    if isinstance(value, (tuple, list)):
        parts = [_flat(v, api, what) for v in value]
        sizes = [len(p[0]) for p in parts]

        def rebuild(items):
            out, at = [], 0
            for (_, build), n in zip(parts, sizes):
                out.append(build(items[at:at + n]))
                at += n
            return type(value)(out)
        return [t for p in parts for t in p[0]], rebuild
    raise TypeError(f"{api}: {what} must be Tensors or tuples of Tensors, but got {type(value).__name__}")


def _one_hot(shape, dtype, index):
    e = np.zeros(int(np.prod(shape, dtype=np.int64)))
    e[index] = 1
    return Tensor(e.reshape(shape), dtype)


def _jacobian_result(per_output, rebuild_outputs, single_position):
    """per_output[o][k]: the Jacobian of output o with respect to position k, laid out as MindSpore's."""
    rows = [blocks[0] if single_position else tuple(blocks) for blocks in per_output]
    return rebuild_outputs(rows)


def jacrev(fn, grad_position=0, has_aux=False):
    """A function giving fn's Jacobian (shape output.shape + input.shape) with respect to the inputs at
    `grad_position` (an int, or a tuple for a tuple of Jacobians), by reverse mode: one vector-Jacobian
    product per output element. With `has_aux`, fn returns (output, aux) and so does the Jacobian function."""
    def jacobian_fn(*inputs):
        positions = _positions(grad_position, len(inputs), "jacrev")
        for x in inputs:
            _check_eager("jacrev", x)
        out, vjp_fn, *aux = vjp(fn, *inputs, has_aux=has_aux)
        outputs, rebuild = _flat(out, "jacrev", "the function's outputs")
        per_output = []
        for o, y in enumerate(outputs):
            rows = [[] for _ in positions]
            for i in range(y.size):
                cotangents = [_one_hot(t.shape, t.dtype, i) if j == o else Tensor(np.zeros(t.shape), t.dtype)
                              for j, t in enumerate(outputs)]
                grads = vjp_fn(*cotangents)
                grads = grads if isinstance(grads, tuple) else (grads,)
                for r, k in enumerate(positions):
                    rows[r].append(grads[k])
            per_output.append([reshape(stack(r, 0), y.shape + inputs[k].shape) if r else
                               Tensor(np.zeros(y.shape + inputs[k].shape), y.dtype)
                               for r, k in zip(rows, positions)])
        jac = _jacobian_result(per_output, rebuild, isinstance(grad_position, int))
        return (jac, aux[0]) if has_aux else jac
    return jacobian_fn


def jacfwd(fn, grad_position=0, has_aux=False):
    """As jacrev, by forward mode: one Jacobian-vector product per element of the differentiated inputs
    (cheaper when the inputs are smaller than the outputs)."""
    def jacobian_fn(*inputs):
        positions = _positions(grad_position, len(inputs), "jacfwd")
        for x in inputs:
            _check_eager("jacfwd", x)
        zeros = [Tensor(np.zeros(x.shape), x.dtype) for x in inputs]
        columns = [[] for _ in positions]
        out = aux = None
        for r, k in enumerate(positions):
            for i in range(inputs[k].size):
                tangents = tuple(_one_hot(x.shape, x.dtype, i) if j == k else zeros[j] for j, x in enumerate(inputs))
                result = jvp(fn, inputs, tangents, has_aux)
                out, tangent = result[0], result[1]
                aux = result[2] if has_aux else None
                columns[r].append(_flat(tangent, "jacfwd", "the function's outputs")[0])
        if out is None:  # every differentiated input is empty: evaluate once for the output's layout
            out = fn(*inputs)
            out, aux = _split_aux(out, has_aux, "jacfwd")
        outputs, rebuild = _flat(out, "jacfwd", "the function's outputs")
        per_output = []
        for o, y in enumerate(outputs):
            per_output.append([
                reshape(stack([c[o] for c in cols], -1), y.shape + inputs[k].shape) if cols else
                Tensor(np.zeros(y.shape + inputs[k].shape), y.dtype)
                for cols, k in zip(columns, positions)])
        jac = _jacobian_result(per_output, rebuild, isinstance(grad_position, int))
        return (jac, aux) if has_aux else jac
    return jacobian_fn


def _axes_for(value, axes, api, what):
    """`axes` (an int or None for all of `value`, or a structure matching it) as one entry per tensor."""
    tensors, _ = _flat(value, api, what)
    if axes is None or isinstance(axes, int):
        return [axes] * len(tensors)
    if isinstance(value, (tuple, list)) and isinstance(axes, (tuple, list)) and len(axes) == len(value):
        return [a for v, sub in zip(value, axes) for a in _axes_for(v, sub, api, what)]
    raise ValueError(f"{api}: {what} axes {axes!r} do not match the structure of the values")


def vmap(fn, in_axes=0, out_axes=0):
    """fn mapped over a batch axis: `in_axes` says which axis of each argument is the batch (None: not
    batched, passed whole), `out_axes` where the batch axis goes in each output (None: the output does not
    depend on the batch entry; the first entry's is returned). Runs fn once per batch entry."""
    if not callable(fn):
        raise TypeError(f"vmap: 'fn' must be callable, but got {type(fn).__name__} (inside compiled code, pass a "
                        "function defined outside it: functions created there are not Python callables)")

    def mapped(*args):
        if isinstance(in_axes, (tuple, list)) and len(in_axes) != len(args):
            raise ValueError(f"vmap: 'in_axes' has {len(in_axes)} entries for {len(args)} arguments")
        per_arg = in_axes if isinstance(in_axes, (tuple, list)) else [in_axes] * len(args)
        flat_args, sizes = [], set()
        for arg, axes in zip(args, per_arg):
            if axes is None and not isinstance(arg, (Tensor, tuple, list)):
                flat_args.append((arg, None))
                continue
            tensors, rebuild = _flat(arg, "vmap", "mapped arguments")
            axis_list = _axes_for(arg, axes, "vmap", "'in_axes'")
            parts = []
            for t, axis in zip(tensors, axis_list):
                if axis is None:
                    parts.append(None)
                    continue
                if not -t.ndim <= axis < t.ndim:
                    raise ValueError(f"vmap: 'in_axes' {axis} is out of range for an argument of shape {t.shape}")
                sizes.add(t.shape[axis])
                parts.append(unbind(t, axis))
            flat_args.append((arg, (tensors, rebuild, parts)))
        if not sizes:
            raise ValueError("vmap: at least one argument must be mapped (an 'in_axes' entry that is not None)")
        if len(sizes) != 1:
            raise ValueError(f"vmap: the mapped axes must have one size, but got sizes {sorted(sizes)}")
        batch = sizes.pop()
        if batch == 0:  # fn runs once per entry: with none, there is no output to learn the shapes from
            raise ValueError("vmap: the mapped axes have size 0; vmap calls 'fn' once per batch entry, so it needs "
                             "at least one")
        results = []
        for b in range(batch):
            call_args = []
            for arg, info in flat_args:
                if info is None:
                    call_args.append(arg)
                    continue
                tensors, rebuild, parts = info
                call_args.append(rebuild([t if p is None else p[b] for t, p in zip(tensors, parts)]))
            results.append(fn(*call_args))
        first, rebuild_out = _flat(results[0], "vmap", "the function's outputs")
        out_list = _axes_for(results[0], out_axes, "vmap", "'out_axes'")
        columns = [_flat(r, "vmap", "the function's outputs")[0] for r in results]
        stacked = [first[i] if axis is None else stack([c[i] for c in columns], axis)
                   for i, axis in enumerate(out_list)]
        return rebuild_out(stacked)
    return mapped


__all__ = ["jacrev", "jacfwd", "vmap"]
