// Tensor.__getitem__ / __setitem__ with NumPy's indexing rules. Note [Tensor indexing]
// Basic indices (ints, slices, None, Ellipsis) give views. Advanced indices (integer tensors, lists
// and arrays, boolean masks) follow NumPy: the index arrays broadcast together; their result dims
// replace the indexed axes where those are adjacent, else go first. Reads are built on registry ops
// (Gather for one integer index, MaskedSelect for a full mask, GatherNd otherwise, after a Transpose),
// so they are differentiable once a tape records them. Writes happen in place, as MindSpore's
// Tensor.__setitem__ does: the value is broadcast to the indexed shape and copied slice by slice
// into the tensor's own memory (TensorScatterUpdate semantics, last write wins).
#pragma once

#include "python/bindings.h"

namespace sprout::py {

Tensor tensor_getitem(const Tensor& t, nb::handle index);
void tensor_setitem(const Tensor& t, nb::handle index, nb::handle value);

}  // namespace sprout::py
