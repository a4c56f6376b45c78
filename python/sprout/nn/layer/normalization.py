"""Normalization layers: BatchNorm1d/2d/3d, LayerNorm, GroupNorm and InstanceNorm (``mindspore.nn``)."""
from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.initializer import initializer
from sprout.common.parameter import Parameter
from sprout.nn.cell import Cell


class _BatchNorm(Cell):
    """Normalizes over the batch (training) or with the moving statistics (inference).

    momentum follows MindSpore: moving = moving * momentum + batch * (1 - momentum).
    """

    _input_ranks = (2, 4)
    # Under to_float the Parameters stay float32 (Cell._param_in_float_dtype): the statistics are updated in
    # place, and a half-precision x is normalized in float32.
    _casts_params = False

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones", use_batch_statistics=None, data_format="NCHW",
                 dtype=mstype.float32):
        super().__init__()
        if not isinstance(num_features, int) or num_features < 1:
            raise ValueError(f"{type(self).__name__}: 'num_features' must be a positive int, got {num_features!r}")
        if not 0 <= momentum <= 1:
            raise ValueError(f"{type(self).__name__}: 'momentum' must be in [0, 1], but got {momentum!r}")
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.use_batch_statistics = use_batch_statistics
        self.gamma = Parameter(initializer(gamma_init, (num_features,), dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, (num_features,), dtype), name="beta", requires_grad=affine)
        self.moving_mean = Parameter(initializer(moving_mean_init, (num_features,), dtype), name="mean",
                                     requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, (num_features,), dtype), name="variance",
                                         requires_grad=False)

    def construct(self, x):
        if x.ndim not in self._input_ranks:
            raise ValueError(f"{type(self).__name__}: expects an input of rank {self._input_ranks}, got shape {x.shape}")
        return self._normalize(x)

    def _normalize(self, x):
        training = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        dtype = x.dtype
        if dtype != self.gamma.dtype:  # a half-precision x (amp O3): normalized in the statistics' float32
            x = x.astype(self.gamma.dtype)
        y = ops.batch_norm(x, self.moving_mean, self.moving_variance, self.gamma, self.beta, training,
                           1.0 - self.momentum, self.eps)
        return y.astype(dtype, copy=False)

    def extend_repr(self):
        return f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}"


class BatchNorm2d(_BatchNorm):
    _input_ranks = (4,)


class BatchNorm1d(_BatchNorm):
    _input_ranks = (2,)


class BatchNorm3d(_BatchNorm):
    """Batch normalization of (N, C, D, H, W): the depth joins the height, as one 2-d batch norm."""

    _input_ranks = (5,)

    def _normalize(self, x):
        n, c, d, h, w = x.shape
        return super()._normalize(x.reshape(n, c, d * h, w)).reshape(n, c, d, h, w)


class LayerNorm(Cell):
    """Normalizes over the trailing `normalized_shape` dims, with learned gamma and beta."""

    def __init__(self, normalized_shape, begin_norm_axis=-1, begin_params_axis=-1, gamma_init="ones",
                 beta_init="zeros", epsilon=1e-7, dtype=mstype.float32):
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"LayerNorm: 'normalized_shape' must be a tuple or list, got {type(normalized_shape).__name__}")
        self.normalized_shape = tuple(normalized_shape)
        self.begin_norm_axis, self.begin_params_axis, self.epsilon = begin_norm_axis, begin_params_axis, epsilon
        self.gamma = Parameter(initializer(gamma_init, self.normalized_shape, dtype), name="gamma")
        self.beta = Parameter(initializer(beta_init, self.normalized_shape, dtype), name="beta")
        self._prim = ops.LayerNorm(begin_norm_axis=begin_norm_axis, begin_params_axis=begin_params_axis,
                                   epsilon=epsilon)

    def construct(self, x):
        return self._prim(x, self.gamma, self.beta)[0]

    def extend_repr(self):
        return f"normalized_shape={self.normalized_shape}, begin_norm_axis={self.begin_norm_axis}"


class GroupNorm(Cell):
    """Normalizes each of `num_groups` channel groups over (channels in the group, spatial dims)."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, gamma_init="ones", beta_init="zeros",
                 dtype=mstype.float32):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"GroupNorm: 'num_channels' ({num_channels}) must be divisible by 'num_groups' "
                             f"({num_groups})")
        self.num_groups, self.num_channels, self.eps = num_groups, num_channels, eps
        self.gamma = Parameter(initializer(gamma_init, (num_channels,), dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, (num_channels,), dtype), name="beta", requires_grad=affine)

    def construct(self, x):
        return ops.group_norm(x, self.num_groups, self.gamma, self.beta, self.eps)


class _InstanceNorm(Cell):
    """Normalizes each (sample, channel) over its spatial positions: GroupNorm with one channel per
    group, so it shares GroupNorm's kernels and gradient (MindSpore's nn.InstanceNorm1d/2d/3d)."""

    _rank = 4

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init="ones", beta_init="zeros",
                 dtype=mstype.float32):
        super().__init__()
        name = type(self).__name__
        if not isinstance(num_features, int) or isinstance(num_features, bool) or num_features <= 0:
            raise ValueError(f"{name}: 'num_features' must be a positive int, but got {num_features!r}")
        if not isinstance(eps, (int, float)) or eps <= 0:
            raise ValueError(f"{name}: 'eps' must be a positive number, but got {eps!r}")
        if not isinstance(momentum, (int, float)) or not 0 <= momentum <= 1:
            raise ValueError(f"{name}: 'momentum' must be in [0, 1], but got {momentum!r}")
        self.num_features, self.eps, self.momentum, self.affine = num_features, float(eps), momentum, affine
        self.gamma = Parameter(initializer(gamma_init, (num_features,), dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, (num_features,), dtype), name="beta", requires_grad=affine)

    def construct(self, x):
        if x.ndim != self._rank or x.shape[1] != self.num_features:
            raise ValueError(f"{type(self).__name__}: expects a {self._rank}-D input (N, {self.num_features}, ...), "
                             f"but got shape {tuple(x.shape)}")
        return ops.group_norm(x, self.num_features, self.gamma, self.beta, self.eps)

    def extend_repr(self):
        return f"num_features={self.num_features}, eps={self.eps}, affine={self.affine}"


class InstanceNorm1d(_InstanceNorm):
    _rank = 3


class InstanceNorm2d(_InstanceNorm):
    _rank = 4


class InstanceNorm3d(_InstanceNorm):
    _rank = 5
