"""Image ops that read pixels at positions computed from tensors: col2im (fold with MindSpore's 4-d
layout), crop_and_resize (TensorFlow's, as MindSpore's CPU kernel), and the helpers behind the ROIAlign,
NMSWithMask and ExtractImagePatches primitives (MindSpore has no functional forms of those).

Positions that depend on tensor values (boxes, regions) become integer index tensors and interpolation
weights made of registry ops (Floor, Gather, arithmetic), so the gradients with respect to the image and to
the boxes come from those ops' rules, and graph mode stages the same code.
"""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _int, _tensor, reshape, transpose
from sprout.ops.function.nn_func import _check_float_arg
from sprout.ops.function.nn_unfold_func import fold, unfold

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _float_input(api, arg, x, ndim, layout):
    x = _tensor(x, api, arg)
    if x.ndim != ndim:
        raise ValueError(f"{api}: '{arg}' must be {ndim}-d {layout}, but got shape {x.shape}")
    return x


# ---- col2im / Im2Col / Col2Im -----------------------------------------------------------------------

def col2im(input_x, output_size, kernel_size, dilation, padding_value, stride):
    """(N, C, kh * kw, L) blocks summed back into (N, C, H, W), output_size = (H, W): ops.fold with the
    kernel's elements on their own axis."""
    x = _float_input("col2im", "input_x", input_x, 4, "(N, C, kh * kw, L)")
    n, c, k, windows = x.shape
    return fold(reshape(x, (n, c * k, windows)), output_size, kernel_size, dilation, padding_value, stride)


def im2col(x, kernel_size, dilation, padding, stride):
    """(N, C, H, W) -> (N, C, kh * kw, L): Im2Col's layout of ops.unfold."""
    x = _float_input("Im2Col", "x", x, 4, "(N, C, H, W)")
    cols = unfold(x, kernel_size, dilation, padding, stride)
    n, c = x.shape[:2]
    return reshape(cols, (n, c, cols.shape[1] // c, cols.shape[2]))


# ---- crop_and_resize ----------------------------------------------------------------------------------

def _crop_positions(start, end, extent, count):
    """Sample positions of one box axis in pixels, (num_boxes, count): the box's ends at start * (extent - 1)
    and end * (extent - 1), one sample at its middle when count is 1."""
    if count == 1:
        return prim("ExpandDims")((start + end) * (0.5 * (extent - 1)), 1)
    steps = Tensor(np.arange(count, dtype=np.float32) / (count - 1))  # (count,)
    begin = prim("ExpandDims")(start * float(extent - 1), 1)
    return begin + prim("ExpandDims")((end - start) * float(extent - 1), 1) * steps


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0):
    """Crops of `image` (B, H, W, D) at the normalized boxes [y1, x1, y2, x2] (num_boxes, 4) of images
    box_indices, each resized to crop_size = (crop_h, crop_w): (num_boxes, crop_h, crop_w, D), float32.
    Samples outside the image read extrapolation_value."""
    api = "crop_and_resize"
    image = _float_input(api, "image", image, 4, "(batch, height, width, depth)")
    boxes, box_indices = _tensor(boxes, api, "boxes"), _tensor(box_indices, api, "box_indices")
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise ValueError(f"{api}: 'boxes' must be (num_boxes, 4), but got shape {boxes.shape}")
    if boxes.dtype not in _FLOATS:
        raise TypeError(f"{api}: 'boxes' must be a floating-point tensor, but got {boxes.dtype}")
    if box_indices.ndim != 1 or box_indices.shape[0] != boxes.shape[0]:
        raise ValueError(f"{api}: 'box_indices' must be 1-d with one entry per box ({boxes.shape[0]}), but got "
                         f"shape {box_indices.shape}")
    if box_indices.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"{api}: 'box_indices' must be an int32 tensor, but got {box_indices.dtype}")
    if not (isinstance(crop_size, (tuple, list)) and len(crop_size) == 2):
        raise TypeError(f"{api}: 'crop_size' must be a tuple of two ints, but got {crop_size!r}")
    ch, cw = (_int(v, api, "crop_size") for v in crop_size)
    if ch <= 0 or cw <= 0:
        raise ValueError(f"{api}: 'crop_size' must be positive, but got {crop_size!r}")
    if not isinstance(method, str):
        raise TypeError(f"{api}: 'method' must be a str, but got {type(method).__name__}")
    if method == "bilinear_v2":
        raise ValueError(f"{api}: method 'bilinear_v2' (MindSpore's kernel-specific variant) is not supported; use "
                         f"'bilinear' or 'nearest'")
    if method not in ("bilinear", "nearest"):
        raise ValueError(f"{api}: 'method' must be 'bilinear', 'nearest' or 'bilinear_v2', but got {method!r}")
    fill = _check_float_arg(api, "extrapolation_value", extrapolation_value)

    b, h, w, d = image.shape
    nb = boxes.shape[0]
    image = prim("Cast")(image, mstype.float32)
    boxes = prim("Cast")(boxes, mstype.float32)
    column = lambda j: reshape(prim("Slice")(boxes, (0, j), (nb, 1)), (nb,))  # noqa: E731
    ys = _crop_positions(column(0), column(2), h, ch)  # (nb, ch)
    xs = _crop_positions(column(1), column(3), w, cw)  # (nb, cw)
    y_in = prim("LogicalAnd")(ys >= 0.0, ys <= float(h - 1))
    x_in = prim("LogicalAnd")(xs >= 0.0, xs <= float(w - 1))
    inside = prim("LogicalAnd")(prim("ExpandDims")(y_in, 2), prim("ExpandDims")(x_in, 1))  # (nb, ch, cw)
    flat = reshape(image, (b * h * w, d))
    base = prim("Cast")(box_indices, mstype.int64) * (h * w)

    def read(yi, xi):
        """image at integer rows yi (nb, ch) and columns xi (nb, cw) of each box's image: (nb, ch, cw, d)."""
        yi = prim("ClipByValue")(yi, Tensor(0.0), Tensor(float(h - 1)))
        xi = prim("ClipByValue")(xi, Tensor(0.0), Tensor(float(w - 1)))
        rows = prim("Cast")(yi, mstype.int64) * w + prim("ExpandDims")(base, 1)
        index = prim("ExpandDims")(rows, 2) + prim("ExpandDims")(prim("Cast")(xi, mstype.int64), 1)
        return prim("Gather")(flat, index, 0)

    if method == "nearest":
        # roundf: halves away from zero; positions read are >= 0.
        out = read(prim("Floor")(ys + 0.5), prim("Floor")(xs + 0.5))
    else:
        top, left = prim("Floor")(ys), prim("Floor")(xs)
        bottom, right = prim("Ceil")(ys), prim("Ceil")(xs)
        ly = reshape(ys - top, (nb, ch, 1, 1))
        lx = reshape(xs - left, (nb, 1, cw, 1))
        upper = read(top, left) + (read(top, right) - read(top, left)) * lx
        lower = read(bottom, left) + (read(bottom, right) - read(bottom, left)) * lx
        out = upper + (lower - upper) * ly
    mask = prim("BroadcastTo", shape=(nb, ch, cw, d))(prim("ExpandDims")(inside, 3))
    return prim("Select")(mask, out, prim("Fill")(mstype.float32, (nb, ch, cw, d), fill))


# ---- ROIAlign -----------------------------------------------------------------------------------------

def _roi_axis_weights(start, bin_size, pooled, samples, extent):
    """(R, pooled * samples, extent): the bilinear weight of each input cell for each sample position along
    one axis (Caffe2's ROIAlign rules: positions before -1 or past extent read 0, positions in [-1, 0] read
    cell 0, from extent - 1 on the last cell)."""
    fractions = (np.arange(pooled)[:, None] + (np.arange(samples)[None, :] + 0.5) / samples).reshape(-1)
    positions = prim("ExpandDims")(start, 1) + prim("ExpandDims")(bin_size, 1) * Tensor(fractions, start.dtype)
    valid = prim("LogicalAnd")(positions >= -1.0, positions <= float(extent))
    positions = prim("Maximum")(positions, Tensor(0.0, start.dtype))
    low = prim("Floor")(positions)
    at_end = low >= float(extent - 1)
    last = Tensor(float(extent - 1), start.dtype)
    low = prim("Select")(at_end, prim("ZerosLike")(low) + last, low)
    positions = prim("Select")(at_end, low, positions)
    high = prim("Select")(at_end, low, low + 1.0)
    frac = positions - low
    cells = Tensor(np.arange(extent, dtype=np.float32), start.dtype)  # compared with low/high: one-hot rows
    one_hot = lambda i: prim("Cast")(prim("Equal")(prim("ExpandDims")(i, 2), cells), start.dtype)  # noqa: E731
    weights = one_hot(low) * prim("ExpandDims")(1.0 - frac, 2) + one_hot(high) * prim("ExpandDims")(frac, 2)
    return weights * prim("ExpandDims")(prim("Cast")(valid, start.dtype), 2)


def roi_align(features, rois, pooled_height, pooled_width, spatial_scale, sample_num, roi_end_mode):
    """ROIAlign: (R, C, pooled_height, pooled_width) averages of sample_num x sample_num bilinear samples per
    bin of each region (batch index, x1, y1, x2, y2) of `features` (N, C, H, W). The sampling is separable,
    so each region's samples are two products with (samples, H) and (W, samples) weight matrices."""
    api = "ROIAlign"
    x = _float_input(api, "features", features, 4, "(N, C, H, W)")
    r = _tensor(rois, api, "rois")
    if r.ndim != 2 or r.shape[1] != 5:
        raise ValueError(f"{api}: 'rois' must be (rois_n, 5), but got shape {r.shape}")
    if x.dtype not in _FLOATS or r.dtype != x.dtype:
        raise TypeError(f"{api}: 'features' and 'rois' must share a floating-point dtype, but got {x.dtype} and "
                        f"{r.dtype}")
    if sample_num <= 0:
        raise ValueError(f"{api}: 'sample_num' <= 0 (a sample count that depends on each region's size) is not "
                         f"supported; give a positive 'sample_num', but got {sample_num}")
    n, c, h, w = x.shape
    count = r.shape[0]
    column = lambda j: reshape(prim("Slice")(r, (0, j), (count, 1)), (count,))  # noqa: E731
    start_x, start_y = column(1) * spatial_scale, column(2) * spatial_scale
    width = (column(3) + float(roi_end_mode)) * spatial_scale - start_x
    height = (column(4) + float(roi_end_mode)) * spatial_scale - start_y
    if roi_end_mode == 0:  # the legacy mode makes degenerate regions 1 x 1
        one = Tensor(1.0, x.dtype)
        width, height = prim("Maximum")(width, one), prim("Maximum")(height, one)
    wy = _roi_axis_weights(start_y, height / float(pooled_height), pooled_height, sample_num, h)  # (R, PH s, H)
    wx = _roi_axis_weights(start_x, width / float(pooled_width), pooled_width, sample_num, w)  # (R, PW s, W)
    images = prim("Gather")(x, prim("Cast")(column(0), mstype.int64), 0)  # (R, C, H, W)
    rows = prim("BatchMatMul")(prim("BroadcastTo", shape=(count, c) + wy.shape[1:])(prim("ExpandDims")(wy, 1)), images)
    wx_t = prim("BroadcastTo", shape=(count, c) + wx.shape[1:])(prim("ExpandDims")(wx, 1))
    samples = prim("BatchMatMul", transpose_b=True)(rows, wx_t)  # (R, C, PH s, PW s)
    samples = reshape(samples, (count, c, pooled_height, sample_num, pooled_width, sample_num))
    return prim("ReduceMean", keep_dims=False)(samples, (3, 5))


# ---- NMSWithMask --------------------------------------------------------------------------------------

def nms_with_mask(bboxes, iou_threshold):
    """(boxes sorted by score, largest first; their positions 0 .. N-1 (int32); the mask of the boxes kept)
    as MindSpore's CPU kernel gives them. A box is dropped when its IOU with a kept box of higher score
    exceeds iou_threshold; areas are (x1 - x0) * (y1 - y0). The greedy pass visits the boxes in order, one
    step per box."""
    api = "NMSWithMask"
    boxes = _tensor(bboxes, api, "bboxes")
    if boxes.ndim != 2 or boxes.shape[1] != 5 or boxes.shape[0] <= 0:
        raise ValueError(f"{api}: 'bboxes' must be (N, 5) with N > 0, but got shape {boxes.shape}")
    if boxes.dtype not in (mstype.float16, mstype.float32):
        raise TypeError(f"{api}: 'bboxes' must be float16 or float32, but got {boxes.dtype}")
    count = boxes.shape[0]
    scores = reshape(prim("Slice")(boxes, (0, 4), (count, 1)), (count,))
    _, order = prim("Sort", axis=0, descending=True)(scores)
    ordered = prim("Gather")(boxes, order, 0)
    corner = lambda j: prim("Slice")(ordered, (0, j), (count, 1))  # noqa: E731  (N, 1)
    x0, y0, x1, y1 = corner(0), corner(1), corner(2), corner(3)
    area = (x1 - x0) * (y1 - y0)
    t = lambda v: prim("Transpose")(v, (1, 0))  # noqa: E731
    zero = Tensor(0.0, boxes.dtype)
    overlap_w = prim("Maximum")(prim("Minimum")(x1, t(x1)) - prim("Maximum")(x0, t(x0)), zero)
    overlap_h = prim("Maximum")(prim("Minimum")(y1, t(y1)) - prim("Maximum")(y0, t(y0)), zero)
    inter = overlap_w * overlap_h
    iou = inter / (area + t(area) - inter)
    later = Tensor(np.triu(np.ones((count, count), bool), 1))  # row i may suppress the boxes after it
    suppresses = prim("LogicalAnd")(iou > float(iou_threshold), later)
    keep = Tensor(np.ones(count, bool))
    for i in range(count - 1):
        row = reshape(prim("Slice")(suppresses, (i, 0), (1, count)), (count,))
        kept = prim("Slice")(keep, (i,), (1,))
        keep = prim("LogicalAnd")(keep, prim("LogicalNot")(prim("LogicalAnd")(row, kept)))
    return ordered, Tensor(np.arange(count, dtype=np.int32)), keep


# ---- ExtractImagePatches ------------------------------------------------------------------------------

def extract_image_patches(input_x, ksizes, strides, rates, padding):
    """(N, C, H, W) -> (N, kh * kw * C, out_h, out_w): each output position's patch, TensorFlow's order
    (patch row, patch column, channel) along the channels. padding 'VALID' (no padding) or 'SAME'
    (out = ceil(in / stride), the padding split with the extra cell after)."""
    api = "ExtractImagePatches"
    x = _float_input(api, "input_x", input_x, 4, "(N, C, H, W)")
    n, c, h, w = x.shape
    (kh, kw), (sh, sw), (rh, rw) = ksizes[2:], strides[2:], rates[2:]
    eff_h, eff_w = (kh - 1) * rh + 1, (kw - 1) * rw + 1
    if padding == "VALID":
        out_h, out_w = (h - eff_h) // sh + 1, (w - eff_w) // sw + 1
        pads = (0, 0, 0, 0)
    else:
        out_h, out_w = -(-h // sh), -(-w // sw)
        ph, pw = max((out_h - 1) * sh + eff_h - h, 0), max((out_w - 1) * sw + eff_w - w, 0)
        pads = (pw // 2, pw - pw // 2, ph // 2, ph - ph // 2)
    if out_h < 1 or out_w < 1:
        raise ValueError(f"{api}: a {kh}x{kw} patch at rates {rh}x{rw} does not fit a {h}x{w} image")
    padded = prim("Pad", paddings=((0, 0), (0, 0), (pads[2], pads[3]), (pads[0], pads[1])))(x) if any(pads) else x
    wp = padded.shape[3]
    ky, kx = np.meshgrid(np.arange(kh) * rh, np.arange(kw) * rw, indexing="ij")
    oy, ox = np.meshgrid(np.arange(out_h) * sh, np.arange(out_w) * sw, indexing="ij")
    table = (ky.reshape(-1, 1) + oy.reshape(1, -1)) * wp + kx.reshape(-1, 1) + ox.reshape(1, -1)
    cols = prim("Gather")(reshape(padded, (n, c, -1)), Tensor(table.reshape(-1).astype(np.int64)), 2)
    cols = transpose(reshape(cols, (n, c, kh * kw, out_h, out_w)), (0, 2, 1, 3, 4))
    return reshape(cols, (n, kh * kw * c, out_h, out_w))


__all__ = ["col2im", "crop_and_resize"]
