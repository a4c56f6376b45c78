"""Random selections, MindSpore 2.x names: ops.choice_with_mask (up to `count` True positions of a bool
tensor in random order, padded to a fixed length: a fixed output shape, so it compiles) and
ops.multinomial_with_replacement."""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function.array_func import cast, concat, reshape, stack, where, zeros_like
from sprout.ops.function.random_func import multinomial, uniform

__all__ = ["choice_with_mask", "multinomial_with_replacement"]


def choice_with_mask(input_x, count=256, seed=None):
    """(index, mask): the coordinates (count, rank), Int32, of up to `count` True elements of the bool
    input_x chosen at random, and which rows hold one (the others are zeros, mask False)."""
    api = "choice_with_mask"
    if not isinstance(input_x, Tensor) or input_x.dtype != mstype.bool_:
        raise TypeError(f"{api}: 'input_x' must be a bool Tensor, but got {getattr(input_x, 'dtype', input_x)!r}")
    if not 1 <= input_x.ndim <= 5:
        raise ValueError(f"{api}: 'input_x' must have rank 1 to 5, but got shape {input_x.shape}")
    if isinstance(count, bool) or not isinstance(count, int) or count <= 0:
        raise ValueError(f"{api}: 'count' must be a positive int, but got {count!r}")
    flat = reshape(input_x, (-1,))
    # Each True element draws a key in [0, 1), each False one -1: the `count` largest keys are a uniformly
    # random choice among the True elements, taken before any False one.
    keys = where(flat, uniform(flat.shape, Tensor(0.0), Tensor(1.0), seed), Tensor(-1.0))
    size = flat.shape[0]
    if count > size:
        keys = concat((keys, Tensor(np.full(count - size, -2.0, np.float32))), 0)
    chosen_keys, positions = keys.topk(count)
    mask = chosen_keys >= 0
    positions = where(mask, positions, zeros_like(positions))
    coordinates, rest = [], positions
    for extent in reversed(input_x.shape):
        coordinates.append(rest % extent)
        rest = rest // extent
    index = stack(tuple(reversed(coordinates)), 1)
    return cast(where(reshape(mask, (count, 1)), index, zeros_like(index)), mstype.int32), mask


def multinomial_with_replacement(x, seed, offset, numsamples, replacement=False):
    """`numsamples` category indices per row of the (1-d or 2-d) non-negative weights x (with or without
    replacement), Int64. seed and offset 0 draw from the global generator; otherwise they fix the draw."""
    seeds = [int(v.asnumpy()) if isinstance(v, Tensor) else v for v in (seed, offset)]
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in seeds):
        raise TypeError(f"multinomial_with_replacement: 'seed' and 'offset' must be non-negative ints, but got "
                        f"{seed!r} and {offset!r}")
    fixed = None if seeds == [0, 0] else seeds[0] * 1000003 + seeds[1]
    return cast(multinomial(x, numsamples, replacement, fixed), mstype.int64)
