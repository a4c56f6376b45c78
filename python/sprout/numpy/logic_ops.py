"""mindspore.numpy.logic_ops: being written."""
__all__ = []
