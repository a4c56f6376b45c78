"""GraphTensor: what a Tensor is while a graph is being built (Note [Graph tensors] in src/python/ir.cc).

A GraphTensor stands for a node of the graph under construction: it knows its dtype and shape (the
node's abstract) but has no values. Library code (nn layers, ``ops`` functions, Tensor methods written
in Python) runs unchanged on it, because every registry primitive called with a GraphTensor emits a
node. What needs values (``asnumpy``, ``bool``, ``int``) fails with a message saying what to write.
"""
import numpy as np

from sprout.common.tensor import Tensor


class GraphTensor(Tensor):
    """A tensor-valued node of a graph being compiled. ``_scalar_kind`` marks a runtime Python scalar."""


    def __init__(self, node, scalar_kind=None):  # noqa: the C++ base stays uninitialized on purpose
        object.__setattr__(self, "_node", node)
        object.__setattr__(self, "_scalar_kind", scalar_kind)

    # --- metadata (known at compile time) -------------------------------------------------------
    @property
    def shape(self):
        return self._node.spec[1]

    @property
    def dtype(self):
        return self._node.spec[0]

    @property
    def ndim(self):
        return len(self._node.spec[1])

    def dim(self):
        return self.ndim

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def itemsize(self):
        from sprout.common import dtype as mstype
        return 2 if self.dtype == mstype.bfloat16 else np.dtype(mstype.dtype_to_nptype(self.dtype)).itemsize

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __repr__(self):
        return f"GraphTensor(shape={list(self.shape)}, dtype={self.dtype})"

    __str__ = __repr__

    def __hash__(self):
        return id(self)

    # --- values are not known while compiling -----------------------------------------------------
    def _no_value(self, what):
        raise RuntimeError(f"graph mode: {what} needs the tensor's value, which is only known when the graph runs; "
                           f"return the tensor from the compiled function instead (or use PYNATIVE_MODE)")

    def asnumpy(self):
        self._no_value("Tensor.asnumpy()")

    def item(self, index=None):
        self._no_value("Tensor.item()")

    def tolist(self):
        self._no_value("Tensor.tolist()")

    def __bool__(self):
        self._no_value("using a Tensor as a Python bool here (in library code)")

    def __int__(self):
        self._no_value("int(Tensor)")

    def __float__(self):
        self._no_value("float(Tensor)")

    def __index__(self):
        self._no_value("using a Tensor as an index")

    def __array__(self, *args, **kwargs):
        self._no_value("converting a Tensor to a NumPy array")

    # --- operators: the ops functions, which emit through the primitive hook ----------------------
    def __add__(self, other):
        return _ops().add(self, other)

    def __radd__(self, other):
        return _ops().add(other, self)

    def __sub__(self, other):
        return _ops().sub(self, other)

    def __rsub__(self, other):
        return _ops().sub(other, self)

    def __mul__(self, other):
        return _ops().mul(self, other)

    def __rmul__(self, other):
        return _ops().mul(other, self)

    def __truediv__(self, other):
        return _prim("RealDiv")(self, other)

    def __rtruediv__(self, other):
        return _prim("RealDiv")(other, self)

    def __floordiv__(self, other):
        return _prim("FloorDiv")(self, other)

    def __rfloordiv__(self, other):
        return _prim("FloorDiv")(other, self)

    def __mod__(self, other):
        return _prim("FloorMod")(self, other)

    def __rmod__(self, other):
        return _prim("FloorMod")(other, self)

    def __pow__(self, other):
        return _prim("Pow")(self, other)

    def __rpow__(self, other):
        return _prim("Pow")(other, self)

    def __matmul__(self, other):
        return _ops().matmul(self, other)

    def __neg__(self):
        return _prim("Neg")(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return _prim("Abs")(self)

    def __eq__(self, other):
        return _prim("Equal")(self, other)

    def __ne__(self, other):
        return _prim("NotEqual")(self, other)

    def __lt__(self, other):
        return _prim("Less")(self, other)

    def __le__(self, other):
        return _prim("LessEqual")(self, other)

    def __gt__(self, other):
        return _prim("Greater")(self, other)

    def __ge__(self, other):
        return _prim("GreaterEqual")(self, other)

    # --- methods bound in C++ for eager tensors --------------------------------------------------
    def astype(self, dtype, copy=True):
        from sprout.common import dtype as mstype
        dtype = mstype._dtype_arg("Tensor.astype", "dtype", dtype)
        if not copy and dtype == self.dtype:
            return self  # as in eager mode; a Cast to its own dtype would copy (Note [Side effects in graph mode])
        return _prim("Cast")(self, dtype)

    def copy(self):
        return _prim("Identity")(self)

    def contiguous(self):
        return self

    def is_contiguous(self):
        return True

    def __getitem__(self, index):
        from sprout._frontend import indexing
        return indexing.getitem(self, index)

    def __setitem__(self, index, value):
        # Graph values are immutable: x[i] = v makes this name stand for the updated tensor.
        from sprout._frontend import indexing
        updated = indexing.setitem(self, index, value)
        object.__setattr__(self, "_node", updated._node)


def _needs_memory(name):
    def method(self, *args, **kwargs):
        raise RuntimeError(f"Tensor.{name}: needs the tensor's memory, which a value being compiled (ms.jit, GRAPH_MODE) "
                           f"does not have; compute a new tensor instead (x = x.astype(dtype) for set_dtype)")
    method.__name__ = name
    return method


# The C++ Tensor's methods that read or change its memory: a GraphTensor has none (its C++ part is never
# initialized), so they say what to write rather than fail inside nanobind.
for _name in ("set_dtype", "_assign_value", "_copy_from", "_data_ptr", "_element", "_shares_memory"):
    setattr(GraphTensor, _name, _needs_memory(_name))


def _prim(name):
    from sprout.ops.function._prims import prim
    return prim(name)


def _ops():
    from sprout import ops
    return ops
