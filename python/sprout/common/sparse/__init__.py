"""Sparse tensors (``ms.COOTensor``, ``ms.CSRTensor``, ``ms.RowTensor``, the legacy ``ms.SparseTensor``).

Each is a small Python class holding Tensors and a shape tuple; its arithmetic and conversions are the
functions of sprout/ops/function/sparse_func.py (``ops.coo_*``, ``ops.csr_*``), compositions of gather,
scatter and segment ops, so they run eagerly and in compiled code and differentiate with respect to the
values. In compiled code a sparse tensor lives inside one graph: build it from tensors and return its
parts or a dense result (``to_tuple()``, ``to_dense()``), as a function's arguments and results are tensors.
"""
from sprout.common.sparse.coo_tensor import COOTensor, SparseTensor
from sprout.common.sparse.csr_tensor import CSRTensor
from sprout.common.sparse.row_tensor import RowTensor
from sprout.common.sparse import tensor_methods

tensor_methods.attach()

__all__ = ["COOTensor", "CSRTensor", "RowTensor", "SparseTensor"]
