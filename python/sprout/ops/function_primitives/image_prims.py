"""Image-layout and bounding-box Primitive classes (``ops.SpaceToDepth()``, ``ops.DepthToSpace()``,
``ops.SpaceToBatchND()``, ``ops.MirrorPad()``, ``ops.IOU()``, ``ops.BoundingBoxEncode()``,
``ops.BoundingBoxDecode()``), each carried out by functional ops."""
from sprout.ops.function import array_func as _array
from sprout.ops.function import nn_box_func as _box
from sprout.ops.function import nn_space_batch_func as _space
from sprout.ops.primitive import Primitive, prim_attr_register

__all__ = ["SpaceToDepth", "DepthToSpace", "SpaceToBatchND", "MirrorPad", "IOU", "BoundingBoxEncode",
           "BoundingBoxDecode"]


def _block(name, block_size):
    if isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 2:
        raise ValueError(f"{name}: 'block_size' must be an int >= 2, but got {block_size!r}")


def _nchw(name, x):
    _array._tensor(x, name, "x")
    if x.ndim != 4:
        raise ValueError(f"{name}: 'x' must be 4-d (N, C, H, W), but got shape {x.shape}")


class SpaceToDepth(Primitive):
    """``SpaceToDepth(block_size)(x)``: (N, C, H, W) -> (N, C * b * b, H / b, W / b); output channel
    (i * b + j) * C + c holds cell (i, j) of each b x b block of channel c."""

    @prim_attr_register
    def __init__(self, block_size):
        _block("SpaceToDepth", block_size)
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, x):
        _nchw("SpaceToDepth", x)
        n, c, h, w = x.shape
        b = self.block_size
        if h % b or w % b:
            raise ValueError(f"SpaceToDepth: height and width {(h, w)} must be divisible by block_size {b}")
        y = _array.transpose(_array.reshape(x, (n, c, h // b, b, w // b, b)), (0, 3, 5, 1, 2, 4))
        return _array.reshape(y, (n, b * b * c, h // b, w // b))


class DepthToSpace(Primitive):
    """``DepthToSpace(block_size)(x)``: SpaceToDepth's inverse, (N, C * b * b, H, W) -> (N, C, H * b, W * b)."""

    @prim_attr_register
    def __init__(self, block_size):
        _block("DepthToSpace", block_size)
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, x):
        _nchw("DepthToSpace", x)
        n, cbb, h, w = x.shape
        b = self.block_size
        if cbb % (b * b):
            raise ValueError(f"DepthToSpace: the channels {cbb} must be divisible by block_size squared {b * b}")
        c = cbb // (b * b)
        y = _array.transpose(_array.reshape(x, (n, b, b, c, h, w)), (0, 3, 4, 1, 5, 2))
        return _array.reshape(y, (n, c, h * b, w * b))


class SpaceToBatchND(Primitive):
    """``SpaceToBatchND(block_shape, paddings)(input_x)``: ops.space_to_batch_nd."""

    @prim_attr_register
    def __init__(self, block_shape, paddings):
        self.init_prim_io_names(["input_x"], ["output"])

    def __call__(self, input_x):
        return _space.space_to_batch_nd(input_x, self.block_shape, self.paddings)


class MirrorPad(Primitive):
    """``MirrorPad(mode='REFLECT')(x, paddings)``: ops.mirror_pad."""

    @prim_attr_register
    def __init__(self, mode="REFLECT"):
        if mode not in ("REFLECT", "SYMMETRIC"):
            raise ValueError(f"MirrorPad: 'mode' must be 'REFLECT' or 'SYMMETRIC', but got {mode!r}")
        self.init_prim_io_names(["x", "paddings"], ["y"])

    def __call__(self, x, paddings):
        return _space.mirror_pad(x, paddings, self.mode)


class IOU(Primitive):
    """``IOU(mode='iou')(anchor_boxes, gt_boxes)``: ops.iou."""

    @prim_attr_register
    def __init__(self, mode="iou"):
        if mode not in ("iou", "iof"):
            raise KeyError(f"IOU: 'mode' must be 'iou' or 'iof', but got {mode!r}")
        self.init_prim_io_names(["anchor_boxes", "gt_boxes"], ["overlap"])

    def __call__(self, anchor_boxes, gt_boxes):
        return _box.iou(anchor_boxes, gt_boxes, self.mode)


class BoundingBoxEncode(Primitive):
    """``BoundingBoxEncode(means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0))(anchor_box,
    groundtruth_box)``: ops.bounding_box_encode."""

    @prim_attr_register
    def __init__(self, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)):
        _box._four("BoundingBoxEncode", "means", means)
        _box._four("BoundingBoxEncode", "stds", stds)
        self.init_prim_io_names(["anchor_box", "groundtruth_box"], ["output"])

    def __call__(self, anchor_box, groundtruth_box):
        return _box.bounding_box_encode(anchor_box, groundtruth_box, self.means, self.stds)


class BoundingBoxDecode(Primitive):
    """``BoundingBoxDecode(max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0),
    wh_ratio_clip=0.016)(anchor_box, deltas)``: ops.bounding_box_decode."""

    @prim_attr_register
    def __init__(self, max_shape, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0), wh_ratio_clip=0.016):
        _box._four("BoundingBoxDecode", "means", means)
        _box._four("BoundingBoxDecode", "stds", stds)
        self.init_prim_io_names(["anchor_box", "deltas"], ["bboxes"])

    def __call__(self, anchor_box, deltas):
        return _box.bounding_box_decode(anchor_box, deltas, self.max_shape, self.means, self.stds, self.wh_ratio_clip)
