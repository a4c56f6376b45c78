from sprout.nn.wrap.cell_wrapper import TrainOneStepCell, WithEvalCell, WithGradCell, WithLossCell
from sprout.nn.wrap.loss_scale import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,
                                       TrainOneStepWithLossScaleCell)

__all__ = ["WithLossCell", "WithGradCell", "TrainOneStepCell", "WithEvalCell", "FixedLossScaleUpdateCell",
           "DynamicLossScaleUpdateCell", "TrainOneStepWithLossScaleCell"]
