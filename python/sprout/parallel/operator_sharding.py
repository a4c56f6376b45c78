"""Operator sharding for SEMI_AUTO_PARALLEL: ``Primitive.shard(in_strategy)`` and the sharded call.

Note [Sharded primitives]
With ``set_auto_parallel_context(parallel_mode=SEMI_AUTO_PARALLEL)`` in a job of several ranks, a
primitive given a strategy by ``shard`` splits its work across the ranks. Tensors between sharded
primitives are replicated: every rank holds all of them (the network's inputs are the global batch on
every rank, MindSpore's full_batch=True, and every parameter is whole on every rank). A sharded call
  1. names the axes of its tensor inputs by dimension labels (MatMul: x "ik", w "kj", output "ij"); a
     label is split as many times as the strategy says for the axes it names, alike on every input;
  2. lays the split labels' counts out as a device matrix: rank r works at the coordinates of
     r mod (their product); the job's other ranks repeat the calculation;
  3. runs the primitive on each input's block at those coordinates;
  4. gathers every rank's block of the output (AllGather), keeps the first repetition's, adds up the
     partial sums over a split label the output lacks (MatMul's k, a ReduceSum axis) and moves each block
     to its place in the whole output.
Every rank then goes on with the same whole output and computes the same loss, so each rank's gradient
with respect to the output is the whole one. Hence the two collectives' gradients (_collectives.py):
the gather's is this rank's part of the output gradient as it is (not summed over the ranks, AllGather's
own rule), and each input's is the sum over the ranks of its blocks' gradients, an AllReduce in the
backward pass of an identity at the start (Megatron-LM's "f" and "g" operators).
So a sharded op splits its computation, not its memory (parameters and the tensors between sharded ops
are whole on every rank), and costs an AllGather of its output forward and an AllReduce of each input's
gradient backward; layouts are not carried from one sharded op to the next (DESIGN.md's redistribution
between layouts is always back to the replicated one here).
"""
import math

from sprout import _C

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
    """The labels of one sharded call: per tensor input and for the output, the labels that must not be
    split, and those a mean runs over (its blocks' means add up to the mean times their count)."""

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
    return sorted({a % max(ndim, 1) for a in axes})


def _layout(prim, args, shapes):
    name = api = prim.name
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
        return _Layout([labels], out, mean_over=mean_over)  # a kept axis (size 1) is no input's: never split
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
    tensor_at = [i for i, a in enumerate(args) if _is_tensor(a)]
    shapes = [tuple(args[i].shape) for i in tensor_at]
    layout = _layout(prim, args, shapes)
    splits = {label: n for label, n in _splits(prim, prim.attrs["in_strategy"], layout, shapes).items() if n > 1}
    labels = sorted(splits)  # the device matrix's axes, the last varying fastest from rank to rank
    devices, ranks = math.prod(splits.values()), _job_size(prim)
    if ranks % devices:
        raise ValueError(f"{prim.name}: the shard strategy {prim.attrs['in_strategy']} splits the op over {devices} "
                         f"ranks, which does not divide the job's {ranks} (get_group_size())")
    coords, rest = {}, _C.dist_rank() % devices
    for label in reversed(labels):
        coords[label] = rest % splits[label]
        rest //= splits[label]
    local_args = list(args)
    for i, input_labels in zip(tensor_at, layout.inputs):
        local_args[i] = _block(_cell(prim, "SumGradientAcrossRanks")(args[i]), input_labels, splits, coords)
    return _assemble(prim, prim._c(*local_args), layout, labels, splits, ranks // devices)


def _job_size(prim):
    from sprout import parallel_context
    ranks, asked = _C.dist_size(), parallel_context._context["device_num"]
    if asked is not None and asked != ranks:
        raise ValueError(f"{prim.name}: set_auto_parallel_context(device_num={asked}) but the job has {ranks} ranks "
                         f"(get_group_size()); leave device_num unset or equal to it")
    return ranks


def _block(x, labels, splits, coords):
    """The block of x at this rank's coordinates."""
    from sprout import ops
    if not any(label in splits for label in labels):
        return x
    size = [n // splits.get(label, 1) for label, n in zip(labels, x.shape)]
    begin = [coords.get(label, 0) * n for label, n in zip(labels, size)]
    return ops.slice(x, tuple(begin), tuple(size))


def _assemble(prim, local, layout, labels, splits, repeats):
    """The whole output from every rank's block of it: gathered in rank order, the first repetition's
    blocks kept, partial sums over split labels the output lacks added up, each block moved to its place."""
    from sprout import ops
    block_shape = tuple(local.shape)
    gathered = _cell(prim, "GatherFromRanks")(ops.reshape(local, (1,) + block_shape))
    device_shape = tuple(splits[label] for label in labels)
    blocks = ops.reshape(gathered, (repeats,) + device_shape + block_shape)
    blocks = ops.reshape(ops.slice(blocks, (0,) * blocks.ndim, (1,) + blocks.shape[1:]), device_shape + block_shape) \
        if repeats > 1 else ops.reshape(blocks, device_shape + block_shape)
    summed = tuple(a for a, label in enumerate(labels) if label not in layout.output)
    if summed:
        blocks = ops.ReduceSum()(blocks, summed)
        labels = [label for label in labels if label in layout.output]
    scale = 1.0 / math.prod(splits.get(label, 1) for label in layout.mean_over)
    if scale != 1.0:  # ReduceMean: the mean of the blocks' means
        blocks = blocks * scale
    # Device axis of each split output axis right before it, then merged with it.
    order = []
    for a, label in enumerate(layout.output):
        if label in labels:
            order.append(labels.index(label))
        order.append(len(labels) + a)
    full = tuple(n * splits.get(label, 1) for label, n in zip(layout.output, block_shape))
    return ops.reshape(ops.transpose(blocks, tuple(order)), full)


def _cell(prim, name):
    """prim's instance of the collective Cell `name` of _collectives.py (made on first use: nn imports ops)."""
    cells = prim.__dict__.setdefault("_shard_cells", {})
    if name not in cells:
        from sprout.parallel import _collectives
        cells[name] = getattr(_collectives, name)()
    return cells[name]


def _is_tensor(x):
    from sprout.common.tensor import Tensor
    from sprout._frontend.graph_tensor import GraphTensor
    return isinstance(x, (Tensor, GraphTensor))
