"""Wrappers that turn a network into a training or evaluation step: WithLossCell, WithGradCell,
TrainOneStepCell, WithEvalCell (``mindspore.nn.wrap``)."""
from sprout import _C, ops
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell
from sprout.ops.composite.grad import _gradients, _taped_call, value_and_grad
from sprout._frontend import is_building_graph


class WithLossCell(Cell):
    """loss_fn(backbone(data), label)."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        if not isinstance(backbone, Cell) or not callable(loss_fn):
            raise TypeError("WithLossCell: 'backbone' must be a Cell and 'loss_fn' callable")
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        return self._loss_fn(self._backbone(data), label)

    @property
    def backbone_network(self):
        return self._backbone


def _loss_and_grads(network, weights, inputs, sens, api):
    """The network's output and the gradients of output * sens with respect to `weights`, in one pass."""
    out, targets, restore = _taped_call(network, inputs, (), list(weights), api)
    try:
        if isinstance(sens, Tensor):  # one value (a loss scale) for every element of the output
            sens = ops.broadcast_to(sens.astype(out.dtype, copy=False), out.shape)
        elif sens is not None:
            if float(sens) == 1.0:
                sens = None  # the default ones, without building a Tensor through NumPy every step
            else:
                sens = Tensor(float(sens), out.dtype) if out.ndim == 0 else Tensor(shape=out.shape, dtype=out.dtype,
                                                                                  init=float(sens))
        grads = _gradients(out, sens, targets, api)
    finally:
        restore()
    return out, tuple(grads)


class WithGradCell(Cell):
    """The gradients of `network` (with `loss_fn`, if given) with respect to its trainable parameters."""

    def __init__(self, network, loss_fn=None, sens=None):
        super().__init__(auto_prefix=False)
        self.network = WithLossCell(network, loss_fn) if loss_fn is not None else network
        self.weights = self.network.trainable_params()
        self.sens = sens

    def construct(self, *inputs):
        return _loss_and_grads(self.network, self.weights, inputs, self.sens, "WithGradCell")[1]


class TrainOneStepCell(Cell):
    """One training step: loss = network(*inputs); grads of loss * sens; optimizer(grads); returns loss."""

    def __init__(self, network, optimizer, sens=None, return_grad=False):
        super().__init__(auto_prefix=False)
        self.network = network
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.sens = 1.0 if sens is None else sens
        self.return_grad = return_grad
        self._value_and_grad = value_and_grad(network, None, self.weights)
        self.grad_reducer = data_parallel_reducer(self.weights)

    def construct(self, *inputs):
        if is_building_graph():  # the compiler derives the gradient (Note [J transform])
            loss, grads = self._value_and_grad(*inputs)
            if self.sens != 1.0:
                grads = tuple(g * self.sens for g in grads)
        else:
            loss, grads = _loss_and_grads(self.network, self.weights, inputs, self.sens, "TrainOneStepCell")
            loss = _C.detach(loss)
        if self.grad_reducer is not None:
            grads = self.grad_reducer(grads)
        self.optimizer(grads)
        return (loss, grads) if self.return_grad else loss


def data_parallel_reducer(weights):
    """In a data-parallel job (set_auto_parallel_context(parallel_mode=DATA_PARALLEL)), the cell that
    combines the ranks' gradients; None otherwise. In a data-parallel or semi-auto-parallel job the
    weights are first made equal on every rank when asked (parameter_broadcast)."""
    from sprout import parallel_context
    data_parallel = parallel_context._data_parallel()
    if not (data_parallel or parallel_context._semi_auto_parallel()):
        return None
    if parallel_context.get_auto_parallel_context("parameter_broadcast"):
        from sprout import ops
        broadcast = ops.Broadcast(0)
        with _C.NoGrad():
            for w in weights:
                w.set_data(broadcast((w,))[0])
    if not data_parallel:  # semi-auto: sharded ops give every rank the whole gradient already
        return None
    from sprout.nn.wrap.grad_reducer import DistributedGradReducer
    return DistributedGradReducer(weights, parallel_context.get_auto_parallel_context("gradients_mean"),
                                  parallel_context.get_auto_parallel_context("device_num"))


class WithEvalCell(Cell):
    """(loss, outputs, label) for evaluation; with add_cast_fp32, half-precision outputs and labels cast to
    float32 (integer labels stay as they are)."""

    def __init__(self, network, loss_fn, add_cast_fp32=False):
        super().__init__(auto_prefix=False)
        self._network, self._loss_fn, self.add_cast_fp32 = network, loss_fn, add_cast_fp32

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:
            outputs = outputs.astype(mstype.float32, copy=False)
            if mstype.is_floating_type(label.dtype):
                label = label.astype(mstype.float32, copy=False)
        return self._loss_fn(outputs, label), outputs, label
