"""``ms.DatasetHelper``: a dataset's batches for a hand-written training loop, as lists of Tensors.

MindSpore's sink mode sends batches to a device queue that the compiled step reads; Sprout runs on the host,
so both modes iterate the dataset on the host, and `sink_size` (> 0) bounds the batches of one pass."""
import numbers


class DatasetHelper:
    """Iterates `dataset`: each item is the list of one batch's columns as Tensors."""

    def __init__(self, dataset, dataset_sink_mode=True, sink_size=-1, epoch_num=1):
        from sprout.dataset.datasets import Dataset
        api = "DatasetHelper"
        if not isinstance(dataset, Dataset):
            raise TypeError(f"{api}: 'dataset' must be a mindspore.dataset Dataset, but got {type(dataset).__name__}")
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"{api}: 'dataset_sink_mode' must be a bool, but got {type(dataset_sink_mode).__name__}")
        for name, value in (("sink_size", sink_size), ("epoch_num", epoch_num)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError(f"{api}: '{name}' must be an int, but got {type(value).__name__}")
        if sink_size != -1 and sink_size <= 0:
            raise ValueError(f"{api}: 'sink_size' must be -1 or positive, but got {sink_size}")
        if epoch_num <= 0:
            raise ValueError(f"{api}: 'epoch_num' must be positive, but got {epoch_num}")
        self.dataset, self.dataset_sink_mode = dataset, dataset_sink_mode
        self._sink_size, self.epoch_num = int(sink_size), int(epoch_num)

    def __iter__(self):
        count = 0
        for batch in self.dataset.create_tuple_iterator(num_epochs=1):
            if self._sink_size > 0 and count == self._sink_size:
                return
            count += 1
            yield list(batch)

    def __len__(self):
        size = self.dataset.get_dataset_size()
        return size if self._sink_size == -1 else min(size, self._sink_size)

    def sink_size(self):
        """The batches of one pass: sink_size, or the dataset's size when sink_size is -1."""
        return len(self)

    def types_shapes(self):
        """(the columns' dtypes, their shapes)."""
        return self.dataset.output_types(), self.dataset.output_shapes()

    def get_data_info(self):
        """(the columns' dtypes, their shapes), as types_shapes."""
        return self.types_shapes()

    # Data sinking's queue controls: Sprout has no device queue, so there is nothing to stop, resume or free.
    def stop_send(self):
        """Nothing to stop: Sprout sends no data to a device queue."""

    def continue_send(self):
        """Nothing to resume: Sprout sends no data to a device queue."""

    def release(self):
        """Nothing to free: Sprout sends no data to a device queue."""


__all__ = ["DatasetHelper"]
