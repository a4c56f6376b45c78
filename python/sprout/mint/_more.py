"""The rest of mint's top level: softmax and npu_gelu (PyTorch's gelu under MindSpore's Ascend name), both
mint.nn.functional's."""
from sprout.mint._checks import check_dim, check_dtype, tensor

__all__ = ["npu_gelu", "softmax"]


def softmax(input, dim, *, dtype=None):
    """exp(input) / sum(exp(input)) along `dim`, computed in `dtype` when given."""
    from sprout.mint.nn.functional import softmax as _softmax
    x = tensor(input, "mint.softmax")
    check_dim(dim, x.ndim, "mint.softmax")
    return _softmax(x, dim, check_dtype(dtype, "mint.softmax"))


def npu_gelu(input, approximate="none"):
    """gelu: input * Phi(input) ('none') or its tanh approximation ('tanh')."""
    from sprout.mint.nn.functional import gelu
    return gelu(input, approximate=approximate)
