from sprout.nn.layer.activation import (ELU, GELU, HSigmoid, HSwish, LeakyReLU, LogSoftmax, Mish, PReLU, ReLU,
                                       ReLU6, SiLU, Sigmoid, Softmax, Softplus, Tanh, get_activation)
from sprout.nn.layer.activation_more import (CELU, GLU, HShrink, Hardtanh, LogSigmoid, SELU, SoftShrink, Softmin,
                                            Softsign, Tanhshrink, Threshold)
from sprout.nn.layer.basic import Dense, Flatten, Identity, PixelShuffle, PixelUnshuffle, Unflatten, Upsample
from sprout.nn.layer.container import CellDict, CellList, SequentialCell
from sprout.nn.layer.conv import Conv1d, Conv2d, Conv2dTranspose, Conv3d
from sprout.nn.layer.dropout import Dropout, Dropout1d, Dropout2d, Dropout3d
from sprout.nn.layer.embedding import Embedding
from sprout.nn.layer.normalization import (BatchNorm1d, BatchNorm2d, GroupNorm, InstanceNorm1d, InstanceNorm2d,
                                          InstanceNorm3d, LayerNorm)
from sprout.nn.layer.padding import (ConstantPad1d, ConstantPad2d, ConstantPad3d, ReflectionPad1d, ReflectionPad2d,
                                     ReflectionPad3d, ReplicationPad1d, ReplicationPad2d, ReplicationPad3d, ZeroPad2d)
from sprout.nn.layer.pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AvgPool1d,
                                     AvgPool2d, LPPool1d, LPPool2d, MaxPool1d, MaxPool2d)
from sprout.nn.layer.rnn_cells import GRUCell, LSTMCell, RNNCell
from sprout.nn.layer.rnns import GRU, LSTM, RNN
from sprout.nn.layer.transformer import (MultiheadAttention, Transformer, TransformerDecoder, TransformerDecoderLayer,
                                        TransformerEncoder, TransformerEncoderLayer)

__all__ = ["SELU", "CELU", "Softsign", "Hardtanh", "LogSigmoid", "GLU", "Softmin", "Tanhshrink", "SoftShrink", "HShrink",
           "Threshold", "Dense", "Flatten", "Identity", "PixelShuffle", "PixelUnshuffle", "PReLU", "Unflatten", "Upsample",
           "Dropout1d", "Dropout2d", "Dropout3d", "MaxPool1d", "AvgPool1d", "LPPool1d", "LPPool2d", "AdaptiveAvgPool1d", "AdaptiveMaxPool1d",
           "ZeroPad2d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d",
           "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "SequentialCell", "CellList", "CellDict", "ReLU", "ReLU6", "LeakyReLU",
           "ELU", "GELU", "SiLU", "Mish", "HSwish", "HSigmoid", "Sigmoid", "Tanh", "Softplus", "Softmax",
           "LogSoftmax", "get_activation", "Conv1d", "Conv2d", "Conv2dTranspose", "Conv3d", "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "AdaptiveMaxPool2d", "Dropout", "BatchNorm1d", "BatchNorm2d", "LayerNorm",
           "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "Embedding", "LSTM", "GRU", "RNN", "RNNCell", "LSTMCell", "GRUCell", "MultiheadAttention",
           "Transformer", "TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder", "TransformerDecoder"]
