from sprout.nn.loss.loss import LossBase, MSELoss

__all__ = ["LossBase", "MSELoss"]
