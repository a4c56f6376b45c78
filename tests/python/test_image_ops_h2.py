"""MindSpore's remaining image and sampling ops (ops.col2im, ops.crop_and_resize, ops.conv3d_transpose and the
Primitives Im2Col, Col2Im, CropAndResize, ROIAlign, NMSWithMask, ResizeNearestNeighborV2, ResizeBicubic,
UpsampleNearest3D, UpsampleTrilinear3D, GridSampler3D, ExtractImagePatches, Conv3DTranspose, LSTM): the
expected values are MindSpore 2.10's CPU outputs on the same inputs, or NumPy references; gradients against
finite differences, and each family once compiled."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops
from finite_differences import check_grad

F32 = np.float32


def close(got, want, atol=2e-6):
    np.testing.assert_allclose(np.asarray(got.asnumpy(), np.float64), np.asarray(want, np.float64).reshape(got.shape),
                               rtol=1e-5, atol=atol)


def sin(shape, dtype=F32):
    return np.sin(np.arange(int(np.prod(shape)))).reshape(shape).astype(dtype)


# ---- Im2Col / Col2Im / col2im ------------------------------------------------------------------------

def numpy_im2col(x, k, stride, pad):
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1
    out = np.zeros((n, c, k * k, oh * ow), x.dtype)
    for i in range(k):
        for j in range(k):
            out[:, :, i * k + j] = xp[:, :, i:i + stride * oh:stride, j:j + stride * ow:stride].reshape(n, c, -1)
    return out


def test_im2col_matches_mindspore_and_numpy():
    x = np.arange(9, dtype=F32).reshape(1, 1, 3, 3)
    y = ops.Im2Col(ksizes=2, strides=2, dilations=1, pads=1)(Tensor(x))
    close(y, [0, 0, 0, 4, 0, 0, 3, 5, 0, 1, 0, 7, 0, 2, 6, 8])
    x = sin((2, 3, 5, 6))
    close(ops.Im2Col(3, strides=2, pads=1)(Tensor(x)), numpy_im2col(x, 3, 2, 1))


def test_col2im_sums_blocks_back():
    c = (np.arange(16, dtype=F32) / 10).reshape(1, 1, 4, 4)
    want = [0.0, 0.5, 0.5, 1.0, 3.0, 2.0, 1.0, 2.5, 1.5]
    close(ops.Col2Im(2, 1, 0, 1)(Tensor(c), Tensor([3, 3], ms.int32)), want)
    close(ops.col2im(Tensor(c), Tensor([3, 3], ms.int32), 2, 1, 0, 1), want)
    # Col2Im is Im2Col's adjoint: <im2col(x), y> = <x, col2im(y)>.
    x, y = sin((1, 2, 5, 4)), np.cos(np.arange(2 * 4 * 9)).reshape(1, 2, 4, 9).astype(F32)
    cols = ops.Im2Col(2, strides=2, pads=1)(Tensor(x)).asnumpy()
    back = ops.Col2Im(2, padding=1, stride=2)(Tensor(y), Tensor([5, 4], ms.int32)).asnumpy()
    np.testing.assert_allclose((cols * y).sum(), (x * back).sum(), rtol=1e-5)
    check_grad(lambda t: ops.col2im(t, (5, 4), 2, 1, 1, 2), y.astype(np.float64))


def test_im2col_col2im_bad_arguments():
    with pytest.raises(ValueError, match="Im2Col: 'pads'"):
        ops.Im2Col(2, pads=(1, 1, 2, 2))
    with pytest.raises(TypeError, match="Col2Im: 'kernel_size'"):
        ops.Col2Im(2.5)
    with pytest.raises(ValueError, match="col2im: 'input_x' must be 4-d"):
        ops.col2im(Tensor(np.ones((1, 4, 4), F32)), (3, 3), 2, 1, 0, 1)


# ---- crop_and_resize / CropAndResize ------------------------------------------------------------------

CROP_IMAGE = sin((1, 3, 4, 1))
CROP_BOXES = np.array([[0.1, 0.2, 0.9, 0.7], [1.2, -0.1, 0.3, 0.5]], F32)
CROP_WANT = {
    "bilinear": [0.228291, 0.547949, 0.628829, 0.338796, -0.082244, -0.508849, 0.5, 0.5, 0.5, 0.5, -0.324892,
                 -0.021348],
    "nearest": [0.841471, 0.841471, 0.909297, 0.412118, 0.412118, -0.544021, 0.5, 0.5, 0.5, 0.5, -0.958924,
                -0.279415],
}


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
def test_crop_and_resize_matches_mindspore(method):
    args = (Tensor(CROP_IMAGE), Tensor(CROP_BOXES), Tensor(np.array([0, 0], np.int32)), (2, 3))
    close(ops.CropAndResize(method, 0.5)(*args), CROP_WANT[method])
    out = ops.crop_and_resize(*args, method=method, extrapolation_value=0.5)
    assert out.shape == (2, 2, 3, 1) and out.dtype == ms.float32
    close(out, CROP_WANT[method])


def test_crop_and_resize_gradients_and_integer_images():
    image, boxes = sin((2, 4, 5, 2)), np.array([[0.1, 0.2, 0.8, 0.9], [0.7, 0.6, 0.2, 0.1]], F32)
    index = Tensor(np.array([1, 0], np.int32))
    w = Tensor(np.cos(np.arange(2 * 3 * 2 * 2)).reshape(2, 3, 2, 2).astype(F32))
    loss = lambda i, b: (ops.crop_and_resize(i, b, index, (3, 2)) * w).sum()  # noqa: E731
    grads = ms.grad(loss, grad_position=(0, 1))(Tensor(image), Tensor(boxes))
    for k, value in enumerate((image, boxes)):
        numeric = np.zeros(value.size)
        for i in range(value.size):
            d = np.zeros(value.size, F32)
            d[i] = 1e-3
            plus = [Tensor(image), Tensor(boxes)]
            minus = [Tensor(image), Tensor(boxes)]
            plus[k], minus[k] = Tensor(value + d.reshape(value.shape)), Tensor(value - d.reshape(value.shape))
            numeric[i] = (float(loss(*plus).asnumpy()) - float(loss(*minus).asnumpy())) / 2e-3
        np.testing.assert_allclose(grads[k].asnumpy().reshape(-1), numeric, rtol=2e-3, atol=2e-3)
    ints = np.arange(2 * 4 * 5 * 2, dtype=np.int32).reshape(2, 4, 5, 2)
    out = ops.CropAndResize("nearest")(Tensor(ints), Tensor(boxes), index, (1, 1))
    assert out.dtype == ms.float32


def test_crop_and_resize_bad_arguments():
    image, boxes, index = Tensor(CROP_IMAGE), Tensor(CROP_BOXES), Tensor(np.array([0, 0], np.int32))
    with pytest.raises(ValueError, match="'method' must be"):
        ops.CropAndResize("bicubic")
    with pytest.raises(ValueError, match="bilinear_v2"):
        ops.crop_and_resize(image, boxes, index, (2, 2), method="bilinear_v2")
    with pytest.raises(ValueError, match="'boxes' must be \\(num_boxes, 4\\)"):
        ops.crop_and_resize(image, Tensor(np.ones((2, 3), F32)), index, (2, 2))
    with pytest.raises(ValueError, match="'crop_size' must be positive"):
        ops.crop_and_resize(image, boxes, index, (0, 2))
    with pytest.raises(ValueError, match="'box_indices' must be 1-d"):
        ops.crop_and_resize(image, boxes, Tensor(np.array([0], np.int32)), (2, 2))


# ---- ROIAlign -----------------------------------------------------------------------------------------

ROI_FEATURES = sin((1, 1, 4, 5))
ROIS = np.array([[0, 0.5, 1, 6, 5], [0, -2, -1, 3, 2], [0, 2, 2, 2.5, 2.2]], F32)
ROI_WANT = {
    0: [-0.234584, 0.616848, -0.691378, -0.188715, -0.029966, 0.632382, -0.599328, 0.03624, -0.25502, 0.154058,
        -0.674431, -0.383599],
    1: [-0.232533, 0.637176, -0.614818, -0.229717, -0.068539, 0.705158, -0.752332, -0.024019, -0.225229, 0.099316,
        -0.468007, -0.196672],
}


@pytest.mark.parametrize("roi_end_mode", [0, 1])
def test_roi_align_matches_mindspore(roi_end_mode):
    out = ops.ROIAlign(2, 2, 0.5, 2, roi_end_mode)(Tensor(ROI_FEATURES), Tensor(ROIS))
    assert out.shape == (3, 1, 2, 2)
    close(out, ROI_WANT[roi_end_mode])


def test_roi_align_doc_example_gradient_and_errors():
    features = Tensor(np.array([[[[1., 2.], [3., 4.]]]]), ms.float32)
    rois = Tensor(np.array([[0, 0.2, 0.3, 0.2, 0.3]]), ms.float32)
    close(ops.ROIAlign(2, 2, 0.5, 2)(features, rois), [1.775, 2.025, 2.275, 2.525])
    rois = np.array([[1, 0.5, 1.0, 6.0, 5.0], [0, 1.0, 0.2, 3.0, 7.0]])
    check_grad(lambda f: ops.ROIAlign(2, 3, 0.5, 2)(f, Tensor(rois)), sin((2, 2, 4, 5), np.float64))
    with pytest.raises(ValueError, match="'sample_num' <= 0"):
        ops.ROIAlign(2, 2, 0.5, 0)(Tensor(ROI_FEATURES), Tensor(ROIS))
    with pytest.raises(ValueError, match="'roi_end_mode' must be 0 or 1"):
        ops.ROIAlign(2, 2, 0.5, 2, 2)
    with pytest.raises(TypeError, match="'spatial_scale' must be a float"):
        ops.ROIAlign(2, 2, "0.5")
    with pytest.raises(ValueError, match="'rois' must be \\(rois_n, 5\\)"):
        ops.ROIAlign(2, 2, 0.5)(Tensor(ROI_FEATURES), Tensor(np.ones((2, 4), F32)))


# ---- NMSWithMask --------------------------------------------------------------------------------------

def numpy_nms(boxes, threshold):
    order = np.argsort(-boxes[:, 4], kind="stable")
    s = boxes[order]
    keep = np.ones(len(s), bool)
    area = (s[:, 2] - s[:, 0]) * (s[:, 3] - s[:, 1])
    for i in range(len(s)):
        if keep[i]:
            w = np.maximum(np.minimum(s[i, 2], s[:, 2]) - np.maximum(s[i, 0], s[:, 0]), 0)
            h = np.maximum(np.minimum(s[i, 3], s[:, 3]) - np.maximum(s[i, 1], s[:, 1]), 0)
            iou = w * h / (area[i] + area - w * h)
            keep[i + 1:] &= ~(iou[i + 1:] > threshold)
    return s, keep


def test_nms_with_mask_matches_mindspore_and_numpy():
    boxes = np.array([[0, 0, 4, 4, 0.5], [1, 1, 5, 5, 0.9], [6, 6, 8, 8, 0.3], [0.5, 0, 4, 4, 0.7],
                      [6, 5, 8, 8, 0.8]], F32)
    out, index, mask = ops.NMSWithMask(0.4)(Tensor(boxes))
    close(out, boxes[[1, 4, 3, 0, 2]])
    assert index.dtype == ms.int32 and index.asnumpy().tolist() == [0, 1, 2, 3, 4]
    assert mask.asnumpy().tolist() == [True, True, False, True, False]
    rng = np.random.default_rng(1)
    corner = rng.uniform(0, 10, (12, 2))
    boxes = np.concatenate([corner, corner + rng.uniform(1, 5, (12, 2)), rng.permutation(12)[:, None] / 12],
                           1).astype(F32)
    for threshold in (0.1, 0.3):
        out, _, mask = ops.NMSWithMask(threshold)(Tensor(boxes))
        want, keep = numpy_nms(boxes, threshold)
        close(out, want)
        assert mask.asnumpy().tolist() == keep.tolist()
    with pytest.raises(ValueError, match="'iou_threshold' must be a float"):
        ops.NMSWithMask("0.5")
    with pytest.raises(ValueError, match="'bboxes' must be \\(N, 5\\)"):
        ops.NMSWithMask()(Tensor(np.ones((3, 4), F32)))
    with pytest.raises(TypeError, match="float16 or float32"):
        ops.NMSWithMask()(Tensor(np.ones((3, 5), np.float64)))


# ---- ResizeNearestNeighborV2 / ResizeBicubic ----------------------------------------------------------

RESIZE_NEAREST_WANT = {
    (False, False): [0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 3, 3, 4, 4, 5],
    (True, False): [0, 1, 1, 2, 2, 3, 4, 4, 5, 5, 3, 4, 4, 5, 5],
    (False, True): [0, 0, 1, 2, 2, 3, 3, 4, 5, 5, 3, 3, 4, 5, 5],
}
RESIZE_BICUBIC_WANT = {
    (False, False): [0.0, 0.643672, 0.954272, 0.916451, 0.096743, -0.16233, -0.345724, -0.383804, 0.1568, -0.662685,
                     -1.152745, -1.190985],
    (True, False): [0.0, 0.569324, 0.956297, 0.909297, 0.07056, 0.058671, 0.018083, -0.024813, 0.14112, -0.451982,
                    -0.920131, -0.958924],
    (False, True): [-0.059243, 0.583921, 1.045811, 1.036865, 0.072034, 0.05758, 0.015291, -0.028321, 0.203312,
                    -0.46876, -1.015229, -1.093507],
}


@pytest.mark.parametrize("flags", list(RESIZE_NEAREST_WANT))
def test_resizes_match_mindspore(flags):
    x = np.arange(6, dtype=F32).reshape(1, 1, 2, 3)
    close(ops.ResizeNearestNeighborV2(*flags)(Tensor(x), Tensor([3, 5], ms.int32)), RESIZE_NEAREST_WANT[flags])
    out = ops.ResizeBicubic(*flags)(Tensor(sin((1, 1, 2, 3))), Tensor([3, 4], ms.int32))
    assert out.shape == (1, 1, 3, 4)
    close(out, RESIZE_BICUBIC_WANT[flags])
    close(ops.ResizeBicubic(*flags)(Tensor(sin((1, 1, 2, 3))), (3, 4)), RESIZE_BICUBIC_WANT[flags])


def test_resize_gradients_and_errors():
    for flags in RESIZE_BICUBIC_WANT:
        check_grad(lambda t, flags=flags: ops.ResizeBicubic(*flags)(t, (4, 5)), sin((1, 2, 3, 2), np.float64))
    with pytest.raises(ValueError, match="cannot both be True"):
        ops.ResizeBicubic(True, True)
    with pytest.raises(TypeError, match="'align_corners' must be a bool"):
        ops.ResizeNearestNeighborV2(1)
    with pytest.raises(ValueError, match="'size' must be positive"):
        ops.ResizeNearestNeighborV2()(Tensor(np.ones((1, 1, 2, 2), F32)), Tensor([0, 2], ms.int32))
    with pytest.raises(ValueError, match="'x' must be 4-d"):
        ops.ResizeNearestNeighborV2()(Tensor(np.ones((1, 2, 2), F32)), (2, 2))
    with pytest.raises(TypeError, match="float16, float32 or float64"):
        ops.ResizeBicubic()(Tensor(np.ones((1, 1, 2, 2), np.int32)), (3, 3))


# ---- UpsampleNearest3D / UpsampleTrilinear3D ----------------------------------------------------------

def test_upsample_3d_matches_mindspore():
    x = Tensor(np.arange(8, dtype=F32).reshape(1, 1, 2, 2, 2))
    nearest = ops.UpsampleNearest3D()(x, None, [1.5, 1.0, 2.0])
    assert nearest.shape == (1, 1, 3, 2, 4)
    close(nearest, [0, 0, 1, 1, 2, 2, 3, 3, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7])
    want = [0.0, 0.5, 1.0, 2.0, 2.5, 3.0, 2.0, 2.5, 3.0, 4.0, 4.5, 5.0, 4.0, 4.5, 5.0, 6.0, 6.5, 7.0]
    for align_corners in (False, True):
        close(ops.UpsampleTrilinear3D(align_corners)(x, [3, 2, 3], None), want)
    # The documented example: 2 x 2 -> 4 x 4 without aligned corners.
    y = ops.UpsampleTrilinear3D()(Tensor(np.arange(1, 5, dtype=F32).reshape(1, 1, 1, 2, 2)), [2, 4, 4], None)
    close(y[0, 0, 0, 1], [1.5, 1.75, 2.25, 2.5])


def test_upsample_3d_gradients_and_errors():
    for align_corners in (False, True):
        check_grad(lambda t, a=align_corners: ops.UpsampleTrilinear3D(a)(t, None, [1.5, 2.0, 0.75]),
                   sin((1, 2, 2, 2, 4), np.float64))
    check_grad(lambda t: ops.UpsampleNearest3D()(t, [3, 1, 4], None), sin((1, 1, 2, 2, 3), np.float64))
    x = Tensor(np.ones((1, 1, 2, 2, 2), F32))
    with pytest.raises(ValueError, match="exactly one of 'output_size' and 'scales'"):
        ops.UpsampleNearest3D()(x, [2, 2, 2], [1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="'output_size' must be 3 positive ints"):
        ops.UpsampleTrilinear3D()(x, [2, 2], None)
    with pytest.raises(TypeError, match="'scales' must be a tuple or list of floats"):
        ops.UpsampleNearest3D()(x, None, "2")
    with pytest.raises(ValueError, match="'x' must be 5-d"):
        ops.UpsampleNearest3D()(Tensor(np.ones((1, 2, 2, 2), F32)), [2, 2, 2], None)


# ---- GridSampler3D ------------------------------------------------------------------------------------

GRID = np.array([[0.1, -0.3, 0.5], [-1.2, 0.4, 0.9], [0.7, 1.1, -0.6], [0.25, 0.0, -0.25]], F32).reshape(1, 1, 1, 4, 3)
GRID_WANT = {
    ("bilinear", "zeros", False): [0.442991, 0.041156, -0.327952, 0.021192],
    ("bilinear", "zeros", True): [0.251562, 0.159492, -0.846707, 0.031354],
    ("bilinear", "border", False): [0.442991, 0.342965, -0.958924, 0.021192],
    ("bilinear", "border", True): [0.251562, 0.199365, -0.89127, 0.031354],
    ("bilinear", "reflection", False): [0.442991, 0.342965, -0.958924, 0.021192],
    ("bilinear", "reflection", True): [0.251562, 0.121812, -0.802252, 0.031354],
    ("nearest", "zeros", False): [0.656987, 0.0, 0.0, -0.756802],
    ("nearest", "zeros", True): [0.656987, 0.412118, -0.958924, -0.756802],
    ("nearest", "border", False): [0.656987, 0.412118, -0.958924, -0.756802],
    ("nearest", "reflection", True): [0.656987, 0.412118, -0.958924, -0.756802],
}


@pytest.mark.parametrize("mode,padding,align", list(GRID_WANT))
def test_grid_sampler_3d_matches_mindspore(mode, padding, align):
    out = ops.GridSampler3D(mode, padding, align)(Tensor(sin((1, 1, 2, 2, 3))), Tensor(GRID))
    assert out.shape == (1, 1, 1, 1, 4)
    close(out, GRID_WANT[mode, padding, align])


def test_grid_sampler_3d_gradients_and_errors():
    grid = np.random.default_rng(2).uniform(-0.9, 0.9, (2, 2, 1, 3, 3))
    for padding in ("zeros", "border"):
        check_grad(lambda x, g, p=padding: ops.GridSampler3D("bilinear", p)(x, g), sin((2, 2, 2, 3, 4), np.float64),
                   grid, rtol=1e-5, atol=1e-7)
    with pytest.raises(ValueError, match="'interpolation_mode' must be"):
        ops.GridSampler3D("bicubic")
    with pytest.raises(ValueError, match="'grid' must be \\(N, D_out, H_out, W_out, 3\\)"):
        ops.GridSampler3D()(Tensor(sin((1, 1, 2, 2, 3))), Tensor(np.zeros((1, 1, 1, 4, 2), F32)))
    with pytest.raises(TypeError, match="'grid' must have the dtype"):
        ops.GridSampler3D()(Tensor(sin((1, 1, 2, 2, 3))), Tensor(GRID.astype(np.float64)))


# ---- ExtractImagePatches ------------------------------------------------------------------------------

def numpy_patches(x, k, s, r, same):
    n, c, h, w = x.shape
    (kh, kw), (sh, sw), (rh, rw) = k, s, r
    eh, ew = (kh - 1) * rh + 1, (kw - 1) * rw + 1
    if same:
        oh, ow = -(-h // sh), -(-w // sw)
        ph, pw = max((oh - 1) * sh + eh - h, 0), max((ow - 1) * sw + ew - w, 0)
        x = np.pad(x, ((0, 0), (0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2)))
    else:
        oh, ow = (h - eh) // sh + 1, (w - ew) // sw + 1
    out = np.zeros((n, kh * kw * c, oh, ow), x.dtype)
    for i in range(kh):
        for j in range(kw):
            for ch in range(c):
                out[:, (i * kw + j) * c + ch] = x[:, ch, i * rh:i * rh + sh * oh:sh, j * rw:j * rw + sw * ow:sw]
    return out


@pytest.mark.parametrize("padding", ["VALID", "SAME"])
def test_extract_image_patches_matches_numpy(padding):
    x = np.arange(2 * 5 * 6, dtype=F32).reshape(1, 2, 5, 6)
    out = ops.ExtractImagePatches((1, 1, 2, 3), (1, 1, 2, 1), (1, 1, 1, 2), padding)(Tensor(x))
    close(out, numpy_patches(x, (2, 3), (2, 1), (1, 2), padding == "SAME"))
    with pytest.raises(ValueError, match="'ksizes' must be \\(1, 1, height, width\\)"):
        ops.ExtractImagePatches((2, 1, 2, 2), (1, 1, 1, 1), (1, 1, 1, 1))
    with pytest.raises(ValueError, match="'padding' must be 'VALID' or 'SAME'"):
        ops.ExtractImagePatches((1, 1, 2, 2), (1, 1, 1, 1), (1, 1, 1, 1), "FULL")


# ---- Conv3DTranspose / conv3d_transpose ---------------------------------------------------------------

def numpy_conv3d_transpose(x, w, stride, pads, group=1):
    n, cin, d, h, wd = x.shape
    k = w.shape[2:]
    cout = w.shape[1] * group
    full = [(s - 1) * st + kk for s, st, kk in zip((d, h, wd), stride, k)]
    out = np.zeros((n, cout) + tuple(full))
    per = cin // group
    for ci in range(cin):
        g = ci // per
        for co in range(w.shape[1]):
            for z, y, xx in np.ndindex(d, h, wd):
                out[:, g * w.shape[1] + co, z * stride[0]:z * stride[0] + k[0], y * stride[1]:y * stride[1] + k[1],
                    xx * stride[2]:xx * stride[2] + k[2]] += x[:, ci, z, y, xx][:, None, None, None] * w[ci, co]
    return out[:, :, pads[0]:full[0] - pads[1], pads[2]:full[1] - pads[3], pads[4]:full[2] - pads[5]]


def test_conv3d_transpose_matches_mindspore_and_numpy():
    d, w = sin((1, 2, 2, 2, 2)), np.cos(np.arange(8)).astype(F32).reshape(2, 1, 2, 1, 2)
    out = ops.Conv3DTranspose(2, 1, (2, 1, 2))(Tensor(d), Tensor(w))
    close(out, [-0.646688, 0.852736, 0.571551, 1.264893, 1.131734, -0.207412, 0.543877, -1.003264, -0.921276,
                -1.827674, -1.967265, -0.354169, -0.20026, 1.14719, 1.266093, 1.06743, 1.374425, -0.160158], atol=5e-6)
    same = ops.Conv3DTranspose(2, 1, (2, 1, 2), pad_mode="same", stride=2)(Tensor(d), Tensor(w))
    assert same.shape == (1, 1, 4, 4, 4)
    close(same[0, 0, :, 0], [-0.646688, 0.280644, 0.572092, 0.571551, 0.949952, 0.745879, 0.045528, -0.522353,
                             -0.406075, -0.561108, -1.233564, -0.398923, -0.20026, 0.344705, 0.802485, 1.266093],
          atol=5e-6)
    padded = ops.Conv3DTranspose(2, 1, (2, 1, 2), pad_mode="pad", pad=(1, 0, 0, 0, 0, 1), stride=2,
                                 output_padding=1)(Tensor(d), Tensor(w))
    assert padded.shape == (1, 1, 4, 4, 4)
    close(padded[0, 0, 0, 0], [0.949952, 0.745879, 0.045528, -0.522353], atol=5e-6)
    x, wg = sin((2, 4, 2, 3, 2)), np.cos(np.arange(4 * 1 * 2 * 2 * 3)).reshape(4, 1, 2, 2, 3).astype(F32)
    pads = (1, 0, 0, 1, 1, 1)
    got = ops.conv3d_transpose(Tensor(x), Tensor(wg), "pad", pads, (2, 1, 2), group=2)
    close(got, numpy_conv3d_transpose(x, wg, (2, 1, 2), pads, group=2), atol=1e-5)
    check_grad(lambda a, b: ops.Conv3DTranspose(4, 2, (2, 2, 3), stride=2, group=2)(a, b), x[:1].astype(np.float64),
               wg.astype(np.float64))


def test_conv3d_transpose_bad_arguments():
    d, w = Tensor(sin((1, 2, 2, 2, 2))), Tensor(np.ones((2, 1, 2, 1, 2), F32))
    with pytest.raises(ValueError, match="'output_padding' must be 0 when 'pad_mode' is not 'pad'"):
        ops.Conv3DTranspose(2, 1, 2, stride=2, output_padding=1)
    with pytest.raises(ValueError, match="'weight' must have shape"):
        ops.Conv3DTranspose(2, 1, (2, 2, 2))(d, w)
    with pytest.raises(ValueError, match="'bias' must be None"):
        ops.Conv3DTranspose(2, 1, (2, 1, 2))(d, w, w)
    with pytest.raises(ValueError, match="'padding' must be 0 unless pad_mode is 'pad'"):
        ops.conv3d_transpose(d, w, "valid", 1)
    with pytest.raises(ValueError, match="'pad_mode' must be"):
        ops.conv3d_transpose(d, w, "full")


# ---- LSTM ---------------------------------------------------------------------------------------------

def lstm_inputs(bidirectional):
    nd = 2 if bidirectional else 1
    n = nd * 4 * 2 * (2 + 2 + 2)
    return (sin((2, 1, 2)), np.full((nd, 1, 2), 0.1, F32), np.full((nd, 1, 2), -0.2, F32),
            (0.5 * np.cos(np.arange(n))).astype(F32).reshape(n, 1, 1))


LSTM_WANT = {
    False: ([-0.208934, 0.032284, -0.18755, 0.003856], [-0.18755, 0.003856], [-0.261402, 0.007206]),
    True: ([-0.155254, 0.014782, 0.085777, -0.029757, 0.00887, 0.037003, 0.018966, 0.008523],
           [0.00887, 0.037003, 0.085777, -0.029757], [0.013317, 0.078875, 0.274763, -0.061194]),
}


@pytest.mark.parametrize("bidirectional", [False, True])
def test_lstm_matches_mindspore(bidirectional):
    out = ops.LSTM(2, 2, 1, True, bidirectional, 0.0)(*(Tensor(a) for a in lstm_inputs(bidirectional)))
    assert len(out) == 5 and out[0].shape == (2, 1, 4 if bidirectional else 2)
    for got, want in zip(out[:3], LSTM_WANT[bidirectional]):
        close(got, want)


def test_lstm_documented_example_two_layers_gradients_and_errors():
    net = ops.LSTM(10, 2, 1, True, False, 0.0)
    ones = lambda *shape: Tensor(np.ones(shape, F32))  # noqa: E731
    output = net(ones(5, 2, 10), ones(1, 2, 2), ones(1, 2, 2), ones(112, 1, 1))[0]
    close(output[:, 0, 0], [0.9640267, 0.9950539, 0.99932843, 0.9999084, 0.9999869])
    # Two bidirectional layers: the second reads the first's concatenated outputs; 2 * 4H (in + H + 2) each.
    size = 2 * 4 * 3 * (4 + 3 + 2) + 2 * 4 * 3 * (6 + 3 + 2)
    x, h, c = sin((3, 2, 4)), np.zeros((4, 2, 3), F32), np.zeros((4, 2, 3), F32)
    w = (0.3 * np.cos(np.arange(size))).astype(F32).reshape(size, 1, 1)
    y, h_n, c_n, _, _ = ops.LSTM(4, 3, 2, True, True, 0.0)(Tensor(x), Tensor(h), Tensor(c), Tensor(w))
    assert y.shape == (3, 2, 6) and h_n.shape == c_n.shape == (4, 2, 3)
    np.testing.assert_allclose(h_n.asnumpy()[2], y.asnumpy()[-1, :, :3], rtol=1e-6)
    np.testing.assert_allclose(h_n.asnumpy()[3], y.asnumpy()[0, :, 3:], rtol=1e-6)
    x, h, c, w = lstm_inputs(True)
    check_grad(lambda a, b: ops.LSTM(2, 2, 1, True, True, 0.0)(a, Tensor(h, ms.float64), Tensor(c, ms.float64),
                                                               b)[0],
               x.astype(np.float64), w.astype(np.float64), rtol=1e-5, atol=1e-7)
    with pytest.raises(ValueError, match="'w' must hold 96 elements"):
        ops.LSTM(2, 2, 1, True, True, 0.0)(Tensor(x), Tensor(h), Tensor(c), Tensor(w[:90]))
    with pytest.raises(TypeError, match="'dropout' must be a float"):
        ops.LSTM(2, 2, 1, True, True, 0)
    with pytest.raises(ValueError, match="'proj_size' > 0"):
        ops.LSTM(2, 2, 1, True, True, 0.0, proj_size=1)
    with pytest.raises(ValueError, match="'h' must have shape"):
        ops.LSTM(2, 2, 1, True, True, 0.0)(Tensor(x), Tensor(h[:1]), Tensor(c), Tensor(w))


# ---- compiled once per family -------------------------------------------------------------------------

def test_each_family_compiled_matches_eager():
    image, boxes = Tensor(CROP_IMAGE), Tensor(CROP_BOXES)
    index = Tensor(np.array([0, 0], np.int32))
    x5, grid = Tensor(sin((1, 1, 2, 2, 3))), Tensor(GRID)
    lstm_args = tuple(Tensor(a) for a in lstm_inputs(True))
    cases = [
        (lambda a: ops.Col2Im(2)(ops.Im2Col(2)(a), (3, 4)), (Tensor(sin((1, 2, 3, 4))),)),
        (lambda i, b: ops.crop_and_resize(i, b, index, (2, 3), "bilinear", 0.5), (image, boxes)),
        (lambda f, r: ops.ROIAlign(2, 2, 0.5, 2)(f, r), (Tensor(ROI_FEATURES), Tensor(ROIS))),
        (lambda b: ops.NMSWithMask(0.4)(b)[2], (Tensor(np.array([[0, 0, 4, 4, .5], [1, 1, 5, 5, .9]], F32)),)),
        (lambda a: ops.ResizeBicubic()(a, (3, 4)) + ops.ResizeNearestNeighborV2()(a, (3, 4)), (Tensor(sin((1, 1, 2, 3))),)),
        (lambda a: ops.UpsampleTrilinear3D()(a, [3, 2, 3], None) + ops.UpsampleNearest3D()(a, [3, 2, 3], None), (x5,)),
        (lambda a, g: ops.GridSampler3D("bilinear", "reflection", True)(a, g), (x5, grid)),
        (lambda a: ops.ExtractImagePatches((1, 1, 2, 2), (1, 1, 1, 1), (1, 1, 1, 1), "SAME")(a),
         (Tensor(sin((1, 2, 3, 3))),)),
        (lambda a, b: ops.conv3d_transpose(a, b, stride=2), (Tensor(sin((1, 2, 2, 2, 2))),
                                                             Tensor(np.ones((2, 1, 2, 1, 2), F32)))),
        (lambda *a: ops.LSTM(2, 2, 1, True, True, 0.0)(*a)[0], lstm_args),
    ]
    for fn, args in cases:
        eager = fn(*args).asnumpy()
        compiled = ms.jit(fn)(*args).asnumpy()
        np.testing.assert_allclose(compiled, eager, rtol=1e-6, atol=1e-6)
