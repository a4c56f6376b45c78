"""Sequence helpers (``ops.sequence_mask``, ``ops.ctc_greedy_decoder``, MindSpore 2.x arguments)."""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _tensor, cast, cumsum, expand_dims, gather_nd, stack, transpose
from sprout.ops.function.array_view_func import nonzero

_INTS = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8)


def sequence_mask(lengths, maxlen=None):
    """(*lengths.shape, maxlen) bool: position j of a row is True where j < its length. `maxlen` defaults to
    the largest length (a value read from `lengths`, so eager mode only)."""
    api = "sequence_mask"
    x = _tensor(lengths, api, "lengths")
    if x.dtype not in _INTS:
        raise TypeError(f"{api}: 'lengths' must be an integer tensor, but got {x.dtype}")
    if maxlen is None:
        if x.size == 0:
            raise ValueError(f"{api}: 'maxlen' is needed when 'lengths' is empty")
        maxlen = int(prim("ReduceMax", keep_dims=False)(x, ()).asnumpy())  # the output's shape
    if isinstance(maxlen, bool) or not isinstance(maxlen, int) or maxlen <= 0:
        raise ValueError(f"{api}: 'maxlen' must be a positive int, but got {maxlen!r}")
    positions = Tensor(np.arange(maxlen, dtype=np.int64))
    return prim("Less")(positions, expand_dims(cast(x, mstype.int64), -1))


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True):
    """Best-path CTC decoding of `inputs` (max_time, batch, num_classes), blank num_classes - 1: the most
    likely class at each step inside each sequence's length, repeats merged (`merge_repeated`), blanks
    dropped. Returns (decoded_indices (K, 2) [batch, position], decoded_values (K,), decoded_shape
    (batch, longest decoding), log_probability (batch, 1): minus the sum of each step's largest input),
    the first three int64, their length K known only after running."""
    api = "ctc_greedy_decoder"
    x = _tensor(inputs, api, "inputs")
    if x.ndim != 3 or x.dtype not in (mstype.float32, mstype.float64):
        raise ValueError(f"{api}: 'inputs' must be a float32/float64 (max_time, batch_size, num_classes) tensor, "
                         f"but got {x.dtype} of shape {x.shape}")
    steps, batch, classes = x.shape
    lengths = _tensor(sequence_length, api, "sequence_length")
    if lengths.shape != (batch,) or lengths.dtype not in (mstype.int32, mstype.int64):
        raise ValueError(f"{api}: 'sequence_length' must be an int32 tensor of shape ({batch},), but got "
                         f"{lengths.dtype} of shape {lengths.shape}")
    if not isinstance(merge_repeated, bool):
        raise TypeError(f"{api}: 'merge_repeated' must be a bool, but got {merge_repeated!r}")
    best = transpose(prim("Argmax", axis=2, output_type=mstype.int64)(x), (1, 0))  # (batch, time)
    peak = transpose(prim("ReduceMax", keep_dims=False)(x, (2,)), (1, 0))
    inside = prim("Less")(Tensor(np.arange(steps, dtype=np.int64)), expand_dims(cast(lengths, mstype.int64), 1))
    keep = prim("LogicalAnd")(inside, prim("NotEqual")(best, Tensor(classes - 1, mstype.int64)))
    if merge_repeated and steps > 1:  # a class equal to the step before (blank or not) repeats it
        previous = prim("Concat", axis=1)((Tensor(np.full((batch, 1), -1, np.int64)), best[:, :-1]))
        keep = prim("LogicalAnd")(keep, prim("NotEqual")(best, previous))
    where = nonzero(keep)  # (K, 2): [batch, time] in row-major order
    counts = cumsum(cast(keep, mstype.int64), 1)
    position = gather_nd(counts, where) - 1
    indices = stack((where[:, 0], position), 1)
    longest = prim("ReduceMax", keep_dims=True)(counts[:, -1], (0,))
    shape = prim("Concat", axis=0)((Tensor([batch], mstype.int64), longest))
    zeros = prim("ZerosLike")(peak)
    log_probability = -prim("ReduceSum", keep_dims=True)(prim("Select")(inside, peak, zeros), (1,))
    return indices, gather_nd(best, where), shape, log_probability


__all__ = ["sequence_mask", "ctc_greedy_decoder"]
