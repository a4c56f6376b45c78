"""mindspore.numpy.math_ops: being written."""
__all__ = []
