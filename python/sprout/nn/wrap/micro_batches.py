"""Cells that run a network on equal slices of the batch and sum the results (``mindspore.nn``
GradAccumulationCell, PipelineCell, MicroBatchInterleaved).

In MindSpore they exist for (semi-)auto-parallel jobs, where the slices are scheduled across pipeline stages
or overlapped with communication; what they compute is the same in one process: the network's outputs on
the micro-batches, added. Differentiating that sum accumulates the micro-batches' gradients.
"""
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell


def _check_count(api, name, value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{api}: '{name}' must be an int, but got {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"{api}: '{name}' must be greater than 0, but got {value}")
    return value


def _micro_batch(api, inputs, i, count):
    """The i-th of `count` equal slices along axis 0 of every tensor input (other inputs as they are)."""
    sliced = []
    for x in inputs:
        if not isinstance(x, Tensor) and not hasattr(x, "shape"):
            sliced.append(x)
            continue
        batch = x.shape[0] if len(x.shape) else 0
        if batch % count:
            raise ValueError(f"{api}: the batch dimension (axis 0, of size {batch}) of an input of shape "
                             f"{tuple(x.shape)} must be divisible by {count}")
        size = batch // count
        sliced.append(x[i * size:(i + 1) * size])
    return sliced


def _sum_over_micro_batches(api, network, inputs, count):
    total = None
    for i in range(count):
        out = network(*_micro_batch(api, inputs, i, count))
        total = out if total is None else total + out
    return total


class GradAccumulationCell(Cell):
    """network's outputs on micro_size slices of the batch, summed: the gradients of the result are the
    micro-batches' gradients accumulated."""

    def __init__(self, network, micro_size):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"GradAccumulationCell: 'network' must be a Cell, but got {type(network).__name__}")
        self.network = network
        self.micro_size = _check_count("GradAccumulationCell", "micro_size", micro_size)

    def construct(self, *inputs):
        return _sum_over_micro_batches("GradAccumulationCell", self.network, inputs, self.micro_size)


class PipelineCell(Cell):
    """The batch split into micro_size micro-batches whose outputs are summed. stage_config {cell name: stage}
    and segment_config {cell name: segment} set pipeline_stage / pipeline_segment on the named cells, as
    MindSpore does (a name that matches no cell is a KeyError); in one process every stage runs here, so the
    result is that of GradAccumulationCell."""

    def __init__(self, network, micro_size, stage_config=None, segment_config=None):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"PipelineCell: 'network' must be a Cell, but got {type(network).__name__}")
        self.network = network
        self.micro_size = _check_count("PipelineCell", "micro_size", micro_size)
        if stage_config is not None:
            self._set_on_cells("stage_config", stage_config, "pipeline_stage")
        if segment_config is not None:
            self._set_on_cells("segment_config", segment_config, "pipeline_segment")

    def _set_on_cells(self, arg, config, attribute):
        if not isinstance(config, dict):
            raise TypeError(f"PipelineCell: '{arg}' must be a dict of cell name to number, but got "
                            f"{type(config).__name__}")
        left = dict(config)
        for name, cell in self.network.cells_and_names():
            if name and name in left:
                object.__setattr__(cell, attribute, left.pop(name))
        if left:
            names = [name for name, _ in self.network.cells_and_names() if name]
            raise KeyError(f"PipelineCell: '{arg}' names cells the network does not have: {sorted(left)}; its cells "
                           f"are {names}")

    def shard(self, *args, **kwargs):
        raise ValueError("PipelineCell: 'shard' is not allowed on a PipelineCell")

    def construct(self, *inputs):
        return _sum_over_micro_batches("PipelineCell", self.network, inputs, self.micro_size)


class MicroBatchInterleaved(Cell):
    """network on interleave_num slices of the batch, the outputs summed (the network's output must be a
    Tensor)."""

    def __init__(self, network, interleave_num=2):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"MicroBatchInterleaved: 'network' must be a Cell, but got {type(network).__name__}")
        self.network = network
        self.interleave_num = _check_count("MicroBatchInterleaved", "interleave_num", interleave_num)

    def construct(self, *inputs):
        return _sum_over_micro_batches("MicroBatchInterleaved", self.network, inputs, self.interleave_num)
