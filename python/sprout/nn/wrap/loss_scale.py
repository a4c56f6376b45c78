"""Loss scaling for mixed precision: the scale update cells and TrainOneStepWithLossScaleCell.

The loss is multiplied by the scale before the backward pass so small float16 gradients do not
flush to zero; gradients are divided by it again before the update. A step whose gradients overflow
(inf/NaN) is skipped, and the dynamic policy lowers the scale then, raising it again after
`scale_window` clean steps. The scale, the overflow flag and the count of clean steps are tensors, so
the same code runs eagerly and compiled.
"""
from sprout import _C, ops
from sprout._frontend import is_building_graph
from sprout.common import dtype as mstype
from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell
from sprout.nn.wrap.cell_wrapper import _loss_and_grads, data_parallel_reducer
from sprout.ops.composite.grad import vjp


def _overflow(grads):
    """A Bool tensor: whether any gradient holds an inf or a NaN."""
    return ops.logical_not(ops.stack([ops.isfinite(g).all() for g in grads]).all())


class FixedLossScaleUpdateCell(Cell):
    def __init__(self, loss_scale_value):
        super().__init__()
        if not loss_scale_value > 0:
            raise ValueError(f"FixedLossScaleUpdateCell: 'loss_scale_value' must be > 0, got {loss_scale_value!r}")
        self.loss_scale_value = float(loss_scale_value)

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        return overflow


class DynamicLossScaleUpdateCell(Cell):
    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        if not loss_scale_value > 0 or not scale_factor > 1 or not (isinstance(scale_window, int) and scale_window > 0):
            raise ValueError("DynamicLossScaleUpdateCell: need loss_scale_value > 0, scale_factor > 1 and a positive "
                             f"int scale_window; got {loss_scale_value!r}, {scale_factor!r}, {scale_window!r}")
        self.loss_scale_value = float(loss_scale_value)
        self.scale_factor, self.scale_window = float(scale_factor), scale_window
        self.clean_steps = Parameter(Tensor([0], mstype.int32), name="clean_steps", requires_grad=False)

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        """Updates `loss_scale` (a Parameter) in place; returns overflow. An overflow divides the scale by
        scale_factor (not below 1); scale_window clean steps in a row multiply it."""
        clean = self.clean_steps + 1
        grow = ops.logical_and(ops.logical_not(overflow), clean >= self.scale_window)
        lowered = ops.maximum(loss_scale / self.scale_factor, 1.0)
        scale = ops.select(overflow, lowered, ops.select(grow, loss_scale * self.scale_factor, loss_scale))
        ops.assign(loss_scale, scale)
        ops.assign(self.clean_steps, ops.select(ops.logical_or(overflow, grow), ops.zeros_like(clean), clean))
        return overflow


class TrainOneStepWithLossScaleCell(Cell):
    """One step with loss scaling; returns (loss, overflow, scale). `scale_sense` is an update cell or a Tensor."""

    def __init__(self, network, optimizer, scale_sense):
        super().__init__(auto_prefix=False)
        self.network, self.optimizer, self.weights = network, optimizer, optimizer.parameters
        if isinstance(scale_sense, Cell):
            self.scale_update_cell = scale_sense
            initial = scale_sense.get_loss_scale()
        elif isinstance(scale_sense, Tensor) and scale_sense.size == 1:
            self.scale_update_cell = None
            initial = float(scale_sense.item())
        else:
            raise TypeError("TrainOneStepWithLossScaleCell: 'scale_sense' must be a loss-scale update cell or a "
                            f"one-element Tensor, but got {type(scale_sense).__name__}")
        self.scale_sense = Parameter(Tensor([initial], mstype.float32), name="scale_sense", requires_grad=False)
        self.grad_reducer = data_parallel_reducer(self.weights)

    def construct(self, *inputs):
        scale = self.scale_sense.copy().reshape(())  # this step's scale, before the update cell changes it
        if is_building_graph():  # the compiler derives the gradient of loss * scale (Note [J transform])
            loss, backward = vjp(self.network, *inputs, weights=self.weights)
            grads = backward(ops.ones_like(loss) * scale.astype(loss.dtype))[1]
        else:
            loss, grads = _loss_and_grads(self.network, self.weights, inputs, scale,
                                          "TrainOneStepWithLossScaleCell")
            loss = _C.detach(loss)
        grads = tuple(g / scale.astype(g.dtype) for g in grads)
        if self.grad_reducer is not None:  # every rank then sees the same gradients, and the same overflow
            grads = self.grad_reducer(grads)
        overflow = _overflow(grads)
        if self.scale_update_cell is not None:
            overflow = self.scale_update_cell(self.scale_sense, overflow)
        if not overflow:  # a tensor condition: compiled as a branch
            self.optimizer(grads)
        return loss, overflow, scale


# Staged from source when compiled (Note [Staging]): the step branches on the overflow tensor.
TrainOneStepWithLossScaleCell.construct._sprout_stage = True
