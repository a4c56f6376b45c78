"""Bounding-box functions of detection networks (``ops.iou``, ``ops.bounding_box_encode``,
``ops.bounding_box_decode``, ``ops.check_valid``, MindSpore 2.x arguments).

Boxes are (x0, y0, x1, y1) in pixel coordinates with both ends inside the box, so a box is x1 - x0 + 1
wide: MindSpore's convention (its kernels add 1 to every width and height), kept for its values.
"""
import math

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _tensor, expand_dims, stack

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _boxes(api, arg, x):
    x = _tensor(x, api, arg)
    if x.ndim != 2 or x.shape[1] != 4:
        raise ValueError(f"{api}: '{arg}' must have shape (N, 4), but got {x.shape}")
    if x.dtype not in _FLOATS:
        raise TypeError(f"{api}: '{arg}' must be float16, float32 or float64, but got {x.dtype}")
    return x


def _four(api, arg, value):
    if not isinstance(value, (tuple, list)) or len(value) != 4 or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        raise TypeError(f"{api}: '{arg}' must be a tuple of 4 numbers, but got {value!r}")
    return tuple(float(v) for v in value)


def _centers(b):
    """(cx, cy, w, h) of (n, 4) boxes, widths with the +1 of the module docstring."""
    w, h = b[:, 2] - b[:, 0] + 1.0, b[:, 3] - b[:, 1] + 1.0
    return (b[:, 0] + b[:, 2]) * 0.5, (b[:, 1] + b[:, 3]) * 0.5, w, h


def iou(anchor_boxes, gt_boxes, mode="iou"):
    """(M, N): for ground-truth box i and anchor j their overlap over their union ('iou') or over the
    ground-truth box ('iof')."""
    api = "iou"
    anchors, gts = _boxes(api, "anchor_boxes", anchor_boxes), _boxes(api, "gt_boxes", gt_boxes)
    if mode not in ("iou", "iof"):
        raise KeyError(f"{api}: 'mode' must be 'iou' or 'iof', but got {mode!r}")
    a, g = expand_dims(anchors, 0), expand_dims(gts, 1)  # (1, N, 4), (M, 1, 4)
    zero = Tensor(0.0, anchors.dtype)
    width = prim("Maximum")(prim("Minimum")(a[..., 2], g[..., 2]) - prim("Maximum")(a[..., 0], g[..., 0]) + 1.0, zero)
    height = prim("Maximum")(prim("Minimum")(a[..., 3], g[..., 3]) - prim("Maximum")(a[..., 1], g[..., 1]) + 1.0, zero)
    overlap = width * height
    area_g = (g[..., 2] - g[..., 0] + 1.0) * (g[..., 3] - g[..., 1] + 1.0)
    if mode == "iof":
        return overlap / area_g
    area_a = (a[..., 2] - a[..., 0] + 1.0) * (a[..., 3] - a[..., 1] + 1.0)
    return overlap / (area_a + area_g - overlap)


def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
    """(n, 4) deltas (dx, dy, dw, dh) from each anchor to its ground-truth box, normalized by means/stds:
    dx = (gx - px) / pw, dw = log(gw / pw) (centers and widths, widths + 1)."""
    api = "bounding_box_encode"
    anchors, gts = _boxes(api, "anchor_box", anchor_box), _boxes(api, "groundtruth_box", groundtruth_box)
    if anchors.shape != gts.shape:
        raise ValueError(f"{api}: 'groundtruth_box' must have the shape of 'anchor_box' {anchors.shape}, but got "
                         f"{gts.shape}")
    means, stds = _four(api, "means", means), _four(api, "stds", stds)
    px, py, pw, ph = _centers(anchors)
    gx, gy, gw, gh = _centers(gts)
    log = prim("Log")
    deltas = ((gx - px) / pw, (gy - py) / ph, log(gw / pw), log(gh / ph))
    return stack(tuple((d - m) / s for d, m, s in zip(deltas, means, stds)), 1)


def bounding_box_decode(anchor_box, deltas, max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0),
                        wh_ratio_clip=0.016):
    """(n, 4) boxes from anchors and deltas (bounding_box_encode's inverse), log-ratios clipped to
    |log(wh_ratio_clip)| and corners to the image of `max_shape` (height, width)."""
    api = "bounding_box_decode"
    anchors, d = _boxes(api, "anchor_box", anchor_box), _boxes(api, "deltas", deltas)
    if anchors.shape != d.shape:
        raise ValueError(f"{api}: 'deltas' must have the shape of 'anchor_box' {anchors.shape}, but got {d.shape}")
    if not isinstance(max_shape, (tuple, list)) or len(max_shape) < 2:
        raise TypeError(f"{api}: 'max_shape' must be a tuple (height, width), but got {max_shape!r}")
    if not isinstance(wh_ratio_clip, float):
        raise TypeError(f"{api}: 'wh_ratio_clip' must be a float, but got {wh_ratio_clip!r}")
    means, stds = _four(api, "means", means), _four(api, "stds", stds)
    dx, dy, dw, dh = (d[:, i] * stds[i] + means[i] for i in range(4))
    limit = abs(math.log(wh_ratio_clip))
    clip = prim("ClipByValue")
    low, high = Tensor(-limit, d.dtype), Tensor(limit, d.dtype)
    dw, dh = clip(dw, low, high), clip(dh, low, high)
    px, py, pw, ph = _centers(anchors)
    exp = prim("Exp")
    gw, gh = pw * exp(dw), ph * exp(dh)
    gx, gy = px + pw * dx, py + ph * dy
    zero = Tensor(0.0, d.dtype)
    x_max, y_max = Tensor(float(max_shape[1]) - 1.0, d.dtype), Tensor(float(max_shape[0]) - 1.0, d.dtype)
    x0, x1 = clip(gx - gw * 0.5 + 0.5, zero, x_max), clip(gx + gw * 0.5 - 0.5, zero, x_max)
    y0, y1 = clip(gy - gh * 0.5 + 0.5, zero, y_max), clip(gy + gh * 0.5 - 0.5, zero, y_max)
    return stack((x0, y0, x1, y1), 1)


def check_valid(bboxes, img_metas):
    """(N,) bool: whether each (x0, y0, x1, y1) box lies in the image of img_metas (height, width, ratio):
    x0 >= 0, y0 >= 0, x1 <= width * ratio - 1, y1 <= height * ratio - 1."""
    api = "check_valid"
    boxes = _boxes(api, "bboxes", bboxes)
    metas = _tensor(img_metas, api, "img_metas")
    if metas.shape != (3,):
        raise ValueError(f"{api}: 'img_metas' must have shape (3,) (height, width, ratio), but got {metas.shape}")
    metas = metas.astype(boxes.dtype)
    zero = Tensor(0.0, boxes.dtype)
    ge, le, both = prim("GreaterEqual"), prim("LessEqual"), prim("LogicalAnd")
    inside = both(ge(boxes[:, 0], zero), ge(boxes[:, 1], zero))
    inside = both(inside, le(boxes[:, 2], metas[1] * metas[2] - 1.0))
    return both(inside, le(boxes[:, 3], metas[0] * metas[2] - 1.0))


__all__ = ["iou", "bounding_box_encode", "bounding_box_decode", "check_valid"]
