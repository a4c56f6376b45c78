"""MindIR model files: ms.export / ms.load / nn.GraphCell. Round trips of Sprout's networks, files that
MindSpore 2.10 wrote (tests/python/data/mindir, made by benchmarks/interop/mindspore_files.py --fixtures,
which also runs Sprout's files in MindSpore), atomic writes and clear errors."""
import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn, ops

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(HERE, "data", "mindir")


def _module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def interop_models():
    sys.path.insert(0, os.path.join(REPO, "benchmarks", "interop"))
    try:
        import mindir_models
    finally:
        sys.path.pop(0)
    return mindir_models.models(ms)


def outputs_of(result):
    return [t.asnumpy() for t in (result if isinstance(result, tuple) else (result,))]


def test_lenet_exports_and_runs_back_with_the_same_outputs(tmp_path):
    net = _module(os.path.join(REPO, "examples", "lenet_mnist.py"), "lenet_mnist").LeNet5()
    x = Tensor(np.random.default_rng(0).random((4, 1, 32, 32), dtype=np.float32))
    assert ms.export(net, x, file_name=str(tmp_path / "lenet")) is None  # as MindSpore's
    path = str(tmp_path / "lenet.mindir")
    assert os.path.getsize(path) > 61706 * 4  # the weights are inside
    graph = ms.load(path)
    assert graph.inputs == [("x", ms.float32, (4, 1, 32, 32))]
    cell = nn.GraphCell(graph)
    np.testing.assert_allclose(cell(x).asnumpy(), net(x).asnumpy(), rtol=1e-6, atol=1e-7)
    assert [p.name for p in cell.get_parameters()] == [p.name for p in net.get_parameters()]
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]


@pytest.mark.parametrize("index", range(10), ids=["lenet", "convbn", "mixer", "layers", "primitives", "more_primitives",
                                                  "conv_layers", "recurrent", "losses", "pooling"])
def test_interop_models_round_trip(tmp_path, index):
    # The models benchmarks/interop runs through MindSpore: BatchNorm with running statistics, padded,
    # strided and grouped convolutions, LayerNorm, shape ops, reductions, several outputs, LeakyReLU and
    # Embedding (written as the ops MindSpore has), int32 inputs, primitives with constructor arguments,
    # comparisons and logic with bool outputs, clamping and the exact GELU (written as MindSpore's ops),
    # transposed and 3-d convolutions, Pad and bilinear resizing, a GRU and an LSTM (unrolled over the sequence),
    # loss primitives with their reductions, padded and ceil_mode max pooling (padded by Concat), dilated
    # max pooling with its indices and MaxPoolWithArgmaxV2 (an int32 argmax).
    name, net, inputs = interop_models()[index]
    net.set_train(False)
    expected = outputs_of(net(*inputs))
    ms.export(net, *inputs, file_name=str(tmp_path / name))
    cell = nn.GraphCell(ms.load(str(tmp_path / f"{name}.mindir")))
    got = outputs_of(cell(*inputs))
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["convbn", "mixer", "layers", "primitives", "more_primitives", "conv_layers",
                                  "recurrent", "losses", "pooling"])
def test_files_written_by_mindspore_run_in_sprout(name):
    saved = np.load(os.path.join(DATA, f"mindspore_{name}.npz"))
    values = [saved[f"value{i}"] for i in range(len(saved.files) - 1)]
    n_inputs = int(saved["n_inputs"])
    graph = ms.load(os.path.join(DATA, f"mindspore_{name}.mindir"))
    assert [shape for _, _, shape in graph.inputs] == [v.shape for v in values[:n_inputs]]
    got = outputs_of(nn.GraphCell(graph)(*map(Tensor, values[:n_inputs])))
    assert len(got) == len(values) - n_inputs
    for g, want in zip(got, values[n_inputs:]):  # MindSpore's own outputs for these inputs
        np.testing.assert_allclose(g, want, rtol=1e-4, atol=1e-5)


def test_a_function_with_two_outputs_and_a_cast(tmp_path):
    def f(x, y):
        return ops.cast(x * y + 1.0, ms.float16), ops.sum(ops.exp(x), 0)

    x = Tensor(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3))
    y = Tensor(np.full((2, 3), 0.5, np.float32))
    ms.export(f, x, y, file_name=str(tmp_path / "f.mindir"))
    graph = ms.load(str(tmp_path / "f.mindir"))
    assert [name for name, _, _ in graph.inputs] == ["x", "y"] and graph.weights == []
    a, b = nn.GraphCell(graph)(x, y)
    assert a.dtype == ms.float16
    np.testing.assert_array_equal(a.asnumpy(), (x.asnumpy() * 0.5 + 1).astype(np.float16))
    np.testing.assert_allclose(b.asnumpy(), np.exp(x.asnumpy()).sum(0), rtol=1e-6)


def test_searchsorted_exports_as_a_count_of_smaller_elements(tmp_path):
    # SearchSorted has no MindSpore primitive in the table: the file holds Less / LessEqual, Cast and
    # ReduceSum (mindir_lower.cc), which give the op's positions for a 1-d sequence and for rows.
    def f(rows, values):
        return (ops.searchsorted(Tensor(np.array([0.1, 0.5, 0.5, 0.9], np.float32)), values[0]),
                ops.searchsorted(rows, values, right=True, out_int32=True))

    rows = Tensor(np.array([[0.0, 1.0, 2.0], [-1.0, 0.25, 0.5]], np.float32))
    values = Tensor(np.array([[0.5, 2.0, -3.0, 1.0], [0.25, 0.3, 9.0, -1.0]], np.float32))
    ms.export(f, rows, values, file_name=str(tmp_path / "search"))
    graph = ms.load(str(tmp_path / "search.mindir"))
    got = nn.GraphCell(graph)(rows, values)
    for g, e in zip(got, f(rows, values)):
        assert g.dtype == e.dtype
        np.testing.assert_array_equal(g.asnumpy(), e.asnumpy())


def test_export_runs_the_network_in_inference_mode_and_restores_its_mode(tmp_path):
    name, net, inputs = interop_models()[1]  # ConvBN: BatchNorm
    net.set_train(False)
    expected = net(*inputs).asnumpy()
    net.set_train(True)
    ms.export(net, *inputs, file_name=str(tmp_path / name))
    cell = nn.GraphCell(ms.load(str(tmp_path / f"{name}.mindir")))
    assert net.training and net.bn.training
    np.testing.assert_allclose(cell(*inputs).asnumpy(), expected, rtol=1e-5, atol=1e-6)


def test_graph_cells_run_in_graph_mode_too(tmp_path):
    name, net, inputs = interop_models()[2]
    net.set_train(False)
    expected = outputs_of(net(*inputs))
    ms.export(net, *inputs, file_name=str(tmp_path / name))
    path = str(tmp_path / f"{name}.mindir")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        got = outputs_of(nn.GraphCell(ms.load(path))(*inputs))
        ms.export(net, *inputs, file_name=str(tmp_path / "again"))  # export while in GRAPH_MODE
        path2 = str(tmp_path / "again.mindir")
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)
    assert os.path.getsize(path2) == os.path.getsize(path)


def test_params_init_replaces_weights_by_name(tmp_path):
    dense = nn.Dense(3, 2)
    x = Tensor(np.ones((1, 3), np.float32))
    ms.export(dense, x, file_name=str(tmp_path / "dense"))
    graph = ms.load(str(tmp_path / "dense.mindir"))
    weight = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    cell = nn.GraphCell(graph, params_init={"weight": weight})
    np.testing.assert_allclose(cell(x).asnumpy(), weight.asnumpy().sum(1)[None] + dense.bias.asnumpy(), rtol=1e-6)
    with pytest.raises(ValueError, match=r"params_init\['weight'\] is Float32\[3, 2\]; the model's weight is "
                                         r"Float32\[2, 3\]"):
        nn.GraphCell(graph, params_init={"weight": Tensor(np.zeros((3, 2), np.float32))})
    with pytest.raises(ValueError, match="names \\['kernel'\\], which the model has no weights of"):
        nn.GraphCell(graph, params_init={"kernel": weight})
    with pytest.raises(TypeError, match="graph must come from sprout.load"):
        nn.GraphCell("dense.mindir")


def test_graph_cell_checks_its_inputs(tmp_path):
    ms.export(nn.Dense(3, 2), Tensor(np.ones((4, 3), np.float32)), file_name=str(tmp_path / "dense"))
    cell = nn.GraphCell(ms.load(str(tmp_path / "dense.mindir")))
    with pytest.raises(TypeError, match="takes 1 inputs \\(x\\), but got 2"):
        cell(Tensor(np.ones((4, 3), np.float32)), Tensor(np.ones((4, 3), np.float32)))
    with pytest.raises(ValueError, match="input 'x' must be Float32\\[4, 3\\].*got Float32\\[5, 3\\]"):
        cell(Tensor(np.ones((5, 3), np.float32)))
    with pytest.raises(ValueError, match="got Float64\\[4, 3\\]"):
        cell(Tensor(np.ones((4, 3), np.float64)))
    with pytest.raises(TypeError, match="input 'x' must be a Tensor, but got ndarray"):
        cell(np.ones((4, 3), np.float32))


def test_export_rejects_bad_arguments(tmp_path):
    net, x = nn.Dense(3, 2), Tensor(np.ones((1, 3), np.float32))
    with pytest.raises(ValueError, match="file_format must be 'MINDIR'.*'ONNX'"):
        ms.export(net, x, file_name=str(tmp_path / "a"), file_format="ONNX")
    with pytest.raises(ValueError, match="at least one input"):
        ms.export(net, file_name=str(tmp_path / "a"))
    with pytest.raises(TypeError, match="input 0 must be a Tensor, but got list"):
        ms.export(net, [1.0, 2.0, 3.0], file_name=str(tmp_path / "a"))
    with pytest.raises(TypeError, match="net must be a Cell or a function"):
        ms.export(3, x, file_name=str(tmp_path / "a"))
    with pytest.raises(TypeError, match="file_name must be a non-empty path, but got 3"):
        ms.export(net, x, file_name=3)
    assert os.listdir(tmp_path) == []


def test_export_names_the_op_without_a_mindir_form_and_keeps_an_existing_file(tmp_path):
    target = tmp_path / "model.mindir"
    target.write_bytes(b"an earlier model")

    def sorts(x):
        return ops.sort(x)[0]

    with pytest.raises(RuntimeError, match="export MindIR: the graph uses Sort, which has no MindIR form here; "
                                           "ops that do: Abs, AdaptiveAvgPool2D, AdaptiveMaxPool2D, Add,"):
        ms.export(sorts, Tensor(np.ones(4, np.float32)), file_name=str(target))
    assert target.read_bytes() == b"an earlier model" and os.listdir(tmp_path) == ["model.mindir"]


def test_export_rejects_control_flow_on_tensor_values(tmp_path):
    def branches(x):
        if x.sum() > 0:
            return x * 2
        return x - 1

    with pytest.raises(RuntimeError, match="only straight-line graphs"):
        ms.export(branches, Tensor(np.ones(3, np.float32)), file_name=str(tmp_path / "b"))


def test_load_reports_missing_and_corrupt_files(tmp_path):
    with pytest.raises(RuntimeError, match="load MindIR: '.*nothing.mindir' does not exist"):
        ms.load(str(tmp_path / "nothing.mindir"))
    garbage = tmp_path / "garbage.mindir"
    garbage.write_bytes(b"\x07not a model at all")
    with pytest.raises(RuntimeError, match="is not a MindIR file"):
        ms.load(str(garbage))
    good = open(os.path.join(DATA, "mindspore_convbn.mindir"), "rb").read()
    truncated = tmp_path / "truncated.mindir"
    truncated.write_bytes(good[: len(good) // 2])
    with pytest.raises(RuntimeError, match="load MindIR: '.*truncated.mindir'"):
        ms.load(str(truncated))
    unknown = tmp_path / "unknown_op.mindir"  # the same model with an op Sprout does not know
    unknown.write_bytes(open(os.path.join(DATA, "mindspore_primitives.mindir"), "rb").read().replace(b"Softplus",
                                                                                                     b"Softpluz"))
    with pytest.raises(RuntimeError, match="the model uses MindSpore's Softpluz, which Sprout cannot load; ops it can: "
                                           "Abs, AdaptiveAvgPool2D, AdaptiveMaxPool2D, Add, AddN"):
        ms.load(str(unknown))
    with pytest.raises(ValueError, match="dec_key .* not supported"):
        ms.load(os.path.join(DATA, "mindspore_convbn.mindir"), dec_key=b"0123456789abcdef")


def test_the_cpp_inference_example_runs_an_exported_model(tmp_path):
    # examples/cpp/sprout_infer.cc: Sprout's C++ inference API, no Python, on a model exported here.
    binary = os.path.join(REPO, os.environ.get("SPROUT_BUILD_DIR", os.path.join("build", "dev")), "sprout_infer")
    assert os.path.exists(binary), f"{binary} is missing: `make build` builds it"
    net = _module(os.path.join(REPO, "examples", "lenet_mnist.py"), "lenet_mnist").LeNet5()
    x = np.random.default_rng(3).random((2, 1, 32, 32), dtype=np.float32)
    ms.export(net, Tensor(x), file_name=str(tmp_path / "lenet"))
    path = str(tmp_path / "lenet.mindir")
    x.tofile(tmp_path / "x.f32")
    run = subprocess.run([binary, path, str(tmp_path / "x.f32")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "output 0 Float32 [2, 10]"
    np.testing.assert_allclose(np.array(lines[1:], np.float32).reshape(2, 10), net(Tensor(x)).asnumpy(), rtol=1e-5,
                               atol=1e-6)
    bad = subprocess.run([binary, str(tmp_path / "x.f32")], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1 and "is not a MindIR file" in bad.stderr


class _Lstms(nn.Cell):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 5, num_layers=2, batch_first=True, bidirectional=True)
        self.cell = nn.LSTMCell(4, 5)

    def construct(self, x):
        y, (h, c) = self.lstm(x)
        return (y, h, c) + self.cell(x[:, 0], (h[0], c[0]))


def test_recurrent_layers_export_unrolled_and_run_back(tmp_path):
    # Note [Ops written as compositions]: the recurrences as MatMul / Split / sigmoid / tanh steps joined by
    # Stack, which MindSpore runs too (benchmarks/interop: the GRU model, and an LSTM checked by hand).
    net = _Lstms()
    net.set_train(False)
    x = Tensor(np.random.RandomState(1).randn(2, 3, 4).astype(np.float32))
    expected = outputs_of(net(x))
    ms.export(net, x, file_name=str(tmp_path / "lstm"))
    got = outputs_of(nn.GraphCell(ms.load(str(tmp_path / "lstm.mindir")))(x))
    assert len(got) == len(expected) == 5
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)


def _sweep_cases():
    import test_graph_layers_match_eager as layers
    cases = {**layers.LAYERS, **layers.STATELESS}
    cases.pop("LSTMCell")  # its state is a tuple input; export takes tensors (its cell runs inside _Lstms above)
    return layers, cases


@pytest.mark.parametrize("name", sorted(_sweep_cases()[1]))
def test_every_layer_and_loss_exports_and_runs_back(tmp_path, name):
    """The layers and losses of the eager-versus-compiled sweep, each written as a MindIR file and run back."""
    layers, cases = _sweep_cases()
    make_layer, make_inputs = cases[name]
    ms.set_seed(0)
    layer, inputs = make_layer(), make_inputs()
    layer.set_train(False)
    expected = layers.floating_leaves(layer(*inputs))
    ms.export(layer, *inputs, file_name=str(tmp_path / "layer"))
    path = str(tmp_path / "layer.mindir")
    got = layers.floating_leaves(nn.GraphCell(ms.load(path))(*inputs))
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g.asnumpy(), e.asnumpy(), rtol=1e-5, atol=1e-5)
