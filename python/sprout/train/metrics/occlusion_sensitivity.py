"""OcclusionSensitivity (``mindspore.train.OcclusionSensitivity``): how much a classifier's score for the
true class drops when a small block of the input around each position is blanked out."""
import numpy as np

from sprout.common.tensor import Tensor
from sprout.train.metrics.metric import Metric, _to_numpy
from sprout.train.metrics.rearrange import rearrange_inputs


def _bounding_box(b_box, shape):
    if b_box is None:
        return None, None
    if len(b_box) != 2 * len(shape):
        raise ValueError(f"OcclusionSensitivity: 'b_box' needs a [min, max] pair for each of the {len(shape)} "
                         f"dimensions after the batch, but has {len(b_box)} values")
    low, high = np.array(b_box[::2]), np.array(b_box[1::2])
    low[low < 0] = 0
    high[high < 0] = shape[high < 0] - 1
    if np.any(high >= shape):
        raise ValueError(f"OcclusionSensitivity: the maxima of 'b_box' must be below the image size {tuple(shape)}")
    if np.any(low > high):
        raise ValueError("OcclusionSensitivity: every minimum of 'b_box' must be at most its maximum")
    return low, high


class OcclusionSensitivity(Metric):
    """update(model, x, label): x is one input (1, ...) of the classifier `model` (a Cell returning (N, C)
    scores), label its class. For every position of x (or of b_box, [min1, max1, min2, max2, ...] over the
    dimensions after the batch), the block [i - margin, i + margin) is set to pad_val and the model rerun, in
    batches of n_batch; eval() -> the score of the unoccluded input minus each occluded score, in the shape of
    the positions."""

    def __init__(self, pad_val=0.0, margin=2, n_batch=128, b_box=None):
        if isinstance(pad_val, bool) or not isinstance(pad_val, float):
            raise TypeError(f"OcclusionSensitivity: 'pad_val' must be a float, but got {type(pad_val).__name__}")
        if isinstance(margin, bool) or not isinstance(margin, (int, list)):
            raise TypeError(f"OcclusionSensitivity: 'margin' must be an int or list, but got {type(margin).__name__}")
        if isinstance(n_batch, bool) or not isinstance(n_batch, int) or n_batch <= 0:
            raise ValueError(f"OcclusionSensitivity: 'n_batch' must be a positive int, but got {n_batch!r}")
        if b_box is not None and not isinstance(b_box, list):
            raise TypeError(f"OcclusionSensitivity: 'b_box' must be a list or None, but got {type(b_box).__name__}")
        self.pad_val, self.margin, self.n_batch, self.b_box = pad_val, margin, n_batch, b_box
        super().__init__()

    def clear(self):
        self._baseline, self._sensitivity_im, self._is_update = 0, 0, False

    def _margins(self, ndim):
        if isinstance(self.margin, int):
            return [self.margin] * ndim
        if len(self.margin) != ndim:
            raise ValueError(f"OcclusionSensitivity: 'margin' has {len(self.margin)} values for {ndim} dimensions")
        return list(self.margin)

    @rearrange_inputs
    def update(self, *inputs):
        from sprout.nn.cell import Cell
        if len(inputs) != 3:
            raise ValueError(f"OcclusionSensitivity.update: expects (model, y_pred, label), but got {len(inputs)} "
                             f"inputs")
        model = inputs[0]
        if not isinstance(model, Cell):
            raise TypeError(f"OcclusionSensitivity.update: 'model' must be a Cell, but got {type(model).__name__}")
        x = _to_numpy(inputs[1], "OcclusionSensitivity", "y_pred")
        label = inputs[2] if isinstance(inputs[2], int) else _to_numpy(inputs[2], "OcclusionSensitivity", "label")
        if x.shape[0] != 1:
            raise RuntimeError(f"OcclusionSensitivity.update: the input must hold one sample (shape (1, ...)), but has "
                               f"shape {x.shape}")
        label = int(label) if isinstance(label, int) else int(np.asarray(label).reshape(-1)[0])
        shape = np.array(x.shape[1:])
        low, high = _bounding_box(self.b_box, shape)
        self._baseline = float(model(Tensor(x)).asnumpy()[0, label])
        out_shape = shape if low is None else high - low + 1
        margins = self._margins(len(shape))
        total = int(np.prod(out_shape))
        scores, batch = [], []
        for i in range(total):
            idx = np.array(np.unravel_index(i, tuple(out_shape)))
            if low is not None:
                idx = idx + low
            occluded = x.copy()
            block = tuple(slice(max(0, c - m), min(n, c + m)) for c, m, n in zip(idx, margins, shape))
            occluded[(...,) + block] = self.pad_val
            batch.append(occluded)
            if len(batch) == self.n_batch or i == total - 1:
                scores.append(model(Tensor(np.concatenate(batch))).asnumpy()[:, label])
                batch = []
        self._sensitivity_im = np.concatenate(scores).reshape(tuple(out_shape))
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("OcclusionSensitivity.eval: call update() before eval()")
        return self._baseline - np.squeeze(self._sensitivity_im)
