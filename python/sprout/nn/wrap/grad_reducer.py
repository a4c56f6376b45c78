"""``nn.DistributedGradReducer``: the gradients of a data-parallel step combined across ranks."""
from sprout import ops
from sprout.communication.management import GlobalComm
from sprout.nn.cell import Cell


class DistributedGradReducer(Cell):
    """Sums the ranks' gradients (divided by ``degree`` with ``mean``), in one AllReduce per dtype: the
    gradients of a dtype are joined into one flat tensor, reduced and cut back, since one large message
    costs far less than one per parameter. Works in PYNATIVE and GRAPH_MODE."""

    def __init__(self, parameters, mean=True, degree=None, fusion_type=1, group=GlobalComm.WORLD_COMM_GROUP):
        super().__init__(auto_prefix=False)
        from sprout.communication import get_group_size
        parameters = list(parameters)
        degree = get_group_size() if degree is None else degree
        if isinstance(degree, bool) or not isinstance(degree, int) or degree < 1:
            raise ValueError(f"DistributedGradReducer: degree must be an int >= 1, but got {degree!r}")
        if not isinstance(mean, bool):
            raise TypeError(f"DistributedGradReducer: mean must be a bool, but got {type(mean).__name__}")
        self.mean, self.degree = mean, degree
        self.all_reduce = ops.AllReduce(ops.ReduceOp.SUM, group)
        self.n_parameters = len(parameters)

    def construct(self, grads):
        if len(grads) != self.n_parameters:
            raise ValueError(f"DistributedGradReducer: got {len(grads)} gradients for {self.n_parameters} parameters")
        reduced = [None] * len(grads)
        for dtype in _dtypes(grads):
            indices = [i for i, g in enumerate(grads) if g.dtype == dtype]
            flat = ops.concat([ops.reshape(grads[i], (-1,)) for i in indices]) if len(indices) > 1 else \
                ops.reshape(grads[indices[0]], (-1,))
            flat = self.all_reduce(flat)
            if self.mean:
                flat = flat / self.degree
            start = 0
            for i in indices:
                size = grads[i].size
                reduced[i] = ops.reshape(flat[start:start + size], grads[i].shape)
                start += size
        return tuple(reduced)


def _dtypes(grads):
    seen = []
    for g in grads:
        if g.dtype not in seen:
            seen.append(g.dtype)
    return seen
