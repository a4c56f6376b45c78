"""mindspore.numpy.dtypes: being written."""
__all__ = []
