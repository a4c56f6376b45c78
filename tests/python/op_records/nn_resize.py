"""Records of the resize ops and their gradients (Note [Resize coordinates] in src/ops/nn_resize.h)."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import OpRecord

DTYPES = (ms.float16, ms.bfloat16, ms.float32, ms.float64)
TOL = {ms.float16: (2e-3, 4e-3), ms.float32: (1e-5, 1e-5)}


def _scale(n_in, n_out, align):
    return (n_in - 1) / (n_out - 1) if align and n_out > 1 else n_in / n_out


def _linear_matrix(n_in, n_out, align, half):
    """(n_out, n_in) interpolation weights of one axis."""
    src = np.arange(n_out, dtype=np.float64)
    scale = _scale(n_in, n_out, align)
    src = (src + 0.5) * scale - 0.5 if half else src * scale
    lo_f = np.floor(src)
    lo = np.clip(lo_f, 0, n_in - 1).astype(int)
    hi = np.minimum(np.ceil(src), n_in - 1).astype(int)
    m = np.zeros((n_out, n_in))
    np.add.at(m, (np.arange(n_out), lo), 1 - (src - lo_f))
    np.add.at(m, (np.arange(n_out), hi), src - lo_f)
    return m


def _nearest_matrix(n_in, n_out, align):
    src = np.arange(n_out) * _scale(n_in, n_out, align)
    idx = np.minimum(np.round(src) if align else np.floor(src), n_in - 1).astype(int)
    m = np.zeros((n_out, n_in))
    m[np.arange(n_out), idx] = 1
    return m


def _apply(x, my, mx):
    """Applies per-axis matrices to the image axes: y = My @ x @ Mx^T."""
    return np.einsum("oh,nchw,pw->ncop", my, x, mx)


def _bilinear_records(size, align, half, shapes):
    attrs = dict(align_corners=align, half_pixel_centers=half)
    mats = lambda s: (_linear_matrix(s[2], size[0], align, half), _linear_matrix(s[3], size[1], align, half))  # noqa
    grad_shapes = [((s[0], s[1]) + tuple(size), s) for s in shapes]
    return [
        OpRecord("ResizeBilinearV2", lambda x: ops.ResizeBilinearV2(**attrs)(x, size), lambda x: _apply(x, *mats(x.shape)),
                 [(s,) for s in shapes], DTYPES, tol=TOL, prim=lambda: _C.Primitive("ResizeBilinearV2", {**attrs, "size": size}),
                 grad_shapes=[(shapes[0],)], bad=BILINEAR_BAD),
        OpRecord("ResizeBilinearGrad", lambda g, img: ops.ResizeBilinearGrad(**attrs)(g, img),
                 lambda g, img: _apply(g, *[m.T for m in mats(img.shape)]), grad_shapes, DTYPES, tol=TOL,
                 prim=lambda: _C.Primitive("ResizeBilinearGrad", attrs), grad_shapes=grad_shapes[:1]),
    ]


def _nearest_records(size, align, shapes):
    mats = lambda s: (_nearest_matrix(s[2], size[0], align), _nearest_matrix(s[3], size[1], align))  # noqa
    grad_prim = lambda s: lambda: _C.Primitive("ResizeNearestNeighborGrad", {"align_corners": align, "size": s[2:]})  # noqa
    return [
        OpRecord("ResizeNearestNeighbor", lambda x: ops.ResizeNearestNeighbor(size, align)(x),
                 lambda x: _apply(x, *mats(x.shape)), [(s,) for s in shapes], DTYPES, exact=True,
                 prim=lambda: _C.Primitive("ResizeNearestNeighbor", {"size": size, "align_corners": align}),
                 grad_shapes=[(shapes[0],)], bad=NEAREST_BAD),
        OpRecord("ResizeNearestNeighborGrad",
                 lambda g: ops.ResizeNearestNeighborGrad(align)(g, shapes[0][2:]),
                 lambda g: _apply(g, *[m.T for m in mats(shapes[0])]), [((shapes[0][0], shapes[0][1]) + tuple(size),)],
                 DTYPES, tol=TOL, prim=grad_prim(shapes[0])),
    ]


def _t(*shape, dtype=ms.float32):
    return ms.Tensor(np.ones(shape), dtype)


BILINEAR_BAD = [
    (lambda: ops.ResizeBilinearV2(True, True)(_t(1, 1, 4, 4), (2, 2)), ValueError,
     "ResizeBilinearV2: 'align_corners' and 'half_pixel_centers' cannot both be True"),
    (lambda: ops.ResizeBilinearV2()(_t(1, 4, 4), (2, 2)), ValueError, r"ResizeBilinearV2: 'x' must be 4-d \(N, C, H, W\)"),
    (lambda: ops.ResizeBilinearV2()(_t(1, 1, 4, 4), (0, 2)), ValueError, "'size' must be 2 positive ints"),
    (lambda: ops.ResizeBilinearV2()(_t(1, 1, 0, 4), (2, 2)), ValueError, "has an empty image"),
    (lambda: ops.interpolate(_t(1, 1, 4, 4), size=2, mode="bicubic"), ValueError, "interpolate: 'mode' must be"),
    (lambda: ops.interpolate(_t(1, 1, 4, 4)), ValueError, "exactly one of 'size' and 'scale_factor'"),
    (lambda: ops.interpolate(_t(1, 1, 2, 2), scale_factor=0.3), ValueError, "the output would be empty"),
]
NEAREST_BAD = [
    (lambda: ops.ResizeNearestNeighbor((2, 3, 4))(_t(1, 1, 4, 4)), ValueError, "ResizeNearestNeighbor: 'size' must be 2"),
    (lambda: ops.ResizeNearestNeighbor((2, 2))(_t(1, 1, 4, 4, dtype=ms.int32)), TypeError,
     "ResizeNearestNeighbor: 'input_x' must have dtype in"),
]

# The functional form: bilinear without align_corners samples at pixel centers; nearest floors.
FUNCTIONAL = [
    OpRecord("ResizeBilinearV2", lambda x: ops.interpolate(x, scale_factor=2, mode="bilinear"),
             lambda x: _apply(x, _linear_matrix(x.shape[2], 2 * x.shape[2], False, True),
                              _linear_matrix(x.shape[3], 2 * x.shape[3], False, True)),
             [((2, 3, 4, 5),)], DTYPES, tol=TOL,
             prim=lambda: _C.Primitive("ResizeBilinearV2", {"half_pixel_centers": True, "size": (8, 10)})),
    OpRecord("ResizeBilinearV2", lambda x: ops.interpolate(x, size=(5, 3), mode="bilinear", align_corners=True),
             lambda x: _apply(x, _linear_matrix(x.shape[2], 5, True, False), _linear_matrix(x.shape[3], 3, True, False)),
             [((1, 2, 3, 6),)], DTYPES, tol=TOL,
             prim=lambda: _C.Primitive("ResizeBilinearV2", {"align_corners": True, "size": (5, 3)})),
    OpRecord("ResizeNearestNeighbor", lambda x: ops.interpolate(x, size=(7, 2)),
             lambda x: _apply(x, _nearest_matrix(x.shape[2], 7, False), _nearest_matrix(x.shape[3], 2, False)),
             [((2, 1, 3, 5),)], DTYPES, exact=True, prim=lambda: _C.Primitive("ResizeNearestNeighbor", {"size": (7, 2)})),
]

RECORDS = (FUNCTIONAL
           + _bilinear_records((5, 7), False, False, [(2, 3, 3, 4), (1, 1, 1, 1), (0, 2, 3, 3)])
           + _bilinear_records((3, 2), True, False, [(1, 2, 6, 5)])
           + _bilinear_records((6, 9), False, True, [(2, 1, 4, 3)])
           + _bilinear_records((1, 1), True, False, [(1, 2, 3, 3)])
           + _nearest_records((5, 7), False, [(2, 3, 3, 4), (1, 1, 1, 1)])
           + _nearest_records((2, 3), True, [(1, 2, 5, 5)]))
