"""dense (a linear layer's product, composed of MatMul and Add) and einsum (the Einsum primitive)."""
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim

_matmul_t, _add, _reshape = prim("MatMul", transpose_b=True), prim("Add"), prim("Reshape")


def dense(input, weight, bias=None):
    """input @ weight.T + bias over the last axis of `input`. `weight` is (out_channels, in_channels), or
    (in_channels,) for a single output that drops the last axis."""
    for arg, value in (("input", input), ("weight", weight)):
        if not isinstance(value, Tensor):
            raise TypeError(f"dense: '{arg}' must be a Tensor, but got {type(value).__name__}")
    in_channels = input.shape[-1] if input.ndim else None
    if weight.ndim not in (1, 2) or in_channels is None or weight.shape[-1] != in_channels:
        raise ValueError(f"dense: 'weight' must have shape (out_channels, {in_channels}) or ({in_channels},) for "
                         f"'input' of shape {input.shape} (in_channels last), but has shape {weight.shape}")
    w = _reshape(weight, (1, in_channels)) if weight.ndim == 1 else weight
    out = _matmul_t(_reshape(input, (-1, in_channels)), w)
    if bias is not None:
        out = _add(out, bias)
    return _reshape(out, input.shape[:-1] + weight.shape[:-1])


def einsum(equation, *operands):
    """Einstein summation: einsum("bij,bjk->bik", x, y) is a batched matrix product. Operands may also
    be given as one tuple or list."""
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    if not isinstance(equation, str):
        raise TypeError(f"einsum: 'equation' must be a str, but got {type(equation).__name__}")
    return prim("Einsum", equation=equation)(operands)


__all__ = ["dense", "einsum"]
