"""mint's shape, joining and indexing functions: PyTorch's `dim`/`dims` arguments over sprout.ops (gather and
scatter are the elementwise ones along `dim`, as PyTorch's)."""
import numbers

from sprout import ops
from sprout.mint import _checks
from sprout.mint._checks import (check_dim, check_int, check_number, is_int, is_tensor,
                                 tensor)
from sprout.ops import (broadcast_to, dstack, flip, hstack, masked_select, permute, roll, swapaxes,  # noqa: F401
                        tril, triu)

__all__ = ["broadcast_to", "cat", "chunk", "concat", "diag", "diff", "dstack", "flatten", "flip", "gather",
           "hstack", "index_add", "index_select", "masked_select", "meshgrid", "narrow", "nonzero", "permute",
           "ravel", "repeat_interleave", "reshape", "roll", "scatter", "scatter_add", "select", "split", "squeeze",
           "stack", "swapaxes", "t", "take", "tile", "transpose", "tril", "triu", "unbind", "unsqueeze"]


def _seq(tensors, api):
    if is_tensor(tensors) or not isinstance(tensors, (tuple, list)):
        raise TypeError(f"{api}: 'tensors' must be a tuple or list of Tensors, but got {type(tensors).__name__}")
    if not tensors:
        raise ValueError(f"{api}: 'tensors' must not be empty")
    return tuple(tensor(t, api, "tensors") for t in tensors)


def cat(tensors, dim=0):
    """The tensors joined along `dim` (their other dimensions equal)."""
    ts = _seq(tensors, "mint.cat")
    return ops.concat(ts, check_dim(dim, ts[0].ndim, "mint.cat"))


def concat(tensors, dim=0):
    """Alias of mint.cat."""
    return cat(tensors, dim)


def stack(tensors, dim=0):
    """The tensors (all of one shape) stacked along a new dimension `dim`."""
    ts = _seq(tensors, "mint.stack")
    return ops.stack(ts, check_dim(dim, ts[0].ndim + 1, "mint.stack"))


def chunk(input, chunks, dim=0):
    """At most `chunks` views along `dim`, each ceil(size / chunks) long (the last shorter)."""
    x = tensor(input, "mint.chunk")
    chunks = check_int(chunks, "mint.chunk", "chunks")
    if chunks <= 0:
        raise ValueError(f"mint.chunk: 'chunks' must be positive, but got {chunks}")
    return ops.chunk(x, chunks, check_dim(dim, x.ndim, "mint.chunk"))


def split(tensor, split_size_or_sections, dim=0):  # noqa: F811 (PyTorch's argument name)
    """Pieces along `dim`: of `split_size_or_sections` each (an int, the last shorter) or of the given sizes."""
    x = _checks.tensor(tensor, "mint.split", "tensor")
    return ops.split(x, split_size_or_sections, check_dim(dim, x.ndim, "mint.split"))


def unbind(input, dim=0):
    """The slices along `dim`, as a tuple."""
    x = tensor(input, "mint.unbind")
    return ops.unbind(x, check_dim(dim, x.ndim, "mint.unbind"))


def diag(input, diagonal=0):
    """1-d input: the square matrix with input on its `diagonal`-th diagonal. 2-d input: that diagonal."""
    x = tensor(input, "mint.diag")
    k = check_int(diagonal, "mint.diag", "diagonal")
    if x.ndim == 1:
        return ops.diag_embed(x, k, 0, 1)
    if x.ndim == 2:
        return ops.diagonal(x, k, 0, 1)
    raise ValueError(f"mint.diag: 'input' must be 1-d or 2-d, but got shape {x.shape}")


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """The n-th forward difference along `dim`, after joining `prepend` and `append` to input."""
    x = tensor(input, "mint.diff")
    return ops.diff(x, check_int(n, "mint.diff", "n"), check_dim(dim, x.ndim, "mint.diff"), prepend, append)


def flatten(input, start_dim=0, end_dim=-1):
    """The dimensions start_dim .. end_dim merged into one (a 0-d input becomes 1-d)."""
    x = tensor(input, "mint.flatten")
    start = check_dim(start_dim, x.ndim, "mint.flatten", "start_dim")
    end = check_dim(end_dim, x.ndim, "mint.flatten", "end_dim")
    if start > end:
        raise ValueError(f"mint.flatten: 'start_dim' ({start_dim}) must not come after 'end_dim' ({end_dim})")
    if x.ndim == 0:
        return ops.reshape(x, (1,))
    return ops.reshape(x, x.shape[:start] + (-1,) + x.shape[end + 1:])


def ravel(input):
    """input flattened to 1-d."""
    return ops.reshape(tensor(input, "mint.ravel"), (-1,))


def reshape(input, shape):
    """input in `shape` (one dimension may be -1)."""
    return ops.reshape(tensor(input, "mint.reshape"), shape)


def squeeze(input, dim=None):
    """input without its size-1 dimensions (only those of `dim`, an int or a tuple, when given; others kept)."""
    x = tensor(input, "mint.squeeze")
    if dim is None:
        return ops.squeeze(x)
    dims = (dim,) if is_int(dim) else tuple(dim)
    dims = tuple(d for d in (check_dim(d, x.ndim, "mint.squeeze") for d in dims) if x.ndim and x.shape[d] == 1)
    return ops.squeeze(x, dims) if dims else x


def unsqueeze(input, dim):
    """input with a size-1 dimension inserted at `dim`."""
    x = tensor(input, "mint.unsqueeze")
    return ops.unsqueeze(x, check_dim(dim, x.ndim + 1, "mint.unsqueeze"))


def t(input):
    """A 2-d input transposed; 0-d and 1-d inputs unchanged."""
    x = tensor(input, "mint.t")
    if x.ndim > 2:
        raise ValueError(f"mint.t: 'input' must have at most 2 dimensions, but got shape {x.shape}")
    return ops.transpose(x, (1, 0)) if x.ndim == 2 else x


def transpose(input, dim0, dim1):
    """input with dimensions dim0 and dim1 swapped."""
    x = tensor(input, "mint.transpose")
    return ops.swapaxes(x, check_dim(dim0, x.ndim, "mint.transpose", "dim0"),
                        check_dim(dim1, x.ndim, "mint.transpose", "dim1"))


def tile(input, dims):
    """input repeated dims[i] times along dimension i (dims shorter than input's rank padded with ones in front,
    longer ones add dimensions)."""
    x = tensor(input, "mint.tile")
    dims = (dims,) if is_int(dims) else tuple(dims)
    if len(dims) < x.ndim:
        dims = (1,) * (x.ndim - len(dims)) + dims
    return ops.tile(x, dims)


def narrow(input, dim, start, length):
    """The `length` elements from `start` along `dim` (a view)."""
    x = tensor(input, "mint.narrow")
    d = check_dim(dim, x.ndim, "mint.narrow")
    start = check_int(start, "mint.narrow", "start") if not is_tensor(start) else int(start.item())
    if start < 0:
        start += x.shape[d]
    return ops.narrow(x, d, start, check_int(length, "mint.narrow", "length"))


def select(input, dim, index):
    """The slice at `index` along `dim`, that dimension removed."""
    x = tensor(input, "mint.select")
    d = check_dim(dim, x.ndim, "mint.select")
    i = check_int(index, "mint.select", "index")
    if not -x.shape[d] <= i < x.shape[d]:
        raise IndexError(f"mint.select: 'index' {i} is out of range for dimension {d} of size {x.shape[d]}")
    return ops.squeeze(ops.narrow(x, d, i % x.shape[d], 1), d)


def gather(input, dim, index):
    """out[i][j] = input[index[i][j]][j] for dim 0 (and likewise for other dims): PyTorch's gather."""
    x = tensor(input, "mint.gather")
    return ops.gather_elements(x, check_dim(dim, x.ndim, "mint.gather"), tensor(index, "mint.gather", "index"))


def index_select(input, dim, index):
    """The slices along `dim` at the positions of the 1-d integer tensor `index`."""
    x = tensor(input, "mint.index_select")
    return ops.index_select(x, check_dim(dim, x.ndim, "mint.index_select"), tensor(index, "mint.index_select",
                                                                                   "index"))


def take(input, index):
    """The elements of the flattened input at `index` (in index's shape)."""
    return ops.take(tensor(input, "mint.take"), tensor(index, "mint.take", "index"))


def _scatter_src(x, index, src, api):
    if isinstance(src, numbers.Number):
        return ops.fill(x.dtype, index.shape, src)
    return tensor(src, api, "src")


def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    """A copy of input with out[index[i][j]][j] = src[i][j] for dim 0 (and likewise for other dims); `src`
    may be a number (or given as `value`); `reduce` 'add' or 'multiply' combines instead of replacing."""
    api = "mint.scatter"
    x = tensor(input, api)
    index = tensor(index, api, "index")
    if src is None and value is None:
        raise TypeError(f"{api}: give 'src' (a Tensor or a number) or 'value'")
    src = _scatter_src(x, index, value if src is None else src, api)
    reduction = {None: "none", "add": "add", "multiply": "mul"}.get(reduce)
    if reduction is None:
        raise ValueError(f"{api}: 'reduce' must be None, 'add' or 'multiply', but got {reduce!r}")
    if src.shape != index.shape:
        src = ops.slice(src, (0,) * src.ndim, index.shape)  # PyTorch reads src only where index has elements
    return ops.tensor_scatter_elements(x, index, src, check_dim(dim, x.ndim, api), reduction)


def scatter_add(input, dim, index, src):
    """A copy of input with src[i][j] added at out[index[i][j]][j] for dim 0 (and likewise for other dims)."""
    x = tensor(input, "mint.scatter_add")
    index = tensor(index, "mint.scatter_add", "index")
    src = tensor(src, "mint.scatter_add", "src")
    if src.shape != index.shape:
        src = ops.slice(src, (0,) * src.ndim, index.shape)
    return ops.tensor_scatter_elements(x, index, src, check_dim(dim, x.ndim, "mint.scatter_add"), "add")


def index_add(input, dim, index, source, *, alpha=1):
    """A copy of input with alpha * source's slices along `dim` added at the positions `index` (1-d) names."""
    api = "mint.index_add"
    x = tensor(input, api)
    d = check_dim(dim, x.ndim, api)
    index, source = tensor(index, api, "index"), tensor(source, api, "source")
    check_number(alpha, api, "alpha")
    if index.ndim > 1 or (source.ndim and source.shape[d] != index.shape[0]):
        raise ValueError(f"{api}: 'index' must be 1-d with one position per slice of 'source' along dim {d}, but "
                         f"got index shape {index.shape} and source shape {source.shape}")
    # Each position of index names a whole slice: broadcast it across the slice, then scatter-add elementwise.
    shape = [1] * source.ndim
    shape[d] = -1
    full_index = ops.broadcast_to(ops.reshape(index, tuple(shape)), source.shape)
    return ops.tensor_scatter_elements(x, full_index, source if alpha == 1 else ops.mul(source, alpha), d, "add")


def nonzero(input, *, as_tuple=False):
    """The int64 indices of the nonzero elements: an (n, ndim) tensor, or one 1-d tensor per dimension."""
    return ops.nonzero(tensor(input, "mint.nonzero"), as_tuple=as_tuple)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids of 1-d tensors: 'ij' (the default) or 'xy' indexing."""
    if indexing is None:
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise ValueError(f"mint.meshgrid: 'indexing' must be 'ij' or 'xy', but got {indexing!r}")
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    return ops.meshgrid(*tensors, indexing=indexing)


def repeat_interleave(input, repeats, dim=None, *, output_size=None):
    """Each element (slice along `dim`; of the flattened input when None) repeated `repeats` times (an int, or
    one count per element)."""
    x = tensor(input, "mint.repeat_interleave")
    if dim is None:
        x, dim = ops.reshape(x, (-1,)), 0
    d = check_dim(dim, x.ndim, "mint.repeat_interleave")
    if is_tensor(repeats) and repeats.ndim == 0:
        repeats = int(repeats.item())
    elif is_tensor(repeats):
        repeats = [int(r) for r in repeats.asnumpy()]  # the output's shape depends on them
    out = ops.repeat_interleave(x, repeats, d)
    if output_size is not None and out.shape[d] != output_size:
        raise ValueError(f"mint.repeat_interleave: 'output_size' is {output_size} but the repeats make "
                         f"{out.shape[d]}")
    return out
