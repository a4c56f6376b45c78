"""Loss scaling for mixed precision: the scale update cells and TrainOneStepWithLossScaleCell.

The loss is multiplied by the scale before the backward pass so small float16 gradients do not
flush to zero; gradients are divided by it again before the update. A step whose gradients overflow
(inf/NaN) is skipped, and the dynamic policy lowers the scale then, raising it again after
`scale_window` clean steps.
"""
import numpy as np

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell
from sprout.nn.wrap.cell_wrapper import _loss_and_grads, data_parallel_reducer


def _finite(tensors):
    return all(np.isfinite(t.asnumpy()).all() for t in tensors)


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
        self.cur_iter = 0

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        """Updates `loss_scale` (a Parameter) in place; returns overflow."""
        scale = float(loss_scale.item())
        if overflow:
            scale = max(scale / self.scale_factor, 1.0)
            self.cur_iter = 0
        else:
            self.cur_iter += 1
            if self.cur_iter >= self.scale_window:
                scale *= self.scale_factor
                self.cur_iter = 0
        loss_scale._copy_from(Tensor([scale], mstype.float32).reshape(loss_scale.shape))
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
        scale = float(self.scale_sense.item())
        loss, grads = _loss_and_grads(self.network, self.weights, inputs, scale, "TrainOneStepWithLossScaleCell")
        grads = tuple(g / scale for g in grads)
        if self.grad_reducer is not None:  # every rank then sees the same gradients, and the same overflow
            grads = self.grad_reducer(grads)
        overflow = not _finite(grads)
        if self.scale_update_cell is not None:
            overflow = self.scale_update_cell(self.scale_sense, overflow)
        if not overflow:
            self.optimizer(grads)
        return _C.detach(loss), Tensor(overflow), Tensor(scale, mstype.float32)
