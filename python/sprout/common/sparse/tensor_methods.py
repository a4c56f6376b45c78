"""Tensor.to_coo and Tensor.to_csr: a 2-d dense tensor's nonzero elements as a COOTensor or CSRTensor (the
same as ops.dense_to_sparse_coo / ops.dense_to_sparse_csr). Attached when sprout.common.sparse is imported."""
from sprout.common.tensor import Tensor


def to_coo(self):
    """The nonzero elements of this 2-d tensor as a COOTensor (Int32 indices, row-major order)."""
    from sprout.ops.function.sparse_func import dense_to_sparse_coo
    return dense_to_sparse_coo(self)


def to_csr(self):
    """The nonzero elements of this 2-d tensor as a CSRTensor (Int32 indptr and indices)."""
    from sprout.ops.function.sparse_func import dense_to_sparse_csr
    return dense_to_sparse_csr(self)


def attach():
    for method in (to_coo, to_csr):
        if not hasattr(Tensor, method.__name__):
            setattr(Tensor, method.__name__, method)
