"""The MindSpore 2.x names `import sprout as ms` code reaches for exist: a missing one is an AttributeError in
a user's script, so the surface is pinned here (each is tested for behaviour in its own test file)."""
import pytest

import sprout as ms

OPS = """abs add addcdiv addcmul addmm affine_grid amax amin argmax argmin argsort argwhere atleast_1d atleast_2d
atleast_3d baddbmm bernoulli bincount bmm broadcast_to bucketize cat cdist ceil cholesky cholesky_inverse
cholesky_solve clamp clip clip_by_global_norm clip_by_norm concat conv1d conv2d conv3d cos cosine_similarity
count_nonzero cross ctc_loss cummax cummin cumprod cumsum deg2rad det diag diagonal diff dist div dropout
dropout1d dropout2d dropout3d einsum equal exp exp2 expand_dims eye flatten flip fliplr flipud floor fold full
full_like gather gather_elements gather_nd gelu grid_sample hardshrink heaviside histc hstack huber_loss hypot
index_add index_fill index_select interpolate inverse is_floating_point is_tensor isclose isfinite isinf isnan
jacfwd jacrev jvp kron l1_loss layer_norm lerp linspace log log10 log1p log2 log_softmax logaddexp logcumsumexp
logdet logit logsigmoid logsumexp lp_pool1d lp_pool2d margin_ranking_loss masked_fill masked_select matmul
matrix_solve max max_pool1d max_pool2d maximum mean median meshgrid min minimum moveaxis movedim mse_loss mul
multinomial nan_to_num narrow ne neg nll_loss nonzero norm normal numel one_hot ones ones_like outer pad
pairwise_distance permute pixel_shuffle pixel_unshuffle pow prelu prod qr rad2deg rand randint randn
random_categorical randperm rank relu repeat_elements repeat_interleave reshape roll rot90 round rsqrt scatter
scatter_nd searchsorted select selu sigmoid sign silu sin slice slogdet smooth_l1_loss softmax softmin softplus
softshrink sort split sqrt square squeeze stack standard_laplace standard_normal std sub sum svd swapaxes swapdims
tanh tensor_dot tensor_scatter_add tensor_scatter_elements tensor_scatter_sub threshold tile topk trace
transpose tril tril_indices triu triu_indices trunc tuple_to_array unbind unfold uniform unique unsqueeze
unsorted_segment_sum upsample value_and_grad var vjp vmap vstack where xlogy zeros zeros_like""".split()

NN = """AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveMaxPool1d AdaptiveMaxPool2d Adadelta Adagrad Adam Adamax AdamW
AdamWeightDecay ASGD AvgPool1d AvgPool2d BatchNorm1d BatchNorm2d BCELoss BCEWithLogitsLoss CELU Cell CellDict
CellList ConstantPad1d ConstantPad2d ConstantPad3d Conv1d Conv2d Conv2dTranspose Conv3d CosineEmbeddingLoss
CrossEntropyLoss CTCLoss Dense Dropout Dropout1d Dropout2d Dropout3d ELU Embedding Flatten GaussianNLLLoss GELU
GLU GroupNorm GRU GRUCell Hardtanh HShrink HSigmoid HSwish HuberLoss Identity InstanceNorm1d InstanceNorm2d
InstanceNorm3d KLDivLoss L1Loss Lamb LayerNorm LeakyReLU LogSigmoid LogSoftmax LPPool1d LPPool2d LSTM LSTMCell
MAELoss MarginRankingLoss MaxPool1d MaxPool2d Mish Momentum MSELoss MultiheadAttention MultiLabelSoftMarginLoss
MultiMarginLoss NLLLoss PixelShuffle PixelUnshuffle PoissonNLLLoss PReLU ReflectionPad1d ReflectionPad2d
ReflectionPad3d ReLU ReLU6 ReplicationPad1d ReplicationPad2d ReplicationPad3d RMSELoss RMSProp RNN RNNCell Rprop
SELU SequentialCell SGD Sigmoid SiLU SmoothL1Loss Softmax SoftmaxCrossEntropyWithLogits Softmin Softplus
SoftShrink Softsign SoftMarginLoss Tanh Tanhshrink Threshold TrainOneStepCell Transformer TransformerDecoder
TransformerDecoderLayer TransformerEncoder TransformerEncoderLayer TripletMarginLoss Unflatten Upsample
WithLossCell ZeroPad2d""".split()

TENSOR = """abs add addcdiv addmm all amax amin any argmax argmin asnumpy astype bool broadcast_to cholesky clip
count_nonzero cross cummax cummin cumsum det diag diagonal double eq exp expand expand_as expand_dims flatten flip
float ge gt half index_add index_fill int inverse isclose item le log log2 logdet logsumexp long lt matmul max
mean median min moveaxis narrow ne neg negative new_ones new_zeros nonzero norm numel numpy permute pow prod ravel
repeat repeat_interleave reshape reshape_as scatter sigmoid slogdet softmax sqrt squeeze std sub sum swapaxes t
tile tolist transpose trunc type_as unbind unsqueeze var view view_as where""".split()

TOP = """Tensor Parameter jit grad value_and_grad vjp jvp jacrev jacfwd vmap set_context get_context GRAPH_MODE
PYNATIVE_MODE set_seed save_checkpoint load_checkpoint load_param_into_net Model float32 float64 int32 int64""".split()


@pytest.mark.parametrize("where,names", [("ops", OPS), ("nn", NN), ("Tensor", TENSOR), ("ms", TOP)])
def test_mindspore_names_exist(where, names):
    target = {"ops": ms.ops, "nn": ms.nn, "Tensor": ms.Tensor, "ms": ms}[where]
    missing = [n for n in names if not hasattr(target, n)]
    assert not missing, f"{where} lacks MindSpore names: {missing}"
