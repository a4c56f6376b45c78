"""How sparse tensors print, as MindSpore prints them:

    COOTensor(shape=[3, 4], dtype=Float32, indices=Tensor(shape=[2, 2], dtype=Int32, value=
    [[0 1]
     [1 2]]), values=Tensor(shape=[2], dtype=Float32, value=[ 1.00000000e+00  2.00000000e+00]))

Each part is a tensor in MindSpore's C++ layout (NumPy's without commas, floats in scientific notation), which
differs from Tensor's own repr; 2-d and larger parts start on a new line."""
import numpy as np

from sprout.common import dtype as mstype


def _float_digits(dtype):
    return 4 if dtype in (mstype.float16, mstype.bfloat16) else 8


def tensor_part(tensor):
    """`Tensor(shape=[...], dtype=..., value=...)` for one member of a sparse tensor."""
    array = tensor.asnumpy()
    formatter = None
    if mstype.is_floating_type(tensor.dtype):
        digits = _float_digits(tensor.dtype)
        formatter = {"float_kind": lambda v: f"{v: .{digits}e}"}
    text = np.array2string(array, formatter=formatter, threshold=1000, max_line_width=10 ** 6)
    lead = "\n" if array.ndim > 1 else ""
    return f"Tensor(shape={list(array.shape)}, dtype={tensor.dtype}, value={lead}{text})"


def sparse_repr(name, shape, dtype, parts):
    """`name(shape=[...], dtype=..., part=Tensor(...), ...)`; parts: (name, tensor) pairs in order."""
    members = ", ".join(f"{part}={tensor_part(t)}" for part, t in parts)
    return f"{name}(shape={list(shape)}, dtype={dtype}, {members})"
