"""Activation, bias, normalization, dropout, sampling and loss Primitive classes MindSpore has beside the
registry's (``ops.BiasAdd()``, ``ops.SeLU()``, ``ops.L2Normalize()``, ``ops.CTCLossV2()`` ...), each carried
out by the functional op."""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function import array_func as _array
from sprout.ops.function import math_linalg_func as _linalg
from sprout.ops.function import nn_activation_more_func as _act
from sprout.ops.function import nn_bias_random_act_func as _bias
from sprout.ops.function import nn_ctc_func as _ctc
from sprout.ops.function import nn_func as _nn
from sprout.ops.function import nn_layers_more_func as _layers
from sprout.ops.function import nn_loss_more_func as _loss
from sprout.ops.function import nn_sampling_func as _sampling
from sprout.ops.function import nn_sequence_func as _sequence
from sprout.ops.function._prims import prim
from sprout.ops.function.random_func import uniform
from sprout.ops.primitive import Primitive, prim_attr_register

__all__ = ["BiasAdd", "Dense", "GLU", "SeLU", "Softsign", "PReLU", "CeLU", "HShrink", "SoftShrink", "FastGeLU",
           "FastGelu", "Gelu", "L2Normalize", "LRN", "ChannelShuffle", "Dropout2D", "Dropout3D", "AffineGrid",
           "GridSampler2D", "SigmoidCrossEntropyWithLogits", "MultiMarginLoss", "CTCLoss", "CTCLossV2",
           "CTCGreedyDecoder"]


def _check_bool(name, arg, value):
    if not isinstance(value, bool):
        raise TypeError(f"{name}: '{arg}' must be a bool, but got {value!r}")


def _check_float(name, arg, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name}: '{arg}' must be a float, but got {value!r}")
    return float(value)


class BiasAdd(Primitive):
    """``BiasAdd(data_format='NCHW')(input_x, bias)``: the (C,) bias added on the channel axis (1 for 'NCHW'
    and 'NCDHW', the last for 'NHWC')."""

    @prim_attr_register
    def __init__(self, data_format="NCHW"):
        if not isinstance(data_format, str):
            raise TypeError(f"BiasAdd: 'data_format' must be a str, but got {data_format!r}")
        if data_format not in ("NCHW", "NHWC", "NCDHW"):
            raise ValueError(f"BiasAdd: 'data_format' must be 'NHWC', 'NCHW' or 'NCDHW', but got {data_format!r}")
        self.add_prim_attr("format", data_format)
        self.init_prim_io_names(["x", "b"], ["output"])

    def __call__(self, input_x, bias):
        if self.data_format == "NCDHW" and isinstance(input_x, Tensor) and input_x.ndim != 5:
            raise ValueError(f"BiasAdd: data_format 'NCDHW' needs a 5-d 'input_x', but got shape {input_x.shape}")
        return _bias._bias_add("BiasAdd", input_x, bias, -1 if self.data_format == "NHWC" else 1)


class Dense(Primitive):
    """``Dense()(x, w, b=None)``: x @ w.T + b (ops.dense)."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "w", "b"], ["output"])

    def __call__(self, x, w, b=None):
        return _linalg.dense(x, w, b)


class _Unary(Primitive):
    """A primitive of one input and no attributes: `_fn(x)`."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x"], ["output"])

    def __call__(self, x):
        return type(self)._fn(x)


class SeLU(_Unary):
    """``SeLU()(input_x)``: ops.selu."""
    _fn = staticmethod(_nn.selu)


class Softsign(_Unary):
    """``Softsign()(x)``: x / (1 + |x|)."""
    _fn = staticmethod(_nn.softsign)


class FastGeLU(_Unary):
    """``FastGeLU()(x)``: ops.fast_gelu, x * sigmoid(1.702 x)."""
    _fn = staticmethod(_layers.fast_gelu)


class FastGelu(FastGeLU):
    """``FastGelu()(x)``: MindSpore's former name of FastGeLU."""


class Gelu(_Unary):
    """``Gelu()(x)``: MindSpore's former name of GeLU (the exact, erf form)."""
    _fn = staticmethod(lambda x: prim("GeLU")(x))


class GLU(Primitive):
    """``GLU(axis=-1)(x)``: a * sigmoid(b) of the halves of x along axis."""

    @prim_attr_register
    def __init__(self, axis=-1):
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"GLU: 'axis' must be an int, but got {axis!r}")
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, x):
        return _nn.glu(x, self.axis)


class PReLU(Primitive):
    """``PReLU()(x, weight)``: x where x > 0, else weight * x, one slope per channel (axis 1) or one for all."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "weight"], ["output"])

    def __call__(self, x, weight):
        return _nn.prelu(x, weight)


class CeLU(Primitive):
    """``CeLU(alpha=1.0)(x)``: ops.celu."""

    @prim_attr_register
    def __init__(self, alpha=1.0):
        _check_float("CeLU", "alpha", alpha)
        self.init_prim_io_names(["x"], ["output"])

    def __call__(self, x):
        return _nn.celu(x, self.alpha)


class HShrink(Primitive):
    """``HShrink(lambd=0.5)(input_x)``: x where |x| > lambd, else 0."""

    @prim_attr_register
    def __init__(self, lambd=0.5):
        _check_float("HShrink", "lambd", lambd)
        self.init_prim_io_names(["input_x"], ["output"])

    def __call__(self, input_x):
        return _act.hardshrink(input_x, self.lambd)


class SoftShrink(Primitive):
    """``SoftShrink(lambd=0.5)(input_x)``: x - lambd above lambd, x + lambd below -lambd, else 0."""

    @prim_attr_register
    def __init__(self, lambd=0.5):
        if _check_float("SoftShrink", "lambd", lambd) < 0:
            raise ValueError(f"SoftShrink: 'lambd' must be >= 0, but got {lambd}")
        self.init_prim_io_names(["input_x"], ["output"])

    def __call__(self, input_x):
        return _act.softshrink(input_x, self.lambd)


class L2Normalize(Primitive):
    """``L2Normalize(axis=0, epsilon=1e-4)(x)``: x / sqrt(max(sum of x^2 over axis, epsilon))."""

    @prim_attr_register
    def __init__(self, axis=0, epsilon=1e-4):
        axes = (axis,) if isinstance(axis, int) and not isinstance(axis, bool) else axis
        if not isinstance(axes, (tuple, list)) or not all(isinstance(a, int) and not isinstance(a, bool)
                                                          for a in axes):
            raise TypeError(f"L2Normalize: 'axis' must be an int or a list/tuple of ints, but got {axis!r}")
        if not isinstance(epsilon, float):
            raise TypeError(f"L2Normalize: 'epsilon' must be a float, but got {epsilon!r}")
        self._axes = tuple(axes)
        self.init_prim_io_names(["x"], ["output"])

    def __call__(self, x):
        _nn._check_float_tensor("L2Normalize", "x", x)
        if x.ndim == 0:
            raise ValueError("L2Normalize: 'x' must have at least 1 dimension, but got a 0-d tensor")
        for a in self._axes:
            if not -x.ndim <= a < x.ndim:
                raise ValueError(f"L2Normalize: 'axis' {a} is out of range for 'x' of shape {x.shape}")
        squares = prim("ReduceSum", keep_dims=True)(x * x, tuple(a % x.ndim for a in self._axes))
        return x * prim("Rsqrt")(prim("Maximum")(squares, Tensor(self.epsilon, x.dtype)))


class LRN(Primitive):
    """``LRN(depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region='ACROSS_CHANNELS')(x)``: ops.lrn."""

    @prim_attr_register
    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, x):
        return _layers.lrn(x, self.depth_radius, self.bias, self.alpha, self.beta, self.norm_region)


class ChannelShuffle(Primitive):
    """``ChannelShuffle(group)(x)``: ops.channel_shuffle."""

    @prim_attr_register
    def __init__(self, group):
        if isinstance(group, bool) or not isinstance(group, int):
            raise TypeError(f"ChannelShuffle: 'group' must be an int, but got {group!r}")
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, x):
        return _layers.channel_shuffle(x, self.group)


class _ChannelDropout(Primitive):
    _spatial = 2

    def _setup(self, keep_prob):
        name = type(self).__name__
        if isinstance(keep_prob, bool) or not isinstance(keep_prob, (int, float)) or not 0 <= keep_prob <= 1:
            raise ValueError(f"{name}: 'keep_prob' must be a float in [0, 1], but got {keep_prob!r}")
        self.init_prim_io_names(["x"], ["output", "mask"])

    def __call__(self, x):
        name, spatial = type(self).__name__, self._spatial
        _nn._check_tensor(name, "x", x)
        if x.ndim != spatial + 2:
            raise ValueError(f"{name}: 'x' must be {spatial + 2}-d (N, C, spatial...), but got shape {x.shape}")
        # One draw per (sample, channel), broadcast over its positions; kept channels scaled by 1 / keep_prob.
        keep = uniform(tuple(x.shape[:2]) + (1,) * spatial, Tensor(0.0, mstype.float32),
                       Tensor(1.0, mstype.float32)) < float(self.keep_prob)
        mask = prim("BroadcastTo", shape=tuple(x.shape))(keep)
        scale = 1.0 / self.keep_prob if self.keep_prob > 0 else 0.0
        return x * mask.astype(x.dtype) * scale, mask


class Dropout2D(_ChannelDropout):
    """``Dropout2D(keep_prob=0.5)(x)``: (output, mask) zeroing whole channels of (N, C, H, W), the kept ones
    scaled by 1 / keep_prob; mask (bool, x's shape) is True where kept."""

    @prim_attr_register
    def __init__(self, keep_prob=0.5):
        self._setup(keep_prob)


class Dropout3D(_ChannelDropout):
    """``Dropout3D(keep_prob=0.5)(x)``: as Dropout2D over (N, C, D, H, W)."""
    _spatial = 3

    @prim_attr_register
    def __init__(self, keep_prob=0.5):
        self._setup(keep_prob)


class AffineGrid(Primitive):
    """``AffineGrid(align_corners=False)(theta, output_size)``: ops.affine_grid."""

    @prim_attr_register
    def __init__(self, align_corners=False):
        _check_bool("AffineGrid", "align_corners", align_corners)
        self.init_prim_io_names(["theta", "output_size"], ["y"])

    def __call__(self, theta, output_size):
        if isinstance(output_size, Tensor):
            output_size = tuple(int(v) for v in output_size.asnumpy())  # a shape: known before running
        return _sampling.affine_grid(theta, output_size, self.align_corners)


class GridSampler2D(Primitive):
    """``GridSampler2D(interpolation_mode='bilinear', padding_mode='zeros', align_corners=False)(input_x,
    grid)``: ops.grid_sample of an (N, C, H, W) input."""

    @prim_attr_register
    def __init__(self, interpolation_mode="bilinear", padding_mode="zeros", align_corners=False):
        _check_bool("GridSampler2D", "align_corners", align_corners)
        self.init_prim_io_names(["input_x", "grid"], ["output"])

    def __call__(self, input_x, grid):
        return _sampling.grid_sample(input_x, grid, self.interpolation_mode, self.padding_mode, self.align_corners)


class SigmoidCrossEntropyWithLogits(Primitive):
    """``SigmoidCrossEntropyWithLogits()(logits, label)``: -(y log sigmoid(x) + (1 - y) log(1 - sigmoid(x)))
    elementwise, unreduced."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["predict", "target"], ["loss"])

    def __call__(self, logits, label):
        return _nn.binary_cross_entropy_with_logits(logits, label, reduction="none")


class MultiMarginLoss(Primitive):
    """``MultiMarginLoss(p=1, margin=1.0, reduction='mean')(inputs, target, weight=None)``:
    ops.multi_margin_loss."""

    @prim_attr_register
    def __init__(self, p=1, margin=1.0, reduction="mean"):
        if p not in (1, 2) or isinstance(p, bool):
            raise ValueError(f"MultiMarginLoss: 'p' must be 1 or 2, but got {p!r}")
        _check_float("MultiMarginLoss", "margin", margin)
        self.init_prim_io_names(["x", "target", "weight"], ["y"])

    def __call__(self, inputs, target, weight=None):
        return _loss.multi_margin_loss(inputs, target, self.p, self.margin, weight, self.reduction)


class CTCLossV2(Primitive):
    """``CTCLossV2(blank=0, reduction='none', zero_infinity=False)(log_probs, targets, input_lengths,
    target_lengths)``: (neg_log_likelihood, log_alpha) of ops.ctc_loss."""

    @prim_attr_register
    def __init__(self, blank=0, reduction="none", zero_infinity=False):
        _check_bool("CTCLossV2", "zero_infinity", zero_infinity)
        self.init_prim_io_names(["log_probs", "targets", "input_lengths", "target_lengths"],
                                ["neg_log_likelihood", "log_alpha"])

    def __call__(self, log_probs, targets, input_lengths, target_lengths):
        return _ctc.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                             self.zero_infinity)


class CTCLoss(Primitive):
    """``CTCLoss(preprocess_collapse_repeated=False, ctc_merge_repeated=True,
    ignore_longer_outputs_than_inputs=False)(x, labels_indices, labels_values, sequence_length)``: (loss,
    gradient) of the CTC loss of logits x (max_time, batch, num_classes), blank num_classes - 1, against
    the sparse labels ([batch, position] indices and their values); gradient is the loss's (summed over the
    batch) with respect to x. ctc_merge_repeated=False (TensorFlow's simplified CTC) is not supported."""

    @prim_attr_register
    def __init__(self, preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                 ignore_longer_outputs_than_inputs=False):
        for arg, value in (("preprocess_collapse_repeated", preprocess_collapse_repeated),
                           ("ctc_merge_repeated", ctc_merge_repeated),
                           ("ignore_longer_outputs_than_inputs", ignore_longer_outputs_than_inputs)):
            _check_bool("CTCLoss", arg, value)
        if not ctc_merge_repeated:
            raise ValueError("CTCLoss: ctc_merge_repeated=False (the simplified CTC that never merges repeated "
                             "labels) is not supported; use ctc_merge_repeated=True")
        self.init_prim_io_names(["inputs", "labels_indices", "labels_values", "sequence_length"],
                                ["loss", "gradient"])

    def _targets(self, labels_indices, labels_values, batch, steps):
        """(targets (batch, steps) padded with 0, their lengths) from the sparse labels."""
        indices = labels_indices.astype(mstype.int64)
        values = labels_values.astype(mstype.int64)
        targets = prim("ScatterNd")(indices, values, (batch, steps))
        rows = indices[:, 0]
        lengths = _array.unsorted_segment_sum(prim("OnesLike")(rows), rows, batch)
        if self.preprocess_collapse_repeated and steps > 1:  # keep the first of each run of equal labels
            inside = prim("Less")(Tensor(np.arange(steps, dtype=np.int64)), _array.expand_dims(lengths, 1))
            previous = prim("Concat", axis=1)((Tensor(np.full((batch, 1), -1, np.int64)), targets[:, :-1]))
            keep = prim("LogicalAnd")(inside, prim("NotEqual")(targets, previous))
            position = _array.cumsum(keep.astype(mstype.int64), 1) - 1
            rows_cols = _array.stack((Tensor(np.repeat(np.arange(batch), steps).reshape(batch, steps)),
                                      prim("Select")(keep, position, prim("ZerosLike")(position) + steps)), 2)
            # Dropped labels go to a spare column, cut off after the scatter.
            targets = prim("ScatterNd")(_array.reshape(rows_cols, (-1, 2)), _array.reshape(targets, (-1,)),
                                        (batch, steps + 1))[:, :steps]
            lengths = prim("ReduceSum", keep_dims=False)(keep.astype(mstype.int64), (1,))
        return targets, lengths

    def __call__(self, x, labels_indices, labels_values, sequence_length):
        from sprout.ops.composite.grad import grad  # the gradient output; composite imports the primitives

        _nn._check_float_tensor("CTCLoss", "x", x)
        if x.ndim != 3:
            raise ValueError(f"CTCLoss: 'x' must be 3-d (max_time, batch_size, num_classes), but got {x.shape}")
        steps, batch, classes = x.shape
        for arg, t, ndim in (("labels_indices", labels_indices, 2), ("labels_values", labels_values, 1),
                             ("sequence_length", sequence_length, 1)):
            _nn._check_tensor("CTCLoss", arg, t)
            if t.ndim != ndim:
                raise ValueError(f"CTCLoss: '{arg}' must be {ndim}-d, but got shape {t.shape}")
        targets, lengths = self._targets(labels_indices, labels_values, batch, steps)
        seq = sequence_length.astype(mstype.int64)

        def losses(logits):
            log_probs = _nn.log_softmax(logits.astype(mstype.float32), 2)
            loss = _ctc.ctc_loss(log_probs, targets, seq, lengths, classes - 1, "none")[0]
            if self.ignore_longer_outputs_than_inputs:
                loss = prim("Select")(prim("Greater")(lengths, seq), prim("ZerosLike")(loss), loss)
            return loss

        def total(logits):
            return prim("ReduceSum", keep_dims=False)(losses(logits), ())

        return losses(x).astype(x.dtype), grad(total)(x).astype(x.dtype)


class CTCGreedyDecoder(Primitive):
    """``CTCGreedyDecoder(merge_repeated=True)(inputs, sequence_length)``: ops.ctc_greedy_decoder."""

    @prim_attr_register
    def __init__(self, merge_repeated=True):
        _check_bool("CTCGreedyDecoder", "merge_repeated", merge_repeated)
        self.init_prim_io_names(["inputs", "sequence_length"],
                                ["decoded_indices", "decoded_values", "decoded_shape", "log_probability"])

    def __call__(self, inputs, sequence_length):
        return _sequence.ctc_greedy_decoder(inputs, sequence_length, self.merge_repeated)
