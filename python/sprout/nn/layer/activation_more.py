"""More ``mindspore.nn`` activation cells, each a thin wrapper of its functional op. Numeric arguments are
checked when the cell is built, so a bad one fails there rather than at the first call."""
import numbers

from sprout import ops
from sprout.nn.cell import Cell


def _number(api, arg, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{api}: '{arg}' must be an int or a float, but got {type(value).__name__}")
    return float(value)


class SELU(Cell):
    def construct(self, x):
        return ops.selu(x)


class CELU(Cell):
    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = _number("CELU", "alpha", alpha)
        if self.alpha == 0:
            raise ValueError("CELU: 'alpha' must not be 0")

    def construct(self, x):
        return ops.celu(x, self.alpha)


class Softsign(Cell):
    def construct(self, x):
        return ops.softsign(x)


class Hardtanh(Cell):
    def __init__(self, min_val=-1.0, max_val=1.0):
        super().__init__()
        self.min_val, self.max_val = _number("Hardtanh", "min_val", min_val), _number("Hardtanh", "max_val", max_val)
        if self.min_val > self.max_val:
            raise ValueError(f"Hardtanh: 'min_val' must not exceed 'max_val', but got {min_val} and {max_val}")

    def construct(self, x):
        return ops.hardtanh(x, self.min_val, self.max_val)


class LogSigmoid(Cell):
    def construct(self, x):
        return ops.logsigmoid(x)


class GLU(Cell):
    """a * sigmoid(b), a and b the halves of the input along `axis`."""

    def __init__(self, axis=-1):
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"GLU: 'axis' must be an int, but got {type(axis).__name__}")
        self.axis = axis

    def construct(self, x):
        return ops.glu(x, self.axis)


class Softmin(Cell):
    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def construct(self, x):
        return ops.softmin(x, self.axis)


class Tanhshrink(Cell):
    def construct(self, x):
        return ops.tanhshrink(x)


class SoftShrink(Cell):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = _number("SoftShrink", "lambd", lambd)
        if self.lambd < 0:
            raise ValueError(f"SoftShrink: 'lambd' must be >= 0, but got {lambd}")

    def construct(self, input):
        return ops.softshrink(input, self.lambd)


class HShrink(Cell):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = _number("HShrink", "lambd", lambd)

    def construct(self, input_x):
        return ops.hardshrink(input_x, self.lambd)


class Threshold(Cell):
    """input_x where input_x > threshold, else value."""

    def __init__(self, threshold, value):
        super().__init__()
        self.threshold, self.value = _number("Threshold", "threshold", threshold), _number("Threshold", "value", value)

    def construct(self, input_x):
        return ops.threshold(input_x, self.threshold, self.value)


class Softmax2d(Cell):
    """Softmax over the channels of a (C, H, W) or (N, C, H, W) input, at every position."""

    def construct(self, x):
        if x.ndim not in (3, 4):
            raise ValueError(f"Softmax2d: expects an input of shape (C, H, W) or (N, C, H, W), but got {x.shape}")
        return ops.softmax(x, -3)


class RReLU(Cell):
    """Randomized leaky ReLU: in training, each negative element is scaled by a slope drawn uniformly from
    [lower, upper]; in evaluation by their mean."""

    def __init__(self, lower=1 / 8, upper=1 / 3):
        super().__init__()
        self.lower, self.upper = _number("RReLU", "lower", lower), _number("RReLU", "upper", upper)
        if not 0 <= self.lower <= self.upper:
            raise ValueError(f"RReLU: need 0 <= lower <= upper, but got lower={lower} and upper={upper}")

    def construct(self, x):
        if self.training:
            slope = ops.uniform(x.shape, ops.scalar_to_tensor(self.lower), ops.scalar_to_tensor(self.upper))
            slope = slope.astype(x.dtype)
        else:
            slope = (self.lower + self.upper) / 2
        return ops.where(x >= 0, x, x * slope)

    def extend_repr(self):
        return f"lower={self.lower}, upper={self.upper}"
