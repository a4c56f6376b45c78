from sprout.nn.loss.loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, KLDivLoss, L1Loss, LossBase, MSELoss,
                                 NLLLoss, SmoothL1Loss, SoftmaxCrossEntropyWithLogits)
from sprout.nn.loss.loss_extra import (DiceLoss, FocalLoss, HingeEmbeddingLoss, MultiClassDiceLoss,
                                       MultilabelMarginLoss, TripletMarginWithDistanceLoss)
from sprout.nn.loss.loss_more import (CTCLoss, CosineEmbeddingLoss, GaussianNLLLoss, HuberLoss, MAELoss,
                                      MarginRankingLoss, MultiLabelSoftMarginLoss, MultiMarginLoss, PoissonNLLLoss,
                                      RMSELoss, SoftMarginLoss, TripletMarginLoss)

__all__ = ["LossBase", "MSELoss", "L1Loss", "SmoothL1Loss", "SoftmaxCrossEntropyWithLogits", "CrossEntropyLoss",
           "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss", "HuberLoss", "SoftMarginLoss", "MarginRankingLoss",
           "CosineEmbeddingLoss", "TripletMarginLoss", "MultiMarginLoss", "MultiLabelSoftMarginLoss", "PoissonNLLLoss",
           "GaussianNLLLoss", "RMSELoss", "MAELoss", "CTCLoss",
           "DiceLoss", "MultiClassDiceLoss", "FocalLoss", "HingeEmbeddingLoss", "MultilabelMarginLoss",
           "TripletMarginWithDistanceLoss"]
