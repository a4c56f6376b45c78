from sprout.nn.wrap.cell_wrapper import TrainOneStepCell, WithEvalCell, WithGradCell, WithLossCell
from sprout.nn.wrap.grad_reducer import DistributedGradReducer
from sprout.nn.wrap.loss_scale import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,
                                       TrainOneStepWithLossScaleCell)

__all__ = ["DistributedGradReducer", "WithLossCell", "WithGradCell", "TrainOneStepCell", "WithEvalCell", "FixedLossScaleUpdateCell",
           "DynamicLossScaleUpdateCell", "TrainOneStepWithLossScaleCell"]
