"""rearrange_inputs (``mindspore.train.rearrange_inputs``): the decorator that lets a metric's update take
the evaluation outputs chosen by set_indexes."""
import functools


def rearrange_inputs(func):
    """Decorates Metric.update: with indexes set (metric.set_indexes([2, 1])), update sees only those inputs,
    in that order."""

    @functools.wraps(func)
    def wrapper(self, *inputs):
        indexes = self.indexes
        if indexes:
            if max(indexes) >= len(inputs) or min(indexes) < -len(inputs):
                raise ValueError(f"{type(self).__name__}.update: the indexes {indexes} do not fit the {len(inputs)} "
                                 f"inputs given")
            inputs = [inputs[i] for i in indexes]
        return func(self, *inputs)

    return wrapper
