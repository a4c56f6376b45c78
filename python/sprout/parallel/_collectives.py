"""The two collectives around a sharded call (Note [Sharded primitives]): Cells with their own bprop, so
the same rules hold in PYNATIVE and in compiled code."""
from sprout import ops
from sprout.nn.cell import Cell


class GatherFromRanks(Cell):
    """Forward: every rank's tensor, stacked in rank order along axis 0. Backward: this rank's part of the
    gradient, not its sum over the ranks (AllGather's own rule): every rank goes on with the same stack and
    gets the same, whole, gradient of it."""

    def __init__(self):
        super().__init__(auto_prefix=False)
        from sprout.communication.management import get_rank
        self.all_gather = ops.AllGather()
        self.rank = get_rank()

    def construct(self, x):
        return self.all_gather(x)

    def bprop(self, x, out, dout):
        n = x.shape[0]
        return (dout[self.rank * n:(self.rank + 1) * n],)


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
