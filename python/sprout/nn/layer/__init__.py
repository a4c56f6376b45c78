from sprout.nn.layer.activation import (ELU, GELU, HSigmoid, HSwish, LeakyReLU, LogSoftmax, Mish, PReLU, ReLU,
                                       ReLU6, SiLU, Sigmoid, Softmax, Softplus, Tanh, get_activation)
from sprout.nn.layer.activation_more import (CELU, GLU, HShrink, Hardtanh, LogSigmoid, RReLU, SELU, SoftShrink,
                                            Softmax2d, Softmin, Softsign, Tanhshrink, Threshold)
from sprout.nn.layer.activation_extra import FastGelu, SeLU
from sprout.nn.layer.array import ChannelShuffle, OneHot, Pad, Range, Roll, Tril, Triu, Unfold
from sprout.nn.layer.bidense import BiDense
from sprout.nn.layer.image import MSSSIM, PSNR, SSIM, CentralCrop, ImageGradients
from sprout.nn.layer.lrn import LRN
from sprout.nn.layer.math import (ClipByNorm, L1Regularizer, MatDet, MatInverse, MatMul, MatrixDiag, MatrixDiagPart,
                                  MatrixSetDiag, Moments, Norm, ReduceLogSumExp)
from sprout.nn.layer.math_special import DiGamma, IGamma, LBeta, LGamma
from sprout.nn.layer.sparse import EmbeddingLookup, MultiFieldEmbeddingLookup
from sprout.nn.layer.sparse_tensor import SparseTensorDenseMatmul, SparseToDense
from sprout.nn.layer.unpooling import MaxUnpool1d, MaxUnpool2d, MaxUnpool3d
from sprout.nn.layer.basic import Dense, Flatten, Identity, PixelShuffle, PixelUnshuffle, Unflatten, Upsample
from sprout.nn.layer.combined import Conv2dBnAct, DenseBnAct
from sprout.nn.layer.container import CellDict, CellList, SequentialCell
from sprout.nn.layer.conv import Conv1d, Conv1dTranspose, Conv2d, Conv2dTranspose, Conv3d, Conv3dTranspose
from sprout.nn.layer.dropout import Dropout, Dropout1d, Dropout2d, Dropout3d
from sprout.nn.layer.embedding import Embedding
from sprout.nn.layer.fractional_pool import FractionalMaxPool2d, FractionalMaxPool3d
from sprout.nn.layer.normalization import (BatchNorm1d, BatchNorm2d, BatchNorm3d, GroupNorm, InstanceNorm1d,
                                          InstanceNorm2d, InstanceNorm3d, LayerNorm)
from sprout.nn.layer.padding import (ConstantPad1d, ConstantPad2d, ConstantPad3d, ReflectionPad1d, ReflectionPad2d,
                                     ReflectionPad3d, ReplicationPad1d, ReplicationPad2d, ReplicationPad3d, ZeroPad2d)
from sprout.nn.layer.pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d,
                                     AvgPool1d, AvgPool2d, LPPool1d, LPPool2d, MaxPool1d, MaxPool2d)
from sprout.nn.layer.pooling3d import AdaptiveAvgPool3d, AdaptiveMaxPool3d, AvgPool3d, MaxPool3d
from sprout.nn.layer.rnn_cells import GRUCell, LSTMCell, RNNCell
from sprout.nn.layer.rnns import GRU, LSTM, RNN
from sprout.nn.layer.transformer import (MultiheadAttention, Transformer, TransformerDecoder, TransformerDecoderLayer,
                                        TransformerEncoder, TransformerEncoderLayer)

__all__ = ["Conv2dBnAct", "DenseBnAct", "SparseTensorDenseMatmul", "SparseToDense", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
           "AdaptiveMaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d",
           "CellDict", "CellList", "CELU", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "Conv1d",
           "Conv1dTranspose", "Conv2d", "Conv2dTranspose", "Conv3d", "Conv3dTranspose", "Dense", "Dropout",
           "Dropout1d", "Dropout2d", "Dropout3d", "ELU", "Embedding", "Flatten", "GELU", "get_activation", "GLU",
           "GroupNorm", "GRU", "GRUCell", "Hardtanh", "HShrink", "HSigmoid", "HSwish", "Identity", "InstanceNorm1d",
           "InstanceNorm2d", "InstanceNorm3d", "LayerNorm", "LeakyReLU", "LogSigmoid", "LogSoftmax", "LPPool1d",
           "LPPool2d", "LSTM", "LSTMCell", "MaxPool1d", "MaxPool2d", "MaxPool3d", "Mish", "MultiheadAttention",
           "PixelShuffle", "PixelUnshuffle", "PReLU", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReLU", "ReLU6", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "RNN", "RNNCell", "RReLU",
           "SELU", "SequentialCell", "Sigmoid", "SiLU", "Softmax", "Softmax2d", "Softmin", "Softplus", "SoftShrink",
           "Softsign", "Tanh", "Tanhshrink", "Threshold", "Transformer", "TransformerDecoder",
           "TransformerDecoderLayer", "TransformerEncoder", "TransformerEncoderLayer", "Unflatten", "Upsample",
           "ZeroPad2d",
           "FastGelu", "SeLU", "ChannelShuffle", "OneHot", "Pad", "Range", "Roll", "Tril", "Triu", "Unfold",
           "BiDense", "MSSSIM", "PSNR", "SSIM", "CentralCrop", "ImageGradients", "LRN", "ClipByNorm",
           "L1Regularizer", "MatDet", "MatInverse", "MatMul", "MatrixDiag", "MatrixDiagPart", "MatrixSetDiag",
           "Moments", "Norm", "ReduceLogSumExp",
           "EmbeddingLookup", "MultiFieldEmbeddingLookup", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d",
           "LGamma", "DiGamma", "IGamma", "LBeta", "FractionalMaxPool2d", "FractionalMaxPool3d"]
