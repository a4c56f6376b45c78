"""MindIR model files: ``export``, ``load`` and ``nn.GraphCell`` (MindSpore 2.x).

``export(net, *inputs, file_name=...)`` compiles the network for the given inputs (in inference
mode: BatchNorm uses its running statistics, Dropout passes values through) and writes the graph
with its weights in MindSpore's .mindir format (src/io/mindir_export.cc); MindSpore's ``load`` and
``nn.GraphCell`` run the file, and Sprout's ``load`` reads files from either. The model is
specialized to the inputs' shapes and dtypes, as MindSpore's export is.
"""
import os

from sprout import _C
from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor

_EXTENSION = ".mindir"


def export(net, *inputs, file_name, file_format="MINDIR", **kwargs):
    """Writes ``net`` (a Cell or a function) compiled for ``inputs`` to ``file_name`` (".mindir" is
    appended when missing). Written atomically; returns None, as MindSpore's export does."""
    from sprout.nn.cell import Cell
    if not isinstance(file_format, str) or file_format.upper() != "MINDIR":
        raise ValueError(f"export: file_format must be 'MINDIR' (Sprout writes MindIR files), but got {file_format!r}")
    if not isinstance(file_name, (str, os.PathLike)) or not os.fspath(file_name):
        raise TypeError(f"export: file_name must be a non-empty path, but got {file_name!r}")
    if not isinstance(net, Cell) and not callable(net):
        raise TypeError(f"export: net must be a Cell or a function, but got {type(net).__name__}")
    if not inputs:
        raise ValueError("export: give at least one input tensor (the model is compiled for their shapes)")
    for i, x in enumerate(inputs):
        if not isinstance(x, Tensor):
            raise TypeError(f"export: input {i} must be a Tensor, but got {type(x).__name__}")
    path = os.fspath(file_name)
    if not path.endswith(_EXTENSION):
        path += _EXTENSION

    from sprout._frontend.jit import stage_function
    training = [(cell, cell.training) for _, cell in net.cells_and_names()] if isinstance(net, Cell) else []
    if isinstance(net, Cell):
        net.set_train(False)
        construct = type(net).construct
        fn, args, name = getattr(construct, "fn", construct), (net,) + inputs, type(net).__name__
    else:
        fn, args, name = net, inputs, getattr(net, "__name__", "net")
    try:
        ctx, _, output_template = stage_function(fn, args, {}, name)
    finally:
        for cell, mode in training:
            cell.training = mode
    weights = [(p.name, p) for p in ctx.parameters]
    n_inputs = ctx.entry.n_parameters() - len(weights)
    single = output_template[0] == "leaf"
    import sprout
    _C.export_mindir(ctx.entry, n_inputs, weights, single, sprout.__version__, path)


class MindIRGraph:
    """A model read by ``load``: its inputs (name, dtype, shape), weights and compiled program. Run it
    with ``nn.GraphCell(graph)``."""

    def __init__(self, path, graph, inputs, weights, single_output):
        self.file_name = path
        self.inputs = [(name, dtype, tuple(shape)) for name, dtype, shape in inputs]
        self.weights = list(weights)  # (name, Tensor)
        self.single_output = single_output
        self.program = _C.ir.compile(graph)

    def __repr__(self):
        inputs = ", ".join(f"{name}: {dtype}{list(shape)}" for name, dtype, shape in self.inputs)
        return f"MindIRGraph('{self.file_name}', inputs=({inputs}), {len(self.weights)} weights)"


def load(file_name, **kwargs):
    """Reads a MindIR file written by Sprout's or MindSpore's export; run it with ``nn.GraphCell``."""
    unsupported = sorted(k for k, v in kwargs.items() if v is not None and k in ("dec_key", "obf_func"))
    if unsupported:
        raise ValueError(f"load: {', '.join(unsupported)} (encrypted or obfuscated models) are not supported")
    if not isinstance(file_name, (str, os.PathLike)):
        raise TypeError(f"load: file_name must be a path, but got {type(file_name).__name__}")
    path = os.fspath(file_name)
    graph, inputs, weights, single = _C.load_mindir(path)
    return MindIRGraph(path, graph, inputs, weights, single)


def graph_weights(graph, params_init):
    """The Parameters a GraphCell runs ``graph`` with: the file's weights, or those of ``params_init``
    (a dict name -> Tensor of the same shape and dtype)."""
    params_init = dict(params_init or {})
    unknown = sorted(set(params_init) - {name for name, _ in graph.weights})
    if unknown:
        raise ValueError(f"GraphCell: params_init names {unknown}, which the model has no weights of")
    out = []
    for name, value in graph.weights:
        new = params_init.get(name, value)
        if not isinstance(new, Tensor):
            raise TypeError(f"GraphCell: params_init['{name}'] must be a Tensor, but got {type(new).__name__}")
        if new.shape != value.shape or new.dtype != value.dtype:
            raise ValueError(f"GraphCell: params_init['{name}'] is {new.dtype}{list(new.shape)}; the model's weight "
                             f"is {value.dtype}{list(value.shape)}")
        out.append(Parameter(new, name=name))
    return out
