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


# The rest of MindSpore 2.10's public names that Sprout has: dir() of MindSpore 2.10's mindspore.ops, mindspore.nn
# and mindspore.Tensor intersected with Sprout's (2026-11-27), so that none of them goes missing again.
MORE_OPS = """Abs absolute ACos acos acosh Adam AdamWeightDecay adaptive_avg_pool1d adaptive_avg_pool2d adaptive_max_pool1d
adaptive_max_pool2d AdaptiveAvgPool2D AdaptiveMaxPool2D Add addbmm Addcmul addmv AddN addn addr all AllGather
AllReduce aminmax any ApplyAdadelta ApplyAdagrad ApplyAdaMax ApplyCenteredRMSProp ApplyGradientDescent ApplyMomentum
ApplyRMSProp arange arccos arccosh arcsin arcsinh arctan arctan2 arctanh Argmax Argmin Asin asin asinh Assign assign
assign_add assign_sub AssignAdd AssignSub Atan atan Atan2 atan2 atanh avg_pool1d avg_pool2d AvgPool bartlett_window
batch_norm BatchMatMul BatchNorm BCEWithLogitsLoss Bernoulli bessel_i0 bidense binary_cross_entropy
binary_cross_entropy_with_logits BinaryCrossEntropy bitwise_and bitwise_left_shift bitwise_or bitwise_right_shift
bitwise_xor BitwiseAnd BitwiseOr BitwiseXor blackman_window block_diag Broadcast BroadcastTo cartesian_prod Cast
cast Ceil celu channel_shuffle Cholesky chunk clip_by_value column_stack combinations Concat Conv2D
Conv2DBackpropInput Conv2DTranspose Conv3D copysign Cos Cosh cosh cosine_embedding_loss cov cross_entropy CumProd
CumSum Custom dense Depend depend diag_embed diagflat diagonal_scatter digamma Div divide dot Dropout dsplit dstack
Einsum Elu elu embedding eq Equal Erf erf Erfc erfc erfinv Exp ExpandDims Expm1 expm1 Eye fast_gelu Fill fill fills
Flatten float_power Floor floor_div floor_divide floor_mod FloorDiv floordiv FloorMod floormod fmax fmin fmod frac
Gather GatherNd gaussian_nll_loss Gcd gcd ge GeLU ger glu grad GradOperation Greater greater greater_equal
GreaterEqual group_norm gt hamming_window hann_window hardsigmoid hardswish hardtanh hinge_embedding_loss
HookBackward HSigmoid hsplit HSwish i0 Identity igamma igammac inner inplace_add inplace_sub inplace_update
InsertGradientOf inv Invert invert IsFinite IsInf IsNan isneginf isposinf isreal kaiser_window kl_div KLDivLoss
L2Loss LayerNorm Lcm lcm ldexp le leaky_relu LeftShift Lerp Less less less_equal LessEqual lgamma LinSpace Log Log1p
log_matrix_determinant logaddexp2 logical_and logical_not logical_or logical_xor LogicalAnd LogicalNot LogicalOr
LogicalXor LogMatrixDeterminant LogSoftmax logspace LpNorm lrn lstsq lt lu_solve MaskedFill MaskedSelect MatMul
matrix_band_part matrix_determinant matrix_power MatrixDeterminant MatrixInverse MatrixSolve max_pool3d max_unpool1d
max_unpool2d max_unpool3d Maximum MaxPool Meshgrid Minimum Mish mish mm Mod msort Mul multi_margin_loss
multilabel_margin_loss multilabel_soft_margin_loss Multinomial multiply mv mvlgamma nanmean nanmedian nanquantile
nansum Neg negative NLLLoss NonZero not_equal NotEqual OneHot Ones OnesLike Pad pinv polygamma positive Pow
prim_attr_register Primitive PrimitiveWithCheck PrimitiveWithInfer Print Qr quantile RandomCategorical RandomShuffle
Randperm Range range RealDiv Reciprocal reciprocal ReduceAll ReduceAny ReduceMax ReduceMean ReduceMin ReduceOp
ReduceProd ReduceSum ReLU ReLU6 relu6 remainder renorm Reshape ResizeBilinearV2 ResizeNearestNeighbor reverse
reverse_sequence ReverseV2 RightShift Roll Round row_stack Rsqrt scalar_to_tensor scatter_add scatter_div
scatter_max scatter_min scatter_mul scatter_nd_add scatter_nd_div scatter_nd_max scatter_nd_min scatter_nd_mul
scatter_nd_sub scatter_nd_update scatter_update ScatterAdd ScatterNd Select select_scatter SGD sgn shape shuffle
Sigmoid Sign signbit Sin sinc Sinh sinh size Slice slice_scatter SmoothL1Loss soft_margin_loss Softmax
SoftmaxCrossEntropyWithLogits Softplus softsign Sort SparseSoftmaxCrossEntropyWithLogits Split SplitV Sqrt Square
Squeeze Stack StandardNormal std_mean stop_gradient StopGradient strided_slice StridedSlice Sub subtract Svd t take
Tan tan Tanh tanhshrink tensor_scatter_div tensor_scatter_max tensor_scatter_min tensor_scatter_mul
tensor_scatter_update tensor_split TensorScatterElements TensorScatterUpdate Tile TopK Transpose trapz Tril
triplet_margin_loss Triu true_divide UniformInt UniformReal Unique unique_consecutive unsorted_segment_max
unsorted_segment_min unsorted_segment_prod UnsortedSegmentSum vander var_mean vecdot vsplit xdivy Zeros ZerosLike""".split()

MORE_NN = """Accuracy AdaFactor AdaMax AdaptiveAvgPool3d AdaptiveMaxPool3d auc AvgPool3d BatchNorm3d BiDense BleuScore
CentralCrop ChannelShuffle ClipByNorm ConfusionMatrix ConfusionMatrixMetric Conv1dTranspose Conv3dTranspose
cosine_decay_lr CosineDecayLR CosineSimilarity Dice DiceLoss DiGamma DistributedGradReducer
DynamicLossScaleUpdateCell EmbeddingLookup exponential_decay_lr ExponentialDecayLR F1 FastGelu Fbeta
FixedLossScaleUpdateCell FocalLoss ForwardValueAndGrad FTRL get_activation get_metric_fn get_metrics
GradAccumulationCell GraphCell HausdorffDistance HingeEmbeddingLoss IGamma ImageGradients inverse_decay_lr
InverseDecayLR Jvp L1Regularizer LARS LazyAdam LBeta LGamma Loss LossBase LRN MAE MatDet MatInverse MatMul
MatrixDiag MatrixDiagPart MatrixSetDiag MaxPool3d MaxUnpool1d MaxUnpool2d MaxUnpool3d MeanSurfaceDistance Metric
MicroBatchInterleaved Moments MSE MSSSIM MultiClassDiceLoss MultiFieldEmbeddingLookup MultilabelMarginLoss names
natural_exp_decay_lr NaturalExpDecayLR Norm OcclusionSensitivity OneHot Optimizer Pad ParameterUpdate Perplexity
piecewise_constant_lr PipelineCell polynomial_decay_lr PolynomialDecayLR Precision ProximalAdagrad PSNR Range
rearrange_inputs Recall ReduceLogSumExp ROC Roll RootMeanSquareDistance RReLU SeLU Softmax2d SSIM TimeDistributed
Top1CategoricalAccuracy Top5CategoricalAccuracy TopKCategoricalAccuracy TrainOneStepWithLossScaleCell Tril
TripletMarginWithDistanceLoss Triu Unfold Vjp warmup_lr WarmUpLR WithEvalCell WithGradCell""".split()

MORE_TENSOR = """absolute acos acosh add_ addbmm addcmul addmv addr allclose aminmax arccos arccosh arcsin arcsinh arctan arctan2
arctanh argsort argwhere asin asinh atan atan2 atanh baddbmm bernoulli bernoulli_ bincount bitwise_and
bitwise_left_shift bitwise_not bitwise_or bitwise_right_shift bitwise_xor bmm cauchy ceil cholesky_inverse
cholesky_solve choose chunk clamp clamp_ clone contiguous copy copy_ copysign cos cosh cov cumprod data_ptr deg2rad
diagflat diagonal_scatter diff digamma dim div div_ divide dot dsplit dtype equal erf erfc erfinv erfinv_ exp_ expm1
exponential_ fill fill_ fill_diagonal fill_diagonal_ fills fliplr flipud float_power floor floor_ floor_divide
floor_divide_ fmax fmin fmod fold frac from_dlpack from_numpy gather gather_elements gather_nd gcd ger greater
greater_equal H hardshrink heaviside histc hsplit hypot i0 igamma igammac index_add_ index_copy_ index_fill_
index_put index_put_ index_select init_data inner inplace_update inv invert is_complex is_contiguous
is_floating_point is_signed isfinite isinf isnan isneginf isposinf isreal itemset itemsize kthvalue lcm ldexp lerp
less less_equal lgamma log10 log1p log_ log_matrix_determinant log_normal logaddexp logaddexp2 logcumsumexp
logical_and logical_not logical_or logical_xor logit lstsq lu_solve masked_fill masked_fill_ masked_scatter
masked_scatter_ masked_select matrix_determinant matrix_power maximum mH minimum mm movedim msort mT mul mul_
multinomial multiply mvlgamma nan_to_num nanmean nanmedian nanquantile nansum nbytes ndim ndimension nelement
new_empty new_full normal_ not_equal outer positive ptp put_ qr quantile rad2deg random_ random_categorical
reciprocal register_hook remainder remainder_ renorm requires_grad_ resize reverse reverse_sequence roll rot90 round
rsqrt scatter_ scatter_add scatter_add_ scatter_div scatter_max scatter_min scatter_mul scatter_sub searchsorted
select select_scatter set_dtype sgn shape short sigmoid_ sign sign_ signbit sin sinc sinh size slice_scatter
soft_shrink sort split square stride strides sub_ subtract sum_to_size svd swapdims T take tan tanh tanh_
tensor_split to to_dlpack top_k topk trace triangular_solve tril triu true_divide type unfold uniform uniform_
unique unique_consecutive unsorted_segment_max unsorted_segment_min unsorted_segment_prod vsplit xdivy xlogy zero_""".split()


@pytest.mark.parametrize("where,names", [("ops", OPS + MORE_OPS), ("nn", NN + MORE_NN), ("Tensor", TENSOR + MORE_TENSOR),
                                         ("ms", TOP)])
def test_mindspore_names_exist(where, names):
    target = {"ops": ms.ops, "nn": ms.nn, "Tensor": ms.Tensor, "ms": ms}[where]
    missing = [n for n in names if not hasattr(target, n)]
    assert not missing, f"{where} lacks MindSpore names: {missing}"


# Names that MindSpore 2.10's documentation examples and dir() led to (the doc-example sweep of
# benchmarks/interop/doc_examples.py), per namespace below sprout ("" is sprout itself).
WAVE3 = {
    "": """COOTensor CSRTensor DatasetHelper Generator ParallelMode ParameterTuple Profiler RowTensor SparseTensor Type
bfloat16 bool bool_ byte double dtype_to_nptype dtype_to_pytype export float16 float_ from_dlpack from_numpy
get_auto_parallel_context get_grad get_level get_log_config get_py_obj_dtype get_rng_state get_seed half
initial_seed int16 int8 int_ intc intp is_tensor jit_class load manual_seed merge_sliced_parameter mutable
pytype_to_dtype recompute reset_auto_parallel_context run_check seed set_auto_parallel_context
set_deterministic set_recursion_limit set_rng_state short single tensor ubyte uint16 uint32 uint64 uint8
uintc uintp ushort""",
    "Tensor": """argmax_with_value argmin_with_value assign_value bfloat16 byte convert_bytes_to_tensor data flush_from_cache
get_bytes has_init is_pinned move_to nextafter set_const_arg storage_offset to_coo to_csr value""",
    "amp": """DynamicLossScaleManager DynamicLossScaler FixedLossScaleManager LossScaleManager LossScaler StaticLossScaler
all_finite auto_mixed_precision build_train_network custom_mixed_precision get_black_list get_white_list""",
    "dataset": """AGNewsDataset AmazonReviewDataset CSVDataset CelebADataset Cifar100Dataset Cifar10Dataset CocoDataset
DBpediaDataset Dataset DictIterator DistributedSampler EMnistDataset EnWik9Dataset FakeImageDataset
FashionMnistDataset GeneratorDataset ImageFolderDataset KMnistDataset ManifestDataset MindDataset
MnistDataset NumpySlicesDataset PKSampler PaddedDataset PennTreebankDataset QMnistDataset RandomDataset
RandomSampler STL10Dataset Sampler Schema SemeionDataset SequentialSampler Shuffle SogouNewsDataset
SubsetRandomSampler SubsetSampler TextFileDataset TupleIterator USPSDataset VOCDataset WeightedRandomSampler
WikiTextDataset YahooAnswersDataset YelpReviewDataset zip""",
    "dataset.audio": """AllpassBiquad AmplitudeToDB Angle BandBiquad BandpassBiquad BandrejectBiquad BassBiquad Biquad BorderType
ComplexNorm ComputeDeltas Contrast DBToAmplitude DCShift DeemphBiquad DensityFunction DetectPitchFrequency
Dither EqualizerBiquad Fade FadeShape Filtfilt Flanger FrequencyMasking Gain GainType GriffinLim
HighpassBiquad Interpolation InverseMelScale InverseSpectrogram LFCC LFilter LowpassBiquad MFCC Magphase
MaskAlongAxis MaskAlongAxisIID MelScale MelSpectrogram MelType Modulation MuLawDecoding MuLawEncoding
NormMode NormType Overdrive PhaseVocoder Phaser PitchShift Resample ResampleMethod RiaaBiquad ScaleType
SlidingWindowCmn SpectralCentroid Spectrogram TimeMasking TimeStretch TrebleBiquad Vol WindowType create_dct
linear_fbanks melscale_fbanks""",
    "dataset.text": """AddToken BasicTokenizer BertTokenizer CaseFold CharNGram FastText FilterWikipediaXML GloVe JiebaMode
JiebaTokenizer Lookup Ngram NormalizeForm NormalizeUTF8 PythonTokenizer RegexReplace RegexTokenizer
SPieceTokenizerLoadType SPieceTokenizerOutType SentencePieceModel SentencePieceTokenizer SentencePieceVocab
SlidingWindow ToNumber ToVectors Truncate TruncateSequencePair UnicodeCharTokenizer UnicodeScriptTokenizer
Vectors Vocab WhitespaceTokenizer WordpieceTokenizer to_bytes to_str""",
    "dataset.transforms": """Compose Concatenate Duplicate Fill Mask OneHot PadEnd RandomApply RandomChoice RandomOrder Relational Slice
TypeCast""",
    "dataset.vision": """AdjustBrightness AdjustContrast AdjustGamma AdjustHue AdjustSaturation AdjustSharpness Affine AutoAugment
AutoAugmentPolicy AutoContrast Border CenterCrop ConvertColor ConvertMode Crop CutMixBatch CutOut Decode
Equalize Erase GaussianBlur Grayscale HWC2CHW HorizontalFlip HsvToRgb ImageBatchFormat Inter Invert
LinearTransformation MixUp MixUpBatch Normalize NormalizePad Pad PadToSize Perspective Posterize RandAugment
RandomAdjustSharpness RandomAffine RandomAutoContrast RandomColor RandomColorAdjust RandomCrop
RandomCropDecodeResize RandomEqualize RandomErasing RandomHorizontalFlip RandomInvert RandomLighting
RandomPosterize RandomResize RandomResizedCrop RandomRotation RandomSelectSubpolicy RandomSharpness
RandomSolarize RandomVerticalFlip Rescale Resize ResizedCrop RgbToHsv Rotate SliceMode SlicePatches Solarize
ToTensor ToType TrivialAugmentWide UniformAugment VerticalFlip encode_jpeg encode_png""",
    "experimental.optim": """ASGD Adadelta Adagrad Adam AdamW Adamax NAdam Optimizer RAdam RMSprop Rprop SGD""",
    "experimental.optim.lr_scheduler": """ConstantLR CosineAnnealingLR CosineAnnealingWarmRestarts CyclicLR ExponentialLR LRScheduler LambdaLR
LinearLR MultiStepLR MultiplicativeLR PolynomialLR ReduceLROnPlateau SequentialLR StepLR""",
    "mint": """Tensor abs acos acosh add addbmm addcdiv addcmul addmm addmv addr_ all allclose amax amin any arange arccos
arccosh arcsin arcsinh arctan arctan2 arctanh argmax argmin argsort asin asinh atan atan2 atanh baddbmm
batch_norm_elemt batch_norm_gather_stats_with_counts batch_norm_stats bernoulli bincount bitwise_and
bitwise_not bitwise_or bitwise_xor bmm broadcast_to cat cdist ceil chunk clamp clip clone concat conv2d
conv_tbc cos cosh count_nonzero cross cummax cummin cumprod cumsum diag diff div divide dot dstack einsum
empty empty_like eq equal erf erfc erfinv exp exp2 expm1 eye fix flatten flip float_power floor floor_divide
fmod frac full full_like gather gcd ge greater greater_equal gt histc hstack index_add index_select inverse
isclose isfinite isinf isnan isneginf item kthvalue le lerp less less_equal linspace log log10 log1p log2
logaddexp logaddexp2 logical_and logical_not logical_or logical_xor logsumexp lt masked_select matmul max
maximum mean median meshgrid min minimum mm mul multinomial mv nan_to_num nansum narrow ne neg negative
nonzero norm normal not_equal npu_gelu ones ones_like outer permute pow prod rand rand_like randint
randint_like randn randn_like randperm ravel real reciprocal remainder repeat_interleave reshape roll round
rsqrt scatter scatter_add searchsorted select sigmoid sign sin sinc sinh softmax sort split sqrt square
squeeze stack std std_mean sub sum swapaxes t take tan tanh tile topk trace transpose triangular_solve tril
triu trunc unbind unique unique_consecutive unsqueeze var var_mean vdot where xlogy zeros zeros_like""",
    "mint.linalg": """inv matrix_norm norm qr vector_norm""",
    "mint.nn": """AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d AdaptiveMaxPool1d AdaptiveMaxPool2d AvgPool1d
AvgPool2d AvgPool3d BCELoss BCEWithLogitsLoss BatchNorm1d BatchNorm2d BatchNorm3d Cell ConstantPad1d
ConstantPad2d ConstantPad3d Conv1d Conv2d Conv3d ConvTranspose2d CosineEmbeddingLoss CrossEntropyLoss
Dropout Dropout2d ELU Embedding Flatten Fold GELU GLU GroupNorm Hardshrink Hardsigmoid Hardswish Hardtanh
Identity KLDivLoss L1Loss LayerNorm Linear LogSigmoid LogSoftmax MSELoss MaxPool2d MaxUnpool2d Mish NLLLoss
PReLU PixelShuffle ReLU ReLU6 ReflectionPad1d ReflectionPad2d ReflectionPad3d ReplicationPad1d
ReplicationPad2d ReplicationPad3d SELU SiLU Sigmoid SmoothL1Loss SoftMarginLoss Softmax Softshrink
SyncBatchNorm Tanh Threshold Unfold Upsample UpsamplingBilinear2d UpsamplingNearest2d ZeroPad1d ZeroPad2d
ZeroPad3d""",
    "mint.nn.functional": """adaptive_avg_pool1d adaptive_avg_pool2d adaptive_avg_pool3d adaptive_max_pool1d adaptive_max_pool2d
avg_pool1d avg_pool2d avg_pool3d batch_norm binary_cross_entropy binary_cross_entropy_with_logits
broadcast_to clamp conv1d conv2d conv3d conv_transpose2d cosine_embedding_loss cross_entropy dropout
dropout2d elu elu_ embedding flatten fold gelu glu grid_sample group_norm hardshrink hardsigmoid hardswish
hardtanh hardtanh_ interpolate kl_div l1_loss layer_norm leaky_relu linear log_softmax logsigmoid max_pool2d
max_unpool2d mish mse_loss nll_loss normalize one_hot pad pixel_shuffle prelu relu relu6 relu_ selu sigmoid
sigmoid_ silu smooth_l1_loss soft_margin_loss softmax softplus softshrink tanh threshold threshold_ unfold
upsample""",
    "mint.optim": """Adam AdamW FusedAdamW SGD""",
    "mint.special": """erfc exp2 expm1 log1p log_softmax round sinc""",
    "nn": """Conv2dBnAct DenseBnAct FractionalMaxPool2d FractionalMaxPool3d SparseTensorDenseMatmul SparseToDense""",
    "numpy": """NINF PINF abs absolute add amax amin append apply_along_axis apply_over_axes arange arccos arccosh arcsin
arcsinh arctan arctan2 arctanh argmax argmin argwhere around array array_equal array_equiv array_split
array_str asarray asfarray atleast_1d atleast_2d atleast_3d average bartlett bincount bitwise_and
bitwise_not bitwise_or bitwise_xor blackman bool_ broadcast_arrays broadcast_to cbrt ceil choose clip
column_stack concatenate convolve copy copysign corrcoef correlate cos cosh count_nonzero cov cross cumprod
cumsum deg2rad diag diag_indices diagflat diagonal diff digitize divide divmod dot dsplit dstack ediff1d
empty empty_like equal exp exp2 expand_dims expm1 eye fabs fix flip fliplr flipud float16 float32 float64
float_ float_power floor floor_divide fmod full full_like gcd geomspace gradient greater greater_equal
hamming hanning heaviside histogram histogram2d histogram_bin_edges histogramdd hsplit hstack hypot identity
in1d indices inf inner int16 int32 int64 int8 int_ interp intersect1d invert isclose isfinite isin isinf
isnan isneginf isposinf isscalar ix_ kron lcm less less_equal linspace log log10 log1p log2 logaddexp
logaddexp2 logical_and logical_not logical_or logical_xor logspace matmul matrix_power max maximum mean
meshgrid mgrid min minimum mod moveaxis multi_dot multiply nan nancumsum nanmax nanmean nanmin nanstd nansum
nanvar negative norm not_equal numeric_types ogrid ones ones_like outer pad pi piecewise polyadd polyder
polyint polymul polysub polyval positive power promote_types ptp rad2deg radians rand randint randn ravel
ravel_multi_index reciprocal remainder repeat reshape result_type rint roll rollaxis rot90 round
searchsorted select setdiff1d sign signbit sin sinh size sometrue split sqrt square squeeze stack std
subtract sum swapaxes take take_along_axis tan tanh tensordot tile trace transpose trapz tri tril
tril_indices tril_indices_from triu triu_indices triu_indices_from true_divide trunc uint8 unique
unravel_index unwrap vander var vsplit vstack where zeros zeros_like""",
    "ops": """Acosh AdaptiveAvgPool3D AdaptiveMaxPool3D Addcdiv AffineGrid ApplyAdamWithAmsgrad ApplyAdamWithAmsgradV2
ArgMaxWithValue ArgMinWithValue Asinh Atanh AvgPool3D BartlettWindow BesselI0 BesselI0e BesselI1 BesselI1e
BesselJ0 BesselJ1 BesselK0 BesselK0e BesselK1 BesselK1e BesselY0 BesselY1 Betainc BiasAdd Bincount
BlackmanWindow BoundingBoxDecode BoundingBoxEncode Bucketize CTCGreedyDecoder CTCLoss CTCLossV2 Cauchy Cdist
CeLU ChannelShuffle CholeskyInverse CholeskySolve Col2Im Conv3DTranspose CountNonZero CropAndResize Cross
Cummax Cummin CumulativeLogsumexp DType Dense DepthToSpace Diag DiagPart Digamma DivNoNan Dropout2D
Dropout3D EmbeddingLookup EqualCount Erfinv Expand ExtractImagePatches FastGeLU FastGelu FillDiagonal FillV2
Fmax ForiLoop GLU GatherD GatherV2 Gelu Geqrf Ger GridSampler2D GridSampler3D HShrink HammingWindow
Heaviside Histogram HyperMap Hypot IOU IdentityN Igamma Igammac Im2Col IndexAdd IndexFill IndexPut
InplaceAdd InplaceIndexAdd InplaceSub InplaceUpdateV2 Inv InvertPermutation IsClose L2Normalize LRN LSTM
LerpScalar Lgamma LogNormalReverse LogSpace Logit Lstsq LuSolve LuUnpack Map MaskedScatter MatrixDiagPartV3
MatrixDiagV3 MatrixPower MatrixTriangularSolve MaxPool3D MaxPool3DWithArgmax MaxPoolWithArgmaxV2 MaxUnpool2D
MaxUnpool3D Median MirrorPad MulNoNan MultiMarginLoss MultinomialWithReplacement MultitypeFuncGraph Mvlgamma
NMSWithMask NanToNum NextAfter Orgqr PReLU Pack Partial Pdist Polygamma PopulationCount ROIAlign
RandomChoiceWithMask RandpermV2 Rank ReduceStd Renorm ResizeBicubic ResizeNearestNeighborV2 ReverseSequence
Rint RmsNorm ScalarToArray ScalarToTensor Scan ScatterNdAdd ScatterNdUpdate ScatterUpdate SeLU SearchSorted
SelectView Shape SigmoidCrossEntropyWithLogits Sinc Size SoftShrink Softsign SpaceToBatchND SpaceToDepth
SparseApplyAdagrad SparseTensorDenseAdd SparseTensorDenseMatmul SparseToDense SquareSumAll SquaredDifference
StandardLaplace TensorAdd TensorScatterAdd TensorShape TensorToTuple Trace TransposeExtView TransposeView
TrilIndices TriuIndices Trunc TruncateDiv TruncateMod TupleToArray UniqueConsecutive Unpack UnravelIndex
UnsortedSegmentMax UnsortedSegmentMin UnsortedSegmentProd Unstack UpsampleNearest3D UpsampleTrilinear3D
WhileLoop Xdivy Xlogy Zeta adaptive_avg_pool3d adaptive_max_pool3d avg_pool3d batch_to_space_nd bessel_i0e
bessel_i1 bessel_i1e bessel_j0 bessel_j1 bessel_k0 bessel_k0e bessel_k1 bessel_k1e bessel_y0 bessel_y1
bias_add bounding_box_decode bounding_box_encode check_valid choice_with_mask col2im cond conv3d_transpose
coo2csr coo_abs coo_acos coo_acosh coo_add coo_asin coo_asinh coo_atan coo_atanh coo_ceil coo_concat coo_cos
coo_cosh coo_exp coo_expm1 coo_floor coo_inv coo_isfinite coo_isinf coo_isnan coo_log coo_log1p coo_neg
coo_relu coo_relu6 coo_round coo_sigmoid coo_sin coo_sinh coo_softsign coo_sqrt coo_square coo_tan coo_tanh
coo_tensor_get_dense_shape coo_tensor_get_indices coo_tensor_get_values crop_and_resize csr2coo csr_abs
csr_acos csr_acosh csr_add csr_asin csr_asinh csr_atan csr_atanh csr_ceil csr_cos csr_cosh csr_div csr_exp
csr_expm1 csr_floor csr_gather csr_inv csr_isfinite csr_isinf csr_isnan csr_log csr_log1p csr_mm csr_mul
csr_mv csr_neg csr_reduce_sum csr_relu csr_relu6 csr_round csr_sigmoid csr_sin csr_sinh csr_softmax
csr_softsign csr_sqrt csr_square csr_tan csr_tanh csr_tensor_get_dense_shape csr_tensor_get_indices
csr_tensor_get_indptr csr_tensor_get_values csr_to_coo csr_to_dense ctc_greedy_decoder deepcopy
dense_to_sparse_coo dense_to_sparse_csr dtype dyn_shape eps expand fractional_max_pool2d
fractional_max_pool3d gather_d geqrf get_grad gumbel_softmax inplace_index_add iou is_nonzero laplace
lu_unpack make_coo_tensor make_csr_tensor make_row_tensor make_row_tensor_inner make_sparse_tensor
matrix_diag matrix_diag_part matrix_norm mirror_pad multinomial_with_replacement nextafter orgqr pdist
population_count print_ randn_like ravel rms_norm row_tensor_get_dense_shape row_tensor_get_indices
row_tensor_get_values rrelu sequence_mask space_to_batch_nd truncate_div truncate_mod unstack vector_norm
zeta""",
}


@pytest.mark.parametrize("where", sorted(WAVE3))
def test_mindspore_names_of_the_documentation_sweep_exist(where):
    import importlib
    target = ms.Tensor if where == "Tensor" else importlib.import_module("sprout" + ("." + where if where else ""))
    missing = [n for n in WAVE3[where].split() if not hasattr(target, n)]
    assert not missing, f"sprout.{where} lacks MindSpore names: {missing}"
