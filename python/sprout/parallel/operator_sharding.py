"""Operator sharding for SEMI_AUTO_PARALLEL: ``Primitive.shard(in_strategy)`` and the sharded call.

Note [Sharded primitives]
With ``set_auto_parallel_context(parallel_mode=SEMI_AUTO_PARALLEL)`` in a job of several ranks, a
primitive given a strategy by ``shard`` splits its work across the ranks. Tensors between sharded
primitives are replicated: every rank holds all of them (the network's inputs are the global batch on
every rank, MindSpore's full_batch=True, and every parameter is whole on every rank). A sharded call
  1. names the axes of its tensor inputs by dimension labels (MatMul: x "ik", w "kj", output "ij"); a
     label is split as many times as the strategy says for the axes it names, alike on every input;
  2. lays its labels' split counts out as a device matrix: rank r works at the coordinates of
     r mod (their product); the job's remaining ranks repeat the calculation, each taking an equal share
     of the result;
  3. runs the primitive on each input's block at those coordinates;
  4. pads the block of the output into a zero tensor of the whole output's shape and sums these across
     the ranks (AllReduce): each block of the output lands once, and partial sums over a split label
     that the output does not have (MatMul's k, a ReduceSum axis) add up.
Every rank then computes the same loss from the same whole output, so each rank's gradient with respect
to that output is the whole one: the forward AllReduce passes gradients through unchanged, and each
input's gradient is the sum of its blocks' gradients over the ranks, an AllReduce in the backward pass
of an identity at the start (Megatron-LM's "f" and "g" operators).
So the computation of a sharded op is split, its memory is not (parameters and the tensors between
sharded ops are whole on every rank), and a sharded op costs an AllReduce of its output forward and one
of each input's gradient backward; layouts are not carried from one sharded op to the next (DESIGN.md's
redistribution between layouts is always back to the replicated one here).
"""
import math

from sprout import _C
from sprout.common import dtype as mstype

# Ops whose output element i depends on their inputs' elements i only (after broadcasting): every axis is
# a label of the output.
_ELEMENTWISE = frozenset({
    "Abs", "Add", "Cast", "Cos", "Div", "Elu", "Erf", "Erfc", "Exp", "Expm1", "Floor", "FloorDiv", "GeLU", "HSigmoid",
    "HSwish", "LeakyReLU", "Log", "Log1p", "Maximum", "Minimum", "Mish", "Mul", "Neg", "Pow", "RealDiv", "Reciprocal",
    "ReLU", "ReLU6", "Round", "Rsqrt", "Sigmoid", "SiLU", "Sign", "Sin", "Softplus", "Sqrt", "Square", "Sub", "Tanh"})
_ALONG_AXIS = frozenset({"Softmax", "LogSoftmax"})  # elementwise, except along `axis`, which must stay whole
_REDUCTIONS = frozenset({"ReduceSum", "ReduceMean"})
SHARDABLE = frozenset(_ELEMENTWISE | _ALONG_AXIS | _REDUCTIONS | {"MatMul", "BatchMatMul", "Transpose"})


def check_strategy(prim, in_strategy, out_strategy):
    """What ``shard`` can check before the inputs are known: the op and the strategy's form."""
    api = f"{prim.name}.shard"
    if prim.name not in SHARDABLE:
        raise ValueError(f"{api}: sharding is built for {', '.join(sorted(SHARDABLE))}; not for {prim.name}")
    if out_strategy is not None:
        raise ValueError(f"{api}: out_strategy must be None: a sharded op's output is whole on every rank "
                         f"(Note [Sharded primitives]), but got {out_strategy!r}")
    if not isinstance(in_strategy, tuple) or not in_strategy or not all(isinstance(s, tuple) for s in in_strategy):
        raise TypeError(f"{api}: in_strategy must be a non-empty tuple of tuples, one per tensor input "
                        f"(e.g. ((2, 1), (1, 1))), but got {in_strategy!r}")
    for i, s in enumerate(in_strategy):
        if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in s):
            raise ValueError(f"{api}: in_strategy[{i}] must hold ints >= 1 (how many parts each axis is split "
                             f"into), but got {s!r}")
    return tuple(tuple(s) for s in in_strategy)


def active():
    from sprout import parallel_context
    return parallel_context._semi_auto_parallel()


class _Layout:
    """The labels of one sharded call: per tensor input and for the output, and the labels that must not
    be split; `scale` multiplies the local result (a mean over split axes is the sum of the blocks' means
    divided by their count)."""

    def __init__(self, inputs, output, whole=(), mean_over=()):
        self.inputs, self.output, self.whole, self.mean_over = inputs, output, set(whole), mean_over


def _broadcast_labels(shapes):
    ndim = max(len(s) for s in shapes)
    out = [f"d{a}" for a in range(ndim)]
    sizes = [max(s[a - ndim + len(s)] if a - ndim + len(s) >= 0 else 1 for s in shapes) for a in range(ndim)]
    labels, whole = [], []
    for i, shape in enumerate(shapes):
        row = []
        for a, size in enumerate(shape):
            axis = a + ndim - len(shape)
            if size == 1 and sizes[axis] != 1:  # broadcast along this axis: nothing to split
                row.append(f"b{i}.{a}")
                whole.append(row[-1])
            else:
                row.append(out[axis])
        labels.append(row)
    return labels, out, whole


def _normalize_axes(axes, ndim, api):
    if axes is None or axes == ():
        return list(range(ndim))
    axes = [axes] if isinstance(axes, int) else list(axes)
    for a in axes:
        if not isinstance(a, int) or not -ndim <= a < max(ndim, 1):
            raise ValueError(f"{api}: axis {a!r} is out of range for a tensor of rank {ndim}")
    return sorted({a % ndim for a in axes})


def _layout(prim, args, shapes):
    name, api = prim.name, prim.name
    if name in _ELEMENTWISE or name in _ALONG_AXIS:
        labels, out, whole = _broadcast_labels(shapes)
        if name in _ALONG_AXIS:
            whole += [out[a] for a in _normalize_axes(prim.attrs["axis"], len(out), api)]
        return _Layout(labels, out, whole)
    if name in ("MatMul", "BatchMatMul"):
        a, b = shapes
        if len(a) < 2 or len(b) < 2:
            raise ValueError(f"{api}: sharding needs inputs of rank 2 or more, but got shapes {a} and {b}")
        x = ["k", "i"] if prim.attrs.get("transpose_a") else ["i", "k"]
        w = ["j", "k"] if prim.attrs.get("transpose_b") else ["k", "j"]
        batch, out, whole = _broadcast_labels([a[:-2], b[:-2]]) if (len(a) > 2 or len(b) > 2) else ([[], []], [], [])
        return _Layout([batch[0] + x, batch[1] + w], out + ["i", "j"], whole)
    if name in _REDUCTIONS:
        (shape,) = shapes
        reduced = _normalize_axes(args[1] if len(args) > 1 else (), len(shape), api)
        labels = [f"d{a}" for a in range(len(shape))]
        keep = prim.attrs.get("keep_dims", False)
        out = [f"kept{a}" if a in reduced else labels[a] for a in range(len(shape)) if keep or a not in reduced]
        mean_over = [labels[a] for a in reduced] if name == "ReduceMean" else ()
        return _Layout([labels], out, [o for o in out if o.startswith("kept")], mean_over)
    if name == "Transpose":
        (shape,) = shapes
        perm = args[1]
        labels = [f"d{a}" for a in range(len(shape))]
        if not isinstance(perm, (tuple, list)) or sorted(perm) != list(range(len(shape))):
            raise ValueError(f"{api}: perm must be a permutation of the axes of a rank-{len(shape)} tensor, "
                             f"but got {perm!r}")
        return _Layout([labels], [labels[p] for p in perm])
    raise AssertionError(name)  # check_strategy admits only the ops above


def _splits(prim, strategy, layout, shapes):
    """label -> how many parts it is split into; checks the strategy against the inputs."""
    api = prim.name
    if len(strategy) != len(shapes):
        raise ValueError(f"{api}: the shard strategy has {len(strategy)} entries but the call has {len(shapes)} "
                         f"tensor inputs; give one tuple per tensor input")
    splits, first = {}, {}  # label -> parts, and the input that first split it
    for i, (s, shape, labels) in enumerate(zip(strategy, shapes, layout.inputs)):
        if len(s) != len(shape):
            raise ValueError(f"{api}: shard strategy {s} for input {i} has {len(s)} entries, but the input has "
                             f"rank {len(shape)} (shape {shape})")
        for axis, (n, size, label) in enumerate(zip(s, shape, labels)):
            if size % n:
                raise ValueError(f"{api}: input {i} axis {axis} of size {size} cannot be split into {n} equal parts "
                                 f"(shard strategy {s})")
            if n > 1 and label in layout.whole:
                raise ValueError(f"{api}: input {i} axis {axis} must not be split (it is broadcast, reduced whole "
                                 f"or the op's axis), but shard strategy {s} splits it into {n}")
            if splits.setdefault(label, n) != n:
                raise ValueError(f"{api}: the shard strategy {strategy} splits a dimension that inputs {first[label]} "
                                 f"and {i} share into {splits[label]} on input {first[label]} but into {n} on input "
                                 f"{i}; it must be split alike")
            first.setdefault(label, i)
    return splits


def sharded_call(prim, args):
    """Runs prim(*args) split across the ranks by its strategy (Note [Sharded primitives])."""
    from sprout import ops
    tensor_at = [i for i, a in enumerate(args) if _is_tensor(a)]
    shapes = [tuple(args[i].shape) for i in tensor_at]
    layout = _layout(prim, args, shapes)
    splits = _splits(prim, prim.attrs["in_strategy"], layout, shapes)
    labels = sorted(splits)
    devices = math.prod(splits[label] for label in labels)
    ranks = _C.dist_size()
    if ranks % devices:
        raise ValueError(f"{prim.name}: the shard strategy {prim.attrs['in_strategy']} splits the op over {devices} "
                         f"ranks, which does not divide the job's {ranks} (get_group_size())")
    coords, rest = {}, _C.dist_rank() % devices
    for label in reversed(labels):
        coords[label] = rest % splits[label]
        rest //= splits[label]
    repeats = ranks // devices
    cells = prim.__dict__.get("_shard_cells")
    if cells is None:
        cells = _ShardCells()
        object.__setattr__(prim, "_shard_cells", cells)

    local_args = list(args)
    for i, labels_i in zip(tensor_at, layout.inputs):
        x = cells.gradient_summed(args[i])
        begin = [coords.get(label, 0) * (size // splits.get(label, 1)) for label, size in zip(labels_i, x.shape)]
        size = [s // splits.get(label, 1) for label, s in zip(labels_i, x.shape)]
        local_args[i] = ops.slice(x, tuple(begin), tuple(size)) if any(n > 1 for n in
                                                                       (splits.get(lb, 1) for lb in labels_i)) else x
    local = prim._c(*local_args)
    scale = 1.0 / (repeats * math.prod(splits.get(label, 1) for label in layout.mean_over))
    if scale != 1.0:
        if not mstype.is_floating_type(local.dtype):
            raise ValueError(f"{prim.name}: the shard strategy leaves {repeats} ranks repeating each block, which "
                             f"only a floating-point output allows (got {local.dtype}); split the op over all "
                             f"{ranks} ranks")
        local = local * scale
    paddings = []
    for label, size in zip(layout.output, local.shape):
        n, c = splits.get(label, 1), coords.get(label, 0)
        paddings.append((c * size, (n - 1 - c) * size))
    if any(p != (0, 0) for p in paddings):
        local = ops.Pad(tuple(paddings))(local)
    return cells.summed(local)


def _is_tensor(x):
    from sprout.common.tensor import Tensor
    from sprout._frontend.graph_tensor import GraphTensor
    return isinstance(x, (Tensor, GraphTensor))


class _ShardCells:
    """The two collectives of a sharded call, each a Cell with its own bprop (made on first use: nn imports
    ops)."""

    def __init__(self):
        from sprout.parallel._collectives import SumAcrossRanks, SumGradientAcrossRanks
        self.summed = SumAcrossRanks()
        self.gradient_summed = SumGradientAcrossRanks()
