"""``nn.GraphCell``: runs a model loaded from a MindIR file (``sprout.load``), as MindSpore's does."""
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell


class GraphCell(Cell):
    """Runs ``graph`` (from ``sprout.load``) on inputs of the shapes and dtypes it was exported for.

    The file's weights become this cell's Parameters (``params_init`` replaces some by name), so
    ``get_parameters`` and checkpoints see them. The graph is compiled once, at load; a call runs it in
    either mode.
    """

    def __init__(self, graph, params_init=None, obf_random_seed=None):
        from sprout.train.mindir import MindIRGraph, graph_weights
        if not isinstance(graph, MindIRGraph):
            raise TypeError(f"GraphCell: graph must come from sprout.load, but got {type(graph).__name__}")
        if obf_random_seed is not None:
            raise ValueError("GraphCell: obf_random_seed (obfuscated models) is not supported")
        super().__init__()
        object.__setattr__(self, "graph", graph)
        weights = graph_weights(graph, params_init)
        for p in weights:
            self.insert_param_to_cell(p.name, p, check_name_contain_dot=False)
        object.__setattr__(self, "_weights", weights)

    def construct(self, *inputs):
        expected = self.graph.inputs
        if len(inputs) != len(expected):
            raise TypeError(f"GraphCell: the model takes {len(expected)} inputs "
                            f"({', '.join(name for name, _, _ in expected)}), but got {len(inputs)}")
        for x, (name, dtype, shape) in zip(inputs, expected):
            if not isinstance(x, Tensor):
                raise TypeError(f"GraphCell: input '{name}' must be a Tensor, but got {type(x).__name__}")
            if x.dtype != dtype or tuple(x.shape) != shape:
                raise ValueError(f"GraphCell: input '{name}' must be {dtype}{list(shape)} (the model was exported "
                                 f"for that), but got {x.dtype}{list(x.shape)}")
        outputs = self.graph.program.run(list(inputs) + self._weights)
        return outputs[0] if self.graph.single_output else tuple(outputs)

    def __call__(self, *inputs):
        return self.construct(*inputs)  # already compiled: never staged into another graph
