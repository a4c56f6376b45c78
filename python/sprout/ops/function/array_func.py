"""Layout and dtype ops: cast, reshape, transpose."""
from sprout.common import dtype as mstype
from sprout.ops.function._prims import prim

_cast, _reshape, _transpose = prim("Cast"), prim("Reshape"), prim("Transpose")


def cast(input, dtype):
    """`input` converted to `dtype`."""
    if not isinstance(dtype, mstype.Type):
        raise TypeError(f"cast: 'dtype' must be a sprout dtype such as ms.float32, but got {dtype!r}")
    return _cast(input, dtype)


def reshape(input, shape):
    """Same elements in `shape` (one entry may be -1); a view when the layout allows."""
    return _reshape(input, tuple(shape))


def transpose(input, input_perm):
    """Permutes the axes as `input_perm` says; a view."""
    return _transpose(input, tuple(input_perm))


def permute(input, dims):
    """Same as transpose (MindSpore 2.x name)."""
    return _transpose(input, tuple(dims))


__all__ = ["cast", "reshape", "transpose", "permute"]
