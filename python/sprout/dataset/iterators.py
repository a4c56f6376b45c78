"""Iterators over a Dataset: ``create_tuple_iterator`` / ``create_dict_iterator`` and plain ``for``.

An iterator runs a freshly built pipeline. ``for row in it`` runs one epoch; looping again runs the
next one, up to ``num_epochs`` (-1: no limit). Rows are sprout.Tensors, or NumPy arrays with
``output_numpy=True``; both share memory with the engine's buffers (no copy). Dropping the iterator,
calling ``stop()``, an exception in the pipeline or Ctrl-C stop the pipeline's threads.
"""
from sprout.dataset.datasets import _E, _check_int, _column_list
from sprout.dataset import config


class _Iterator:
    def __init__(self, dataset, columns, num_epochs, output_numpy):
        _check_int("create_iterator", "num_epochs", num_epochs, low=-1)
        if num_epochs == 0:
            raise ValueError("create_iterator: 'num_epochs' must be -1 or >= 1, but got 0")
        if not isinstance(output_numpy, bool):
            raise TypeError(f"create_iterator: 'output_numpy' must be a bool, but got {output_numpy!r}")
        root = dataset._root()
        columns = _column_list("create_tuple_iterator", "columns", columns)
        if columns:
            root = _E.project(root, columns)
        self._columns = list(root.columns)
        self._it = _E.Iterator(root, num_epochs, config.get_prefetch_size(), output_numpy)
        self._finished = False
        self._num_epochs, self._epochs_done = num_epochs, 0

    def __iter__(self):
        return self

    def _next_row(self):
        if self._finished:
            raise StopIteration
        try:
            row = self._it.next()
        except StopIteration:
            self.stop()  # all epochs done: release the threads now rather than when dropped
            raise
        except BaseException:
            self._finished = True  # the engine has stopped itself; the error is the user's to see
            raise
        if row is None:  # end of an epoch; the next loop over this iterator runs the next epoch
            self._epochs_done += 1
            if self._epochs_done == self._num_epochs:
                self.stop()
            raise StopIteration
        return row

    def stop(self):
        """Stops the pipeline now (also done when the iterator is dropped)."""
        self._finished = True
        self._it.stop()

    def get_col_names(self):
        return list(self._columns)


class TupleIterator(_Iterator):
    def __next__(self):
        return list(self._next_row())


class DictIterator(_Iterator):
    def __next__(self):
        return dict(zip(self._columns, self._next_row()))
