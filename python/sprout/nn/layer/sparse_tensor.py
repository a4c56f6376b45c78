"""Layers over sparse tensors: ``nn.SparseToDense`` (a COOTensor to its dense tensor) and
``nn.SparseTensorDenseMatmul`` (a sparse matrix, given by its parts, times a dense one)."""
from sprout.common.sparse import COOTensor
from sprout.nn.cell import Cell
from sprout.ops.function_primitives import sparse_prims
from sprout.ops.function_primitives._attr_checks import check_bool


class SparseToDense(Cell):
    """``SparseToDense()(coo_tensor)``: the dense tensor of a COOTensor (ops.SparseToDense on its parts; MindSpore
    deprecates this layer for COOTensor.to_dense)."""

    def __init__(self):
        super().__init__()
        self.sparse_to_dense = sparse_prims.SparseToDense()

    def construct(self, sparse_tensor):
        if not isinstance(sparse_tensor, COOTensor):
            raise TypeError(f"SparseToDense: the input must be a COOTensor, but got {type(sparse_tensor).__name__}")
        return self.sparse_to_dense(sparse_tensor.indices, sparse_tensor.values, sparse_tensor.shape)


class SparseTensorDenseMatmul(Cell):
    """``SparseTensorDenseMatmul(adjoint_st=False, adjoint_dt=False)(indices, values, sparse_shape, dense)``:
    op(S) @ op(dense), S the 2-d sparse matrix of (indices, values, sparse_shape), op a transpose where asked."""

    def __init__(self, adjoint_st=False, adjoint_dt=False):
        super().__init__()
        self.adjoint_st = check_bool("SparseTensorDenseMatmul", "adjoint_st", adjoint_st)
        self.adjoint_dt = check_bool("SparseTensorDenseMatmul", "adjoint_dt", adjoint_dt)

    def construct(self, indices, values, sparse_shape, dense):
        return sparse_prims.sparse_dense_matmul("SparseTensorDenseMatmul", indices, values, sparse_shape, dense,
                                                self.adjoint_st, self.adjoint_dt)
