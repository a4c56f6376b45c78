from sprout.nn.loss.loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, KLDivLoss, L1Loss, LossBase, MSELoss,
                                 NLLLoss, SmoothL1Loss, SoftmaxCrossEntropyWithLogits)

__all__ = ["LossBase", "MSELoss", "L1Loss", "SmoothL1Loss", "SoftmaxCrossEntropyWithLogits", "CrossEntropyLoss",
           "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss"]
