"""mint.nn's parametrized layers with PyTorch's arguments and initialization: Linear, Conv1d/2d/3d,
ConvTranspose2d, BatchNorm1d/2d/3d (and SyncBatchNorm, which is BatchNorm on one process), LayerNorm,
GroupNorm, PReLU, Embedding. Parameters are named as PyTorch's and MindSpore's mint: weight, bias,
running_mean, running_var."""
import math

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.initializer import HeUniform, Uniform, initializer
from sprout.common.parameter import Parameter
from sprout.mint._checks import check_bool, check_int, is_int
from sprout.mint.nn import functional as F
from sprout.nn.cell import Cell

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose2d", "Embedding",
           "GroupNorm", "LayerNorm", "Linear", "PReLU", "SyncBatchNorm"]


def _param(init, shape, dtype, name):
    return Parameter(initializer(init, shape, dtype or mstype.float32), name=name)


def _torch_default(shape, fan_in, dtype, bias_shape):
    """PyTorch's default: weight kaiming-uniform with a = sqrt(5) (bound 1/sqrt(fan_in)), bias U(+-1/sqrt(fan_in))."""
    weight = _param(HeUniform(math.sqrt(5)), shape, dtype, "weight")
    bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
    bias = None if bias_shape is None else _param(Uniform(bound), bias_shape, dtype, "bias")
    return weight, bias


class Linear(Cell):
    """y = x @ weight^T + bias; weight (out_features, in_features)."""

    def __init__(self, in_features, out_features, bias=True, weight_init=None, bias_init=None, dtype=None):
        super().__init__()
        self.in_features = check_int(in_features, "mint.nn.Linear", "in_features")
        self.out_features = check_int(out_features, "mint.nn.Linear", "out_features")
        check_bool(bias, "mint.nn.Linear", "bias")
        self.weight, self.bias = _torch_default((out_features, in_features), in_features, dtype,
                                                (out_features,) if bias else None)
        if weight_init is not None:
            self.weight = _param(weight_init, (out_features, in_features), dtype, "weight")
        if bias and bias_init is not None:
            self.bias = _param(bias_init, (out_features,), dtype, "bias")

    def construct(self, input):
        return F.linear(input, self.weight, self.bias)

    def extend_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


def _ntuple(api, arg, value, n):
    if is_int(value):
        return (int(value),) * n
    if isinstance(value, (tuple, list)) and len(value) == n and all(is_int(v) for v in value):
        return tuple(value)
    raise TypeError(f"{api}: '{arg}' must be an int or a tuple of {n} ints, but got {value!r}")


class _ConvNd(Cell):
    _n = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", dtype=None, output_padding=0):
        super().__init__()
        api = f"mint.nn.{type(self).__name__}"
        n = self._n
        self.in_channels = check_int(in_channels, api, "in_channels")
        self.out_channels = check_int(out_channels, api, "out_channels")
        self.groups = check_int(groups, api, "groups")
        if groups <= 0 or in_channels % groups or out_channels % groups:
            raise ValueError(f"{api}: 'in_channels' ({in_channels}) and 'out_channels' ({out_channels}) must be "
                             f"divisible by 'groups' ({groups})")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError(f"{api}: 'padding_mode' must be 'zeros', 'reflect', 'replicate' or 'circular', but got "
                             f"{padding_mode!r}")
        if isinstance(padding, str) and padding not in ("same", "valid"):
            raise ValueError(f"{api}: 'padding' must be 'same', 'valid', an int or a tuple, but got {padding!r}")
        self.kernel_size = _ntuple(api, "kernel_size", kernel_size, n)
        self.stride = _ntuple(api, "stride", stride, n)
        self.dilation = _ntuple(api, "dilation", dilation, n)
        self.padding = padding if isinstance(padding, str) else _ntuple(api, "padding", padding, n)
        self.output_padding = _ntuple(api, "output_padding", output_padding, n)
        self.padding_mode = padding_mode
        if self._transposed:
            shape = (in_channels, out_channels // groups) + self.kernel_size
            fan_in = out_channels // groups * math.prod(self.kernel_size)
        else:
            shape = (out_channels, in_channels // groups) + self.kernel_size
            fan_in = in_channels // groups * math.prod(self.kernel_size)
        self.weight, self.bias = _torch_default(shape, fan_in, dtype, (out_channels,) if bias else None)

    def _padded(self, x):
        """For a padding_mode other than zeros: the input padded explicitly, and the convolution's own padding 0."""
        if self.padding_mode == "zeros" or isinstance(self.padding, str):
            return x, self.padding
        pads = []
        for p in reversed(self.padding):
            pads += [p, p]
        return F.pad(x, pads, self.padding_mode), 0

    def extend_repr(self):
        return (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}, "
                f"padding={self.padding}")


class Conv1d(_ConvNd):
    """1-d convolution over (N, C_in, L) input; weight (C_out, C_in / groups, K)."""
    _n = 1

    def construct(self, input):
        x, padding = self._padded(input)
        return F.conv1d(x, self.weight, self.bias, self.stride, padding, self.dilation, self.groups)


class Conv2d(_ConvNd):
    """2-d convolution over (N, C_in, H, W) input; weight (C_out, C_in / groups, kH, kW)."""

    def construct(self, input):
        x, padding = self._padded(input)
        return F.conv2d(x, self.weight, self.bias, self.stride, padding, self.dilation, self.groups)


class Conv3d(_ConvNd):
    """3-d convolution over (N, C_in, D, H, W) input; weight (C_out, C_in / groups, kD, kH, kW)."""
    _n = 3

    def construct(self, input):
        x, padding = self._padded(input)
        return F.conv3d(x, self.weight, self.bias, self.stride, padding, self.dilation, self.groups)


class ConvTranspose2d(_ConvNd):
    """Transposed 2-d convolution; weight (C_in, C_out / groups, kH, kW)."""
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f"mint.nn.ConvTranspose2d: 'padding_mode' must be 'zeros', but got {padding_mode!r}")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype, output_padding)

    def construct(self, input, output_size=None):
        output_padding = self.output_padding
        if output_size is not None:
            # PyTorch: the output_padding that gives `output_size` (its last two entries), within a stride.
            natural = [(input.shape[-2 + i] - 1) * self.stride[i] - 2 * self.padding[i]
                       + self.dilation[i] * (self.kernel_size[i] - 1) + 1 for i in range(2)]
            output_padding = tuple(int(output_size[-2 + i]) - natural[i] for i in range(2))
            if any(not 0 <= p < max(self.stride[i], self.dilation[i]) for i, p in enumerate(output_padding)):
                raise ValueError(f"mint.nn.ConvTranspose2d: 'output_size' {tuple(output_size)} is not reachable from "
                                 f"input shape {input.shape}: each size must be at least {tuple(natural)} and less "
                                 f"than that plus the stride")
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                                  self.groups, self.dilation)


class _BatchNorm(Cell):
    _ranks = (2, 3, 4, 5)

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True, dtype=None):
        super().__init__()
        api = f"mint.nn.{type(self).__name__}"
        self.num_features = check_int(num_features, api, "num_features")
        if momentum is not None and (isinstance(momentum, bool) or not isinstance(momentum, (int, float))
                                     or not 0 <= momentum <= 1):
            raise ValueError(f"{api}: 'momentum' must be a number in [0, 1] or None, but got {momentum!r}")
        self.eps, self.momentum = eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        c = (num_features,)
        self.weight = _param("ones", c, dtype, "weight") if affine else None
        self.bias = _param("zeros", c, dtype, "bias") if affine else None
        if track_running_stats:
            self.running_mean = Parameter(initializer("zeros", c, dtype or mstype.float32), name="running_mean",
                                          requires_grad=False)
            self.running_var = Parameter(initializer("ones", c, dtype or mstype.float32), name="running_var",
                                         requires_grad=False)
            # Training steps taken, as MindSpore's and PyTorch's layers count them (and save them).
            self.num_batches_tracked = Parameter(initializer("zeros", (), mstype.int64), name="num_batches_tracked",
                                                 requires_grad=False)
        else:
            self.running_mean = self.running_var = self.num_batches_tracked = None

    def construct(self, input):
        if input.ndim not in self._ranks:
            raise ValueError(f"mint.nn.{type(self).__name__}: expected a {' or '.join(map(str, self._ranks))}-d "
                             f"input, but got shape {input.shape}")
        use_batch = self.training or not self.track_running_stats
        factor = 0.0  # the running statistics' update weight
        if self.track_running_stats:
            mean, var = self.running_mean, self.running_var
            if self.training:
                ops.assign_add(self.num_batches_tracked, 1)
                # momentum None: the running statistics are the plain average of every batch seen.
                factor = 1.0 / float(self.num_batches_tracked) if self.momentum is None else self.momentum
        else:
            mean = ops.zeros((self.num_features,), input.dtype)
            var = ops.ones((self.num_features,), input.dtype)
        return F.batch_norm(input, mean, var, self.weight, self.bias, use_batch, factor, self.eps)

    def extend_repr(self):
        return f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}"


class BatchNorm1d(_BatchNorm):
    """Batch normalization of (N, C) or (N, C, L) input; running statistics updated with weight `momentum`."""
    _ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalization of (N, C, H, W) input; running statistics updated with weight `momentum`."""
    _ranks = (4,)


class BatchNorm3d(_BatchNorm):
    """Batch normalization of (N, C, D, H, W) input; running statistics updated with weight `momentum`."""
    _ranks = (5,)


class SyncBatchNorm(_BatchNorm):
    """Batch normalization whose statistics are those of the whole data-parallel batch; Sprout runs one process
    per batch shard only through mpirun jobs, where this is plain BatchNorm of the local batch (`process_group`
    must be None)."""

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True,
                 process_group=None, dtype=None):
        if process_group is not None:
            raise ValueError("mint.nn.SyncBatchNorm: 'process_group' must be None (the whole job), but got "
                             f"{process_group!r}")
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)


class LayerNorm(Cell):
    """Normalization over the last dimensions (`normalized_shape`), then elementwise weight and bias."""

    def __init__(self, normalized_shape, eps=1e-05, elementwise_affine=True, bias=True, dtype=None):
        super().__init__()
        self.normalized_shape = (normalized_shape,) if is_int(normalized_shape) else tuple(normalized_shape)
        self.eps = eps
        self.weight = _param("ones", self.normalized_shape, dtype, "weight") if elementwise_affine else None
        self.bias = _param("zeros", self.normalized_shape, dtype, "bias") if elementwise_affine and bias else None

    def construct(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)


class GroupNorm(Cell):
    """Normalization over groups of channels, then per-channel weight and bias."""

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, dtype=None):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"mint.nn.GroupNorm: 'num_channels' ({num_channels}) must be divisible by "
                             f"'num_groups' ({num_groups})")
        self.num_groups, self.num_channels, self.eps = num_groups, num_channels, eps
        self.weight = _param("ones", (num_channels,), dtype, "weight") if affine else None
        self.bias = _param("zeros", (num_channels,), dtype, "bias") if affine else None

    def construct(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)


class PReLU(Cell):
    """x where positive, weight * x elsewhere; `num_parameters` 1 or the number of channels."""

    def __init__(self, num_parameters=1, init=0.25, dtype=None):
        super().__init__()
        self.num_parameters = check_int(num_parameters, "mint.nn.PReLU", "num_parameters")
        self.weight = _param(init, (num_parameters,), dtype, "weight")

    def construct(self, input):
        return F.prelu(input, self.weight)


class Embedding(Cell):
    """A lookup table of `num_embeddings` rows of `embedding_dim`, initialized N(0, 1) (the padding row zero)."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, dtype=None):
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise ValueError(f"mint.nn.Embedding: 'padding_idx' must be in [{-num_embeddings}, {num_embeddings}),"
                                 f" but got {padding_idx}")
            padding_idx %= num_embeddings
        self.padding_idx, self.max_norm, self.norm_type = padding_idx, max_norm, norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if _weight is None:
            table = ops.randn((num_embeddings, embedding_dim), dtype=dtype or mstype.float32)
            if padding_idx is not None:
                table[padding_idx] = 0
            _weight = table
        self.weight = Parameter(_weight, name="weight", requires_grad=not _freeze)

    def construct(self, input):
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq)
