"""More ``mindspore.nn`` loss cells: DiceLoss, MultiClassDiceLoss, FocalLoss, HingeEmbeddingLoss,
MultilabelMarginLoss, TripletMarginWithDistanceLoss. MindSpore 2.x constructor and input names, arguments
checked when the cell is built; each a composition of ops functions (gradients and graph mode for free)."""
from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell
from sprout.nn.loss.loss import LossBase
from sprout.ops.function.nn_func import _check_float_arg
from sprout.ops.function.nn_loss_more_func import _check_bool, _check_positive


def _check_tensor(api, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    return x


def _check_same_shape(api, logits, labels):
    if tuple(logits.shape) != tuple(labels.shape):
        raise ValueError(f"{api}: 'logits' and 'labels' must have the same shape, but got {tuple(logits.shape)} "
                         f"and {tuple(labels.shape)}")


def _dice(api, logits, label, smooth):
    """1 - 2 sum(logits * label) / (sum(logits^2) + sum(label^2) + smooth), over every element."""
    for arg, t in (("logits", logits), ("labels", label)):
        if t.dtype == mstype.uint8:
            raise TypeError(f"{api}: '{arg}' must not be uint8")
    label = ops.cast(label, logits.dtype) if label.dtype != logits.dtype else label
    intersection = ops.sum(logits * label)
    union = ops.sum(logits * logits) + ops.sum(label * label)
    return 1 - 2 * intersection / (union + smooth)


class DiceLoss(LossBase):
    """1 - 2 |X n Y| / (|X|^2 + |Y|^2 + smooth) of predictions X and labels Y of one shape (a scalar)."""

    def __init__(self, smooth=1e-5):
        super().__init__()
        self.smooth = _check_positive("DiceLoss", "smooth", smooth)

    def construct(self, logits, label):
        _check_tensor("DiceLoss", "logits", logits)
        _check_tensor("DiceLoss", "labels", label)
        _check_same_shape("DiceLoss", logits, label)
        return _dice("DiceLoss", logits, label, self.smooth)


_DICE_ACTIVATIONS = ('softmax', 'logsoftmax', 'relu', 'relu6', 'tanh', 'sigmoid')


class MultiClassDiceLoss(LossBase):
    """The mean over the classes (axis 1) of DiceLoss(smooth=1e-5) of logits[:, i] and label[:, i], each times
    weights[i] if given, class `ignore_indiex` left out (still counted in the mean, as MindSpore). `activation`
    (a name, a Cell or None) is applied to the logits first; as MindSpore's get_activation, 'softmax' and
    'logsoftmax' take the last axis. The argument name `ignore_indiex` is MindSpore's spelling."""

    def __init__(self, weights=None, ignore_indiex=None, activation="softmax"):
        super().__init__()
        api = "MultiClassDiceLoss"
        if weights is not None:
            _check_tensor(api, "weights", weights)
            if weights.ndim != 2:
                raise ValueError(f"{api}: 'weights' must be 2-d, but got shape {tuple(weights.shape)}")
        if ignore_indiex is not None and (isinstance(ignore_indiex, bool) or not isinstance(ignore_indiex, int)):
            raise TypeError(f"{api}: 'ignore_indiex' must be an int, but got {type(ignore_indiex).__name__}")
        if isinstance(activation, str):
            if activation not in _DICE_ACTIVATIONS:
                raise ValueError(f"{api}: 'activation' must be one of {_DICE_ACTIVATIONS}, but got {activation!r}")
            from sprout.nn.layer.activation import get_activation
            activation = get_activation(activation)
        if activation is not None and not isinstance(activation, Cell):
            raise TypeError(f"{api}: 'activation' must be a str, a Cell or None, but got {type(activation).__name__}")
        self.weights, self.ignore_indiex, self.activation = weights, ignore_indiex, activation

    def construct(self, logits, label):
        api = "MultiClassDiceLoss"
        _check_tensor(api, "logits", logits)
        _check_tensor(api, "labels", label)
        _check_same_shape(api, logits, label)
        if logits.ndim < 2:
            raise ValueError(f"{api}: 'logits' and 'labels' must be at least 2-d, but got shape {tuple(logits.shape)}")
        classes = label.shape[1]
        if self.weights is not None and self.weights.shape[0] != classes:
            raise ValueError(f"{api}: weights.shape[0] ({self.weights.shape[0]}) must equal the classes of 'labels' "
                             f"({classes})")
        if self.activation is not None:
            logits = self.activation(logits)
        total = 0
        for i in range(classes):
            if i != self.ignore_indiex:
                loss = _dice(api, logits[:, i], label[:, i], 1e-5)
                if self.weights is not None:
                    loss = loss * self.weights[i]
                total = total + loss
        return total / classes


class FocalLoss(LossBase):
    """-(1 - p)^gamma log p of the softmax over axis 1 of (N, C[, H[, W]]) logits: with (N, 1, ...) class-index
    labels, p of the labelled class, averaged over the positions (shape (N,) before the reduction); with
    (N, C, ...) labels (e.g. one-hot), summed with those labels as weights and averaged over the positions per
    class (shape (N, C)). `weight` (C,) scales each class's log p."""

    def __init__(self, weight=None, gamma=2.0, reduction='mean'):
        super().__init__(reduction)
        if not isinstance(gamma, float):
            raise TypeError(f"FocalLoss: 'gamma' must be a float, but got {type(gamma).__name__}")
        if weight is not None:
            _check_tensor("FocalLoss", "weight", weight)
            if weight.ndim != 1:
                raise ValueError(f"FocalLoss: 'weight' must be 1-d, but got shape {tuple(weight.shape)}")
        self.gamma, self.weight = gamma, weight

    def construct(self, logits, labels):
        api = "FocalLoss"
        _check_tensor(api, "logits", logits)
        _check_tensor(api, "labels", labels)
        for arg, t in (("logits", logits), ("labels", labels)):
            if not 2 <= t.ndim <= 4:
                raise ValueError(f"{api}: '{arg}' must be 2-d to 4-d, but got shape {tuple(t.shape)}")
        if logits.ndim != labels.ndim:
            raise ValueError(f"{api}: 'logits' and 'labels' must have the same number of dimensions, but got "
                             f"{logits.ndim} and {labels.ndim}")
        classes, label_channels = logits.shape[1], labels.shape[1]
        if classes == 1:
            raise ValueError(f"{api}: logits.shape[1] must not be 1")
        if label_channels not in (1, classes):
            raise ValueError(f"{api}: labels.shape[1] must be 1 or logits.shape[1] ({classes}), but got "
                             f"{label_channels}")
        if labels.dtype not in (mstype.int32, mstype.int64, mstype.float16, mstype.float32):
            raise TypeError(f"{api}: 'labels' must be int32, int64, float16 or float32, but got {labels.dtype}")
        n = logits.shape[0]
        logits = ops.reshape(logits, (n, classes, -1))
        labels = ops.reshape(labels, (n, label_channels, -1))
        log_p = ops.log_softmax(logits, 1)  # (N, C, L)
        by_index = label_channels == 1
        if by_index:
            index = ops.cast(labels, mstype.int32)
            log_p = ops.squeeze(ops.gather_elements(log_p, 1, index), 1)  # (N, L)
        p = ops.exp(log_p)
        if self.weight is not None:
            w = ops.reshape(ops.cast(self.weight, log_p.dtype), (1, -1, 1)) + ops.zeros_like(logits)
            if by_index:
                w = ops.squeeze(ops.gather_elements(w, 1, index), 1)
            log_p = log_p * w
        modulator = ops.pow(1 - p, self.gamma)
        if by_index:
            loss = ops.mean(-modulator * log_p, 1)
        else:
            loss = ops.mean(-modulator * ops.cast(labels, log_p.dtype) * log_p, -1)
        return self.get_loss(loss)


class HingeEmbeddingLoss(LossBase):
    """logits where labels > 0, max(0, margin - logits) where labels < 0 (ops.hinge_embedding_loss)."""

    def __init__(self, margin=1.0, reduction='mean'):
        super().__init__(reduction)
        self.margin = _check_float_arg("HingeEmbeddingLoss", "margin", margin)

    def construct(self, logits, labels):
        return ops.hinge_embedding_loss(logits, labels, self.margin, self.reduction)


class MultilabelMarginLoss(LossBase):
    """Multi-label hinge loss of (N, C) or (C,) scores and class-index targets ended by -1
    (ops.multilabel_margin_loss)."""

    def construct(self, x, target):
        return ops.multilabel_margin_loss(x, target, self.reduction)


def _pairwise_distance(x, y):
    """MindSpore's default distance: the L2 norm of |x - y| over axis 1."""
    d = ops.abs(x - y)
    if d.ndim == 0:
        raise ValueError("TripletMarginWithDistanceLoss: the inputs of the default distance must not be 0-d")
    return ops.sqrt(ops.sum(ops.square(d), 1))


class TripletMarginWithDistanceLoss(LossBase):
    """max(d(x, positive) - d(x, negative) + margin, 0) with any distance function (default: the L2 norm of
    the difference over axis 1); `swap` uses min(d(x, negative), d(positive, negative))."""

    def __init__(self, distance_function=None, swap=False, reduction="mean", margin=1.0):
        super().__init__(reduction)
        api = "TripletMarginWithDistanceLoss"
        if not isinstance(margin, float):
            raise TypeError(f"{api}: 'margin' must be a float, but got {type(margin).__name__}")
        self.swap = _check_bool(api, "swap", swap)
        if distance_function is not None and not callable(distance_function):
            raise TypeError(f"{api}: 'distance_function' must be callable or None, but got "
                            f"{type(distance_function).__name__}")
        self.distance_function = _pairwise_distance if distance_function is None else distance_function
        self.margin = margin

    def construct(self, x, positive, negative):
        api = "TripletMarginWithDistanceLoss"
        for arg, t in (("x", x), ("positive", positive), ("negative", negative)):
            _check_tensor(api, arg, t)
        d1 = self.distance_function(x, positive)
        d2 = self.distance_function(x, negative)
        if self.swap:
            d2 = ops.minimum(d2, self.distance_function(positive, negative))
        return self.get_loss(ops.relu(d1 - d2 + self.margin))


__all__ = ["DiceLoss", "MultiClassDiceLoss", "FocalLoss", "HingeEmbeddingLoss", "MultilabelMarginLoss",
           "TripletMarginWithDistanceLoss"]
