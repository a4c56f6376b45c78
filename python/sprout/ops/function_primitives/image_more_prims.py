"""MindSpore's image and sampling Primitive classes carried out by functional ops: Im2Col, Col2Im,
CropAndResize, ROIAlign, NMSWithMask, ResizeNearestNeighborV2, ResizeBicubic, UpsampleNearest3D,
UpsampleTrilinear3D, GridSampler3D and ExtractImagePatches."""
from sprout.ops.function import nn_image_more_func as _image
from sprout.ops.function import nn_resize_more_func as _resize
from sprout.ops.function_primitives._attr_checks import check_bool, check_float, check_int
from sprout.ops.primitive import Primitive, prim_attr_register

__all__ = ["Im2Col", "Col2Im", "CropAndResize", "ROIAlign", "NMSWithMask", "ResizeNearestNeighborV2", "ResizeBicubic",
           "UpsampleNearest3D", "UpsampleTrilinear3D", "GridSampler3D", "ExtractImagePatches"]


def _window_arg(api, arg, value, minimum, lengths=(1, 2)):
    """An int or a tuple/list of 1 or 2 ints >= minimum, as (height, width)."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,)
    if not (isinstance(value, (tuple, list)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise TypeError(f"{api}: '{arg}' must be an int or a tuple or list of ints, but got {value!r}")
    if len(value) not in lengths or min(value) < minimum:
        raise ValueError(f"{api}: '{arg}' must be {' or '.join(map(str, lengths))} ints >= {minimum}, but got "
                         f"{value!r}")
    return tuple(value) * 2 if len(value) == 1 else tuple(value)


class Im2Col(Primitive):
    """``Im2Col(ksizes, strides=1, dilations=1, pads=0)(x)``: (N, C, H, W) -> (N, C, kh * kw, L), each
    column of the last axis one sliding block (ops.unfold with the kernel's elements on their own axis)."""

    @prim_attr_register
    def __init__(self, ksizes, strides=1, dilations=1, pads=0):
        self._window = (_window_arg("Im2Col", "ksizes", ksizes, 1), _window_arg("Im2Col", "dilations", dilations, 1),
                        _window_arg("Im2Col", "pads", pads, 0), _window_arg("Im2Col", "strides", strides, 1))
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, x):
        return _image.im2col(x, *self._window)


class Col2Im(Primitive):
    """``Col2Im(kernel_size, dilation=1, padding=0, stride=1)(x, output_size)``: (N, C, kh * kw, L) blocks
    summed into (N, C, output_size[0], output_size[1]) (ops.col2im)."""

    @prim_attr_register
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        self._window = (_window_arg("Col2Im", "kernel_size", kernel_size, 1),
                        _window_arg("Col2Im", "dilation", dilation, 1), _window_arg("Col2Im", "padding", padding, 0),
                        _window_arg("Col2Im", "stride", stride, 1))
        self.init_prim_io_names(["x", "output_size"], ["y"])

    def __call__(self, x, output_size):
        return _image.col2im(x, output_size, *self._window)


class CropAndResize(Primitive):
    """``CropAndResize(method='bilinear', extrapolation_value=0.0)(x, boxes, box_index, crop_size)``:
    ops.crop_and_resize."""

    @prim_attr_register
    def __init__(self, method="bilinear", extrapolation_value=0.0):
        if not isinstance(method, str):
            raise TypeError(f"CropAndResize: 'method' must be a str, but got {type(method).__name__}")
        if method not in ("bilinear", "nearest", "bilinear_v2"):
            raise ValueError(f"CropAndResize: 'method' must be 'bilinear', 'nearest' or 'bilinear_v2', but got "
                             f"{method!r}")
        check_float("CropAndResize", "extrapolation_value", extrapolation_value)
        self.init_prim_io_names(["x", "boxes", "box_index", "crop_size"], ["y"])

    def __call__(self, x, boxes, box_index, crop_size):
        return _image.crop_and_resize(x, boxes, box_index, crop_size, self.method, self.extrapolation_value)


class ROIAlign(Primitive):
    """``ROIAlign(pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1)(features, rois)``:
    (rois_n, C, pooled_height, pooled_width), each bin the mean of sample_num x sample_num bilinear samples
    of its region (rois rows: image index, x1, y1, x2, y2, scaled by spatial_scale; roi_end_mode 1 moves the
    ends by one pixel, 0 is the legacy mode that makes regions at least 1 x 1)."""

    @prim_attr_register
    def __init__(self, pooled_height, pooled_width, spatial_scale, sample_num=2, roi_end_mode=1):
        check_int("ROIAlign", "pooled_height", pooled_height, 1)
        check_int("ROIAlign", "pooled_width", pooled_width, 1)
        check_float("ROIAlign", "spatial_scale", spatial_scale)
        check_int("ROIAlign", "sample_num", sample_num)
        check_int("ROIAlign", "roi_end_mode", roi_end_mode)
        if roi_end_mode not in (0, 1):
            raise ValueError(f"ROIAlign: 'roi_end_mode' must be 0 or 1, but got {roi_end_mode}")
        self.init_prim_io_names(["features", "rois"], ["output"])

    def __call__(self, features, rois):
        return _image.roi_align(features, rois, self.pooled_height, self.pooled_width, float(self.spatial_scale),
                                self.sample_num, self.roi_end_mode)


class NMSWithMask(Primitive):
    """``NMSWithMask(iou_threshold=0.5)(bboxes)``: (output_boxes, output_idx, selected_mask) for bboxes
    (N, 5) = (x0, y0, x1, y1, score): the boxes sorted by score (largest first), their positions in that
    list, and which of them non-maximum suppression keeps."""

    @prim_attr_register
    def __init__(self, iou_threshold=0.5):
        if isinstance(iou_threshold, bool) or not isinstance(iou_threshold, (int, float)):
            raise ValueError(f"NMSWithMask: 'iou_threshold' must be a float, but got {iou_threshold!r}")
        self.init_prim_io_names(["bboxes"], ["selected_boxes", "selected_idx", "selected_mask"])

    def __call__(self, bboxes):
        return _image.nms_with_mask(bboxes, float(self.iou_threshold))


class ResizeNearestNeighborV2(Primitive):
    """``ResizeNearestNeighborV2(align_corners=False, half_pixel_centers=False)(x, size)``: (N, C, H, W) ->
    (N, C, size[0], size[1]) by TensorFlow's nearest-neighbour rule."""

    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        _resize._corner_flags("ResizeNearestNeighborV2", align_corners, half_pixel_centers)
        self.init_prim_io_names(["x", "size"], ["y"])

    def __call__(self, x, size):
        return _resize.resize_nearest_neighbor_v2(x, size, self.align_corners, self.half_pixel_centers)


class ResizeBicubic(Primitive):
    """``ResizeBicubic(align_corners=False, half_pixel_centers=False)(images, size)``: (N, C, H, W) ->
    (N, C, size[0], size[1]) by TensorFlow's bicubic interpolation."""

    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        _resize._corner_flags("ResizeBicubic", align_corners, half_pixel_centers)
        self.init_prim_io_names(["images", "size"], ["y"])

    def __call__(self, images, size):
        return _resize.resize_bicubic(images, size, self.align_corners, self.half_pixel_centers)


class UpsampleNearest3D(Primitive):
    """``UpsampleNearest3D()(x, output_size=None, scales=None)``: (N, C, D, H, W) resized by nearest
    neighbour to output_size or by the factors scales (exactly one of them)."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "output_size", "scales"], ["y"])

    def __call__(self, x, output_size=None, scales=None):
        return _resize.upsample_nearest3d(x, output_size, scales)


class UpsampleTrilinear3D(Primitive):
    """``UpsampleTrilinear3D(align_corners=False)(x, output_size=None, scales=None)``: (N, C, D, H, W)
    resized by trilinear interpolation to output_size or by the factors scales (exactly one of them)."""

    @prim_attr_register
    def __init__(self, align_corners=False):
        check_bool("UpsampleTrilinear3D", "align_corners", align_corners)
        self.init_prim_io_names(["x", "output_size", "scales"], ["y"])

    def __call__(self, x, output_size=None, scales=None):
        return _resize.upsample_trilinear3d(x, output_size, scales, self.align_corners)


class GridSampler3D(Primitive):
    """``GridSampler3D(interpolation_mode='bilinear', padding_mode='zeros', align_corners=False)(input_x,
    grid)``: ops.grid_sample on volumes, (N, C, D, H, W) at (N, Do, Ho, Wo, 3) -> (N, C, Do, Ho, Wo)."""

    @prim_attr_register
    def __init__(self, interpolation_mode="bilinear", padding_mode="zeros", align_corners=False):
        if interpolation_mode not in ("bilinear", "nearest"):
            raise ValueError(f"GridSampler3D: 'interpolation_mode' must be 'bilinear' or 'nearest', but got "
                             f"{interpolation_mode!r}")
        if padding_mode not in ("zeros", "border", "reflection"):
            raise ValueError(f"GridSampler3D: 'padding_mode' must be 'zeros', 'border' or 'reflection', but got "
                             f"{padding_mode!r}")
        check_bool("GridSampler3D", "align_corners", align_corners)
        self.init_prim_io_names(["input_x", "grid"], ["output"])

    def __call__(self, input_x, grid):
        return _resize.grid_sample_3d(input_x, grid, self.interpolation_mode, self.padding_mode, self.align_corners)


def _nchw_window(api, arg, value):
    """ksizes, strides or rates: (1, 1, h, w), or (h, w); ints >= 1."""
    if not (isinstance(value, (tuple, list)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise TypeError(f"{api}: '{arg}' must be a tuple or list of ints, but got {value!r}")
    if len(value) == 2:
        value = (1, 1) + tuple(value)
    if len(value) != 4 or value[0] != 1 or value[1] != 1 or min(value) < 1:
        raise ValueError(f"{api}: '{arg}' must be (1, 1, height, width) with positive height and width, but got "
                         f"{value!r}")
    return tuple(value)


class ExtractImagePatches(Primitive):
    """``ExtractImagePatches(ksizes, strides, rates, padding='VALID')(input_x)``: (N, C, H, W) ->
    (N, kh * kw * C, out_h, out_w), each output position's patch along the channels in TensorFlow's order
    (patch row, patch column, channel); ksizes, strides and rates are (1, 1, h, w)."""

    @prim_attr_register
    def __init__(self, ksizes, strides, rates, padding="VALID"):
        api = "ExtractImagePatches"
        self._args = tuple(_nchw_window(api, name, v) for name, v in (("ksizes", ksizes), ("strides", strides),
                                                                      ("rates", rates)))
        if not isinstance(padding, str) or padding.upper() not in ("VALID", "SAME"):
            raise ValueError(f"{api}: 'padding' must be 'VALID' or 'SAME', but got {padding!r}")
        self.init_prim_io_names(["input_x"], ["y"])

    def __call__(self, input_x):
        return _image.extract_image_patches(input_x, *self._args, self.padding.upper())

