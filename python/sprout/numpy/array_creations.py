"""mindspore.numpy.array_creations: being written."""
__all__ = []
