"""mindspore.numpy.array_ops: being written."""
__all__ = []
