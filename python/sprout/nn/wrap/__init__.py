from sprout.nn.wrap.cell_wrapper import TrainOneStepCell, WithEvalCell, WithGradCell, WithLossCell
from sprout.nn.wrap.forward_value_and_grad import ForwardValueAndGrad
from sprout.nn.wrap.grad_reducer import DistributedGradReducer
from sprout.nn.wrap.jacobian_products import Jvp, Vjp
from sprout.nn.wrap.loss_scale import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,
                                       TrainOneStepWithLossScaleCell)
from sprout.nn.wrap.micro_batches import GradAccumulationCell, MicroBatchInterleaved, PipelineCell
from sprout.nn.wrap.parameter_update import ParameterUpdate
from sprout.nn.wrap.time_distributed import TimeDistributed

__all__ = ["DistributedGradReducer", "WithLossCell", "WithGradCell", "TrainOneStepCell", "WithEvalCell", "FixedLossScaleUpdateCell",
           "DynamicLossScaleUpdateCell", "TrainOneStepWithLossScaleCell", "ForwardValueAndGrad", "ParameterUpdate",
           "GradAccumulationCell", "PipelineCell", "MicroBatchInterleaved", "TimeDistributed", "Jvp", "Vjp"]
