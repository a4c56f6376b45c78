"""Distances between the surfaces of two segmentation masks (``mindspore.train`` HausdorffDistance,
MeanSurfaceDistance, RootMeanSquareDistance).

A mask's surface is the mask minus its binary erosion by the cross-shaped structure (out-of-bounds counts as
background), as scipy.ndimage computes it for MindSpore; the distance of a surface point to the other surface
is to its nearest point, measured exactly by brute force over the points (what scipy's distance transforms
give on a grid, without the dependency): euclidean, chessboard (Chebyshev) or taxicab (Manhattan).
"""
import numpy as np

from sprout.train.metrics.metric import Metric, _to_numpy
from sprout.train.metrics.rearrange import rearrange_inputs

_METRICS = ("euclidean", "chessboard", "taxicab")
_BLOCK = 1024  # surface points per block of the pairwise distances (bounds the temporary memory)


def _erode(mask):
    """Binary erosion by the cross of connectivity 1, the border treated as background."""
    padded = np.pad(mask, 1, constant_values=False)
    out = mask.copy()
    centre = tuple(slice(1, -1) for _ in range(mask.ndim))
    for axis in range(mask.ndim):
        for shift in (-1, 1):
            window = list(centre)
            window[axis] = slice(1 + shift, padded.shape[axis] - 1 + shift)
            out &= padded[tuple(window)]
    return out


def _surface(mask):
    return _erode(mask) ^ mask


def _surface_distances(from_edges, to_edges, metric):
    """For each surface point of from_edges, its distance to the nearest point of to_edges (inf if none)."""
    points = np.argwhere(from_edges)
    if points.shape[0] == 0:
        return np.array([])
    targets = np.argwhere(to_edges)
    if targets.shape[0] == 0:
        return np.full(points.shape[0], np.inf)
    out = np.empty(points.shape[0])
    for start in range(0, points.shape[0], _BLOCK):
        diff = np.abs(points[start:start + _BLOCK, None, :] - targets[None, :, :]).astype(np.float64)
        if metric == "euclidean":
            d = np.sqrt((diff * diff).sum(-1))
        elif metric == "chessboard":
            d = diff.max(-1)
        else:
            d = diff.sum(-1)
        out[start:start + _BLOCK] = d.min(axis=1)
    return out


def _check_metric(api, distance_metric):
    if not isinstance(distance_metric, str) or distance_metric not in _METRICS:
        raise ValueError(f"{api}: 'distance_metric' must be one of {', '.join(_METRICS)}, but got {distance_metric!r}")
    return distance_metric


def _check_bool(api, name, value):
    if not isinstance(value, bool):
        raise TypeError(f"{api}: '{name}' must be a bool, but got {type(value).__name__}")
    return value


def _masks(api, inputs):
    """(y_pred == label, y == label) from update's (y_pred, y, label_idx), checked as MindSpore checks them."""
    if len(inputs) != 3:
        raise ValueError(f"{api}.update: expects (y_pred, y, label_idx), but got {len(inputs)} inputs")
    y_pred, y = _to_numpy(inputs[0], api, "y_pred"), _to_numpy(inputs[1], api, "y")
    label_idx = inputs[2]
    if isinstance(label_idx, bool) or not isinstance(label_idx, (int, float)):
        raise TypeError(f"{api}.update: the label index must be an int or float, but got {type(label_idx).__name__}")
    if y_pred.size == 0 or y_pred.shape != y.shape:
        raise ValueError(f"{api}.update: y_pred and y must be non-empty and of one shape, but got {y_pred.shape} and "
                         f"{y.shape}")
    if label_idx not in y_pred and label_idx not in y:
        raise ValueError(f"{api}.update: the label index {label_idx} appears in neither y_pred nor y")
    return (y_pred if y_pred.dtype == bool else y_pred == label_idx), (y if y.dtype == bool else y == label_idx)


class HausdorffDistance(Metric):
    """The Hausdorff distance between the surfaces of y_pred == label and y == label: the largest distance
    from a point of one surface to the other (the `percentile`-th instead, when given), the maximum of both
    directions unless directed. With crop, both masks are first cut to the bounding box of their union."""

    def __init__(self, distance_metric="euclidean", percentile=None, directed=False, crop=True):
        self.distance_metric = _check_metric("HausdorffDistance", distance_metric)
        if percentile is not None and (isinstance(percentile, bool) or not isinstance(percentile, float)):
            raise TypeError(f"HausdorffDistance: 'percentile' must be a float or None, but got "
                            f"{type(percentile).__name__}")
        if percentile is not None and not 0 <= percentile <= 100:
            raise ValueError(f"HausdorffDistance: 'percentile' must be in [0, 100], but got {percentile}")
        self.percentile = percentile
        self.directed = _check_bool("HausdorffDistance", "directed", directed)
        self.crop = _check_bool("HausdorffDistance", "crop", crop)
        super().__init__()

    def clear(self):
        self.y_pred_edges, self.y_edges, self._is_update = 0, 0, False

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = _masks("HausdorffDistance", inputs)
        if self.crop:
            union = y_pred | y
            if not union.any():
                self.y_pred_edges, self.y_edges = np.zeros_like(y_pred), np.zeros_like(y)
                self._is_update = True
                return
            nonzero = np.nonzero(union)
            box = tuple(slice(int(idx.min()), int(idx.max()) + 1) for idx in nonzero)
            # np.squeeze as MindSpore: a box one element thick loses that axis before the erosion.
            y_pred, y = np.squeeze(y_pred[box]), np.squeeze(y[box])
        self.y_pred_edges, self.y_edges = _surface(y_pred), _surface(y)
        self._is_update = True

    def _directed(self, from_edges, to_edges):
        d = _surface_distances(from_edges, to_edges, self.distance_metric)
        if d.shape == (0,):
            return np.inf
        if not self.percentile:  # None (or 0, as in MindSpore): the maximum
            return d.max()
        return np.percentile(d, self.percentile)

    def eval(self):
        if not self._is_update:
            raise RuntimeError("HausdorffDistance.eval: call update() before eval()")
        hd = self._directed(self.y_pred_edges, self.y_edges)
        if self.directed:
            return hd
        return max(hd, self._directed(self.y_edges, self.y_pred_edges))


class _SurfaceMetric(Metric):
    def __init__(self, symmetric=False, distance_metric="euclidean"):
        api = type(self).__name__
        self.distance_metric = _check_metric(api, distance_metric)
        self.symmetric = _check_bool(api, "symmetric", symmetric)
        super().__init__()

    def clear(self):
        self._y_pred_edges, self._y_edges, self._is_update = 0, 0, False

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = _masks(type(self).__name__, inputs)
        self._y_pred_edges, self._y_edges = _surface(y_pred), _surface(y)
        self._is_update = True

    def _both_directions(self):
        if not self._is_update:
            raise RuntimeError(f"{type(self).__name__}.eval: call update() before eval()")
        forward = _surface_distances(self._y_pred_edges, self._y_edges, self.distance_metric)
        if not self.symmetric or forward.shape == (0,):
            return forward, None
        return forward, _surface_distances(self._y_edges, self._y_pred_edges, self.distance_metric)


class MeanSurfaceDistance(_SurfaceMetric):
    """The mean distance from the surface of y_pred == label to that of y == label (symmetric: the mean of
    both directions' means); inf when a surface is empty."""

    def eval(self):
        forward, backward = self._both_directions()
        if forward.shape == (0,):
            return np.inf
        if not self.symmetric:
            return forward.mean()
        if backward.shape == (0,):
            return np.inf
        return np.mean((forward.mean(), backward.mean()))


class RootMeanSquareDistance(_SurfaceMetric):
    """The mean squared surface distance from y_pred to y; symmetric: the root of the mean of both directions'
    mean squares. (MindSpore takes the root only in the symmetric case; kept, so results agree.)"""

    def eval(self):
        forward, backward = self._both_directions()
        if forward.shape == (0,):
            return np.inf
        forward_ms = (forward ** 2).mean()
        if not self.symmetric:
            return forward_ms
        if backward.shape == (0,):
            return np.inf
        return np.sqrt(np.mean((forward_ms, (backward ** 2).mean())))
