"""Dice (``mindspore.train.Dice``): the Dice coefficient of predicted and true masks."""
from sprout.train.metrics.metric import Metric, _to_numpy
from sprout.train.metrics.rearrange import rearrange_inputs


class Dice(Metric):
    """Per batch, 2 <y_pred, y> / (|y_pred|^2 + |y|^2 + smooth) over all elements; eval() is the sum of the
    batches' coefficients divided by the number of samples (first-axis entries) seen, as MindSpore computes it."""

    def __init__(self, smooth=1e-5):
        if isinstance(smooth, bool) or not isinstance(smooth, float) or not smooth > 0:
            raise ValueError(f"Dice: 'smooth' must be a float > 0, but got {smooth!r}")
        self.smooth = smooth
        super().__init__()

    def clear(self):
        self._dice_coeff_sum, self._samples_num = 0.0, 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"Dice.update: expects (y_pred, y), but got {len(inputs)} inputs")
        y_pred, y = _to_numpy(inputs[0], "Dice", "y_pred"), _to_numpy(inputs[1], "Dice", "y")
        if y_pred.shape != y.shape:
            raise ValueError(f"Dice.update: y_pred and y must have one shape, but got {y_pred.shape} and {y.shape}")
        a, b = y_pred.reshape(-1).astype(float), y.reshape(-1).astype(float)
        self._samples_num += y.shape[0]
        self._dice_coeff_sum += 2 * float(a @ b) / float(a @ a + b @ b + self.smooth)

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("Dice.eval: no batch has been given to update() since clear()")
        return self._dice_coeff_sum / float(self._samples_num)
