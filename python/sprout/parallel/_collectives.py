"""The two collectives around a sharded call (Note [Sharded primitives]): Cells with their own bprop, so
the same rules hold in PYNATIVE and in compiled code."""
from sprout import ops
from sprout.nn.cell import Cell


class SumAcrossRanks(Cell):
    """Forward: the sum over the ranks of each one's block. Backward: the gradient as it is, since every
    rank goes on with the same sum and gets the same, whole, gradient of it."""

    def __init__(self):
        super().__init__(auto_prefix=False)
        self.all_reduce = ops.AllReduce(ops.ReduceOp.SUM)

    def construct(self, x):
        return self.all_reduce(x)

    def bprop(self, x, out, dout):
        return (dout,)


class SumGradientAcrossRanks(Cell):
    """Forward: the tensor as it is (whole on every rank). Backward: the sum over the ranks of the
    gradients of the blocks each one took from it."""

    def __init__(self):
        super().__init__(auto_prefix=False)
        self.all_reduce = ops.AllReduce(ops.ReduceOp.SUM)

    def construct(self, x):
        return x

    def bprop(self, x, out, dout):
        return (self.all_reduce(dout),)
