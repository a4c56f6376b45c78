"""Records of Einsum: one per kind of equation (contraction, batch, diagonal, trace, outer product,
ellipsis broadcast, implicit output, three operands)."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import FLOAT_DTYPES, OpRecord

def _x():
    """A fresh (2, 3) tensor: records keep no tensors alive between tests."""
    return ms.Tensor(np.ones((2, 3)))


def _einsum(equation, shapes, grad_shapes=None, bad=()):
    return OpRecord("Einsum", lambda *xs: ops.einsum(equation, *xs), lambda *xs: np.einsum(equation, *xs), shapes,
                    FLOAT_DTYPES, tol={ms.float16: (4e-3, 4e-3), ms.bfloat16: (3e-2, 3e-2)},
                    prim=lambda: _C.Primitive("Einsum", {"equation": equation}),
                    grad_shapes=grad_shapes or shapes[:1], bad=list(bad))


RECORDS = [
    _einsum("ij,jk->ik", [((2, 3), (3, 4)), ((0, 3), (3, 2)), ((5, 7), (7, 33))], bad=[
        (lambda: ops.einsum("ij,jk", _x()), TypeError, r"Einsum: 'equation' 'ij,jk' names 2 operand\(s\), but 1"),
        (lambda: ops.einsum("ij,jk", _x(), _x()), TypeError, "gives label 'j' sizes 3 and 2"),
        (lambda: ops.einsum("ij->k", _x()), TypeError, "has output label 'k' that is repeated or in no input"),
        (lambda: ops.einsum("i1", _x()), TypeError, "may hold only letters"),
        (lambda: ops.einsum("ijk", _x()), TypeError, r"term 'ijk' does not fit operand 0 of shape \(2, 3\)"),
        (lambda: ops.einsum("i,i", ms.Tensor([1.0]), ms.Tensor([1.0], ms.float64)), TypeError,
         "Einsum: every tensor in 'x' must have the dtype of the first, Float32, but tensor 1 is Float64"),
        (lambda: ops.einsum("i", ms.Tensor([1])), TypeError, r"Einsum: 'x' must have dtype in \[Float16"),
        (lambda: ops.Einsum("i")(()), ValueError, "Einsum: 'x' must hold at least one tensor")]),
    _einsum("bij,bjk->bik", [((2, 3, 4), (2, 4, 5))]),
    _einsum("...ij,...jk", [((2, 3, 4), (1, 4, 5)), ((3, 4), (2, 4, 5))]),
    _einsum("ii->i", [((4, 4),), ((0, 0),)]),
    _einsum("ii", [((3, 3),)]),
    _einsum("iij->j", [((3, 3, 2),)]),
    _einsum("ij->", [((3, 4),), ((1, 1),)]),
    _einsum("i,j->ij", [((3,), (4,))]),
    _einsum("bi,bi->b", [((5, 3), (5, 3))]),
    _einsum("ij,jk,kl->il", [((2, 3), (3, 4), (4, 2))]),
    _einsum("ij,k->i", [((2, 3), (4,))]),
    _einsum("->", [((),)]),
]
