"""``ms.mutable``: MindSpore marks a value so that compiling treats it as a variable, not a constant.
Sprout's compiler keys its cache on shapes and dtypes and never folds tensors or tuples of tensors into
constants, so the mark changes nothing; the value is checked and returned."""
from sprout.common.tensor import Tensor


def _check(value):
    if isinstance(value, (tuple, list)):
        return all(_check(v) for v in value)
    if isinstance(value, dict):
        return all(_check(v) for v in value.values())
    return isinstance(value, (Tensor, int, float)) and not isinstance(value, bool)


def mutable(input_data, dynamic_len=False):
    """input_data (a Tensor, a number, or a tuple, list or dict of them), unchanged."""
    if not isinstance(dynamic_len, bool):
        raise TypeError(f"mutable: 'dynamic_len' must be a bool, but got {type(dynamic_len).__name__}")
    if not _check(input_data):
        raise TypeError(f"mutable: 'input_data' must be a Tensor, a number, or a tuple, list or dict of them, but "
                        f"got {type(input_data).__name__}")
    if dynamic_len and not isinstance(input_data, (tuple, list)):
        raise TypeError(f"mutable: dynamic_len=True needs a tuple or list, but got {type(input_data).__name__}")
    return input_data


__all__ = ["mutable"]
