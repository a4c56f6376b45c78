from sprout.nn.layer.activation import (ELU, GELU, HSigmoid, HSwish, LeakyReLU, LogSoftmax, Mish, PReLU, ReLU,
                                       ReLU6, SiLU, Sigmoid, Softmax, Softplus, Tanh, get_activation)
from sprout.nn.layer.basic import Dense, Flatten, Identity, PixelShuffle, PixelUnshuffle
from sprout.nn.layer.container import CellDict, CellList, SequentialCell
from sprout.nn.layer.conv import Conv1d, Conv2d, Conv2dTranspose, Conv3d
from sprout.nn.layer.dropout import Dropout
from sprout.nn.layer.embedding import Embedding
from sprout.nn.layer.normalization import (BatchNorm1d, BatchNorm2d, GroupNorm, InstanceNorm1d, InstanceNorm2d,
                                          InstanceNorm3d, LayerNorm)
from sprout.nn.layer.pooling import AdaptiveAvgPool2d, AdaptiveMaxPool2d, AvgPool2d, MaxPool2d
from sprout.nn.layer.rnns import GRU, LSTM
from sprout.nn.layer.transformer import (MultiheadAttention, TransformerDecoder, TransformerDecoderLayer,
                                        TransformerEncoder, TransformerEncoderLayer)

__all__ = ["Dense", "Flatten", "Identity", "PixelShuffle", "PixelUnshuffle", "PReLU", "SequentialCell", "CellList", "CellDict", "ReLU", "ReLU6", "LeakyReLU",
           "ELU", "GELU", "SiLU", "Mish", "HSwish", "HSigmoid", "Sigmoid", "Tanh", "Softplus", "Softmax",
           "LogSoftmax", "get_activation", "Conv1d", "Conv2d", "Conv2dTranspose", "Conv3d", "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "AdaptiveMaxPool2d", "Dropout", "BatchNorm1d", "BatchNorm2d", "LayerNorm",
           "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "Embedding", "LSTM", "GRU", "MultiheadAttention",
           "TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder", "TransformerDecoder"]
