"""nn.Cell: registration, names, traversal, modes, hooks, containers, custom bprop."""
import numpy as np
import pytest

import sprout as ms
from sprout import nn


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2)
        self.scale = ms.Parameter(ms.Tensor([2.0]), requires_grad=False)

    def construct(self, x):
        return self.dense(x) * self.scale


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.head = nn.SequentialCell([nn.Dense(2, 2), nn.Dense(2, 1)])

    def construct(self, x):
        return self.head(self.block(x))


def test_parameter_names_follow_attribute_paths():
    net = Net()
    names = [n for n, _ in net.parameters_and_names()]
    # A cell's own parameters come before its sub-cells' (cells_and_names order), as in MindSpore.
    assert names == ["block.scale", "block.dense.weight", "block.dense.bias", "head.0.weight", "head.0.bias",
                     "head.1.weight", "head.1.bias"]
    assert [p.name for p in net.trainable_params()] == [n for n in names if n != "block.scale"]
    assert [p.name for p in net.untrainable_params()] == ["block.scale"]
    assert list(net.name_cells()) == ["block", "head"]
    assert [n for n, _ in net.cells_and_names()] == ["", "block", "block.dense", "head", "head.0", "head.1"]
    net.update_parameters_name("model.")
    assert next(net.get_parameters()).name == "model.block.scale"


def test_shared_parameters_are_listed_once():
    class Tied(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = nn.Dense(2, 2)
            self.b = self.a

        def construct(self, x):
            return self.b(self.a(x))

    assert len(list(Tied().get_parameters())) == 2


def test_forward_matches_numpy_and_modes():
    net = Net()
    x = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    d, h0, h1 = net.block.dense, net.head[0], net.head[1]
    w = lambda p: p.asnumpy().astype(np.float64)  # noqa: E731
    ref = x @ w(d.weight).T + w(d.bias)
    ref = ref * 2
    ref = ref @ w(h0.weight).T + w(h0.bias)
    ref = ref @ w(h1.weight).T + w(h1.bias)
    # atol: the weights are unseeded, and an output near 0 is a difference of float32 terms of order 1.
    np.testing.assert_allclose(net(ms.Tensor(x)).asnumpy(), ref, rtol=1e-5, atol=1e-6)
    assert net.set_train() is net and net.block.dense.training
    net.set_train(False)
    assert not net.head[1].training


def test_hooks_and_to_float():
    net = nn.Dense(2, 2)
    seen = []
    h = net.register_forward_pre_hook(lambda cell, inputs: seen.append(inputs[0].shape))
    net.register_forward_hook(lambda cell, inputs, out: out * 0)
    assert net(ms.Tensor(np.ones((1, 2), np.float32))).asnumpy().sum() == 0
    h.remove()
    net(ms.Tensor(np.ones((3, 2), np.float32)))
    assert seen == [(1, 2)]
    half = nn.Identity().to_float(ms.float16)
    assert half(ms.Tensor([1.0])).dtype == ms.float16


def test_repr_tree():
    text = repr(Net())  # MindSpore 2.x's (PyTorch's) form
    assert text.startswith("Net(\n  (block): Block(\n    (dense): Dense(input_channels=3, output_channels=2")
    assert "(head): SequentialCell(" in text and text.endswith("\n)")
    assert repr(nn.Dropout(p=0.2)) == "Dropout(p=0.2)" and repr(nn.Sigmoid()) == "Sigmoid()"
    assert repr(nn.SequentialCell([nn.Dense(2, 3), nn.ReLU()])) == (  # MindSpore 2.10 prints exactly this
        "SequentialCell(\n  (0): Dense(input_channels=2, output_channels=3, has_bias=True)\n  (1): ReLU()\n)")


def test_containers():
    cells = nn.CellList([nn.Dense(2, 2)])
    cells.append(nn.Dense(2, 3))
    assert len(cells) == 2 and cells[1].out_channels == 3
    d = nn.CellDict({"a": nn.Dense(1, 1)})
    d["b"] = nn.Identity()
    assert list(d.keys()) == ["a", "b"] and "b" in d
    seq = nn.SequentialCell(nn.Dense(2, 4), nn.Flatten(), nn.Identity())
    assert seq(ms.Tensor(np.ones((3, 2), np.float32))).shape == (3, 4)
    with pytest.raises(TypeError, match="must be a Cell"):
        nn.SequentialCell([lambda x: x])


def test_registration_errors():
    class Bad(nn.Cell):
        def __init__(self):
            self.w = ms.Parameter(ms.Tensor([1.0]))

    with pytest.raises(RuntimeError, match="super"):
        Bad()
    net = Block()
    with pytest.raises(TypeError, match="'scale' is a Parameter"):
        net.scale = ms.Tensor([1.0])
    with pytest.raises(KeyError, match="must not contain '.'"):
        net.insert_param_to_cell("a.b", ms.Parameter(ms.Tensor([1.0])))
    with pytest.raises(ValueError, match="Dense: the input's last dimension is 4"):
        nn.Dense(3, 2)(ms.Tensor(np.ones((2, 4), np.float32)))


def test_custom_bprop_replaces_autodiff():
    class Clip(nn.Cell):
        def construct(self, x):
            return x * x

        def bprop(self, x, out, dout):
            return (dout * 100.0,)

    g = ms.grad(lambda x: Clip()(x).sum())(ms.Tensor([1.0, 2.0]))
    assert g.tolist() == [100.0, 100.0]
    assert Clip()(ms.Tensor([3.0])).tolist() == [9.0]  # plain calls are untouched
