from sprout.nn.wrap.cell_wrapper import TrainOneStepCell, WithEvalCell, WithGradCell, WithLossCell

__all__ = ["WithLossCell", "WithGradCell", "TrainOneStepCell", "WithEvalCell"]
