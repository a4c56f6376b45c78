"""Checkpoints: MindSpore's .ckpt wire format (checked byte for byte against an independent encoder),
round trips, CRC, safetensors, atomic writes, and clear errors for bad files."""
import os
import struct
import zlib

import numpy as np
import pytest

import sprout as ms
from sprout import nn


def varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        out += bytes([b | (0x80 if n else 0)])
        if not n:
            return out


def field(number, wire_type, payload):
    key = varint((number << 3) | wire_type)
    return key + (varint(len(payload)) + payload if wire_type == 2 else payload)


def expected_message(tag, dims, tensor_type, content):
    """A Checkpoint message with one Value, encoded from the protobuf wire-format rules."""
    tensor = b"".join(field(1, 0, varint(d)) for d in dims) + field(2, 2, tensor_type.encode()) + field(3, 2, content)
    value = field(1, 2, tag.encode()) + field(2, 2, tensor)
    return field(1, 2, value)


def test_wire_format_matches_the_published_layout(tmp_path):
    w = np.array([[1.5, -2.0], [0.25, 8.0]], np.float32)
    path = str(tmp_path / "net.ckpt")
    ms.save_checkpoint([{"name": "fc.weight", "data": ms.Tensor(w)}, {"name": "step", "data": ms.Tensor(7)}], path)
    expected = expected_message("fc.weight", [2, 2], "Float32", w.tobytes()) + \
        expected_message("step", [], "Int64", np.int64(7).tobytes())
    assert open(path, "rb").read() == expected


def test_crc_trailer(tmp_path):
    path = str(tmp_path / "c.ckpt")
    ms.save_checkpoint([{"name": "a", "data": ms.Tensor([1.0])}], path, crc_check=True)
    raw = open(path, "rb").read()
    body = expected_message("a", [1], "Float32", np.float32(1.0).tobytes())
    assert raw == body + b"crc_num" + zlib.crc32(body).to_bytes(10, "big")
    assert ms.load_checkpoint(path, crc_check=True)["a"].tolist() == [1.0]
    corrupt = raw[:-1] + bytes([raw[-1] ^ 1])
    open(path, "wb").write(corrupt)
    with pytest.raises(ValueError, match="CRC .* does not match"):
        ms.load_checkpoint(path, crc_check=True)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(3, 4)
        self.fc2 = nn.Dense(4, 2)

    def construct(self, x):
        return self.fc2(self.fc1(x))


def test_round_trip_into_a_fresh_network(tmp_path):
    ms.set_seed(1)
    net = Net()
    path = str(tmp_path / "model")
    ms.save_checkpoint(net, path, append_dict={"epoch": 3, "lr": 0.5, "note": "hello"})
    assert os.path.exists(path + ".ckpt")
    params = ms.load_checkpoint(path + ".ckpt")
    assert list(params) == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias", "epoch", "lr", "note"]
    assert params["epoch"].item() == 3 and params["note"] == "hello"
    fresh = Net()
    not_loaded, unused = ms.load_param_into_net(fresh, params)
    assert not_loaded == [] and unused == ["epoch", "lr", "note"]
    x = ms.Tensor(np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(fresh(x).asnumpy(), net(x).asnumpy())


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("make_opt", [
    lambda p: nn.Adam(p, nn.CosineDecayLR(0.001, 0.05, 4)),
    lambda p: nn.Momentum(p, 0.05, 0.9),
    lambda p: nn.RMSProp(p, 0.01, centered=True, momentum=0.5),
], ids=["adam_with_schedule", "momentum", "rmsprop"])
def test_training_resumed_from_a_checkpoint_continues_exactly(tmp_path, mode, make_opt):
    # A training step's checkpoint holds its optimizer's state (moments, step count) as MindSpore's does,
    # under MindSpore's names; resuming had restarted every moment from zero.
    ms.set_context(mode=mode)
    rng = np.random.RandomState(0)
    batches = [(ms.Tensor(rng.randn(8, 3).astype(np.float32)), ms.Tensor(rng.randn(8, 2).astype(np.float32)))
               for _ in range(4)]

    def new_step():
        ms.set_seed(0)
        net = Net()
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), make_opt(net.trainable_params()))
        return net, step

    net, step = new_step()
    for x, y in batches:
        step(x, y)
    straight = [p.asnumpy() for p in net.trainable_params()]
    net, step = new_step()
    for x, y in batches[:2]:
        step(x, y)
    path = str(tmp_path / "step.ckpt")
    ms.save_checkpoint(step, path)
    names = list(ms.load_checkpoint(path))
    assert "global_step" in names and any(n.startswith(("moment1.", "moments.", "moment.")) for n in names)
    net, step = new_step()
    assert ms.load_param_into_net(step, ms.load_checkpoint(path)) == ([], [])
    for x, y in batches[2:]:
        step(x, y)
    for resumed, expected in zip(net.trainable_params(), straight):
        np.testing.assert_allclose(resumed.asnumpy(), expected, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("dtype", [ms.float16, ms.bfloat16, ms.float64, ms.int8, ms.uint8, ms.bool_, ms.int32])
def test_every_dtype_round_trips_in_both_formats(tmp_path, dtype):
    t = ms.Tensor(np.arange(6).reshape(2, 3) % 2, dtype)
    for fmt in ("ckpt", "safetensors"):
        path = str(tmp_path / f"t.{fmt}")
        ms.save_checkpoint({"t": t}, path, format=fmt)
        back = ms.load_checkpoint(path, format=fmt)["t"]
        assert back.dtype == dtype and back.tolist() == t.tolist()


def test_safetensors_layout(tmp_path):
    path = str(tmp_path / "w.safetensors")
    ms.save_checkpoint({"w": ms.Tensor([1.0, 2.0])}, path, format="safetensors")
    raw = open(path, "rb").read()
    (n,) = struct.unpack("<Q", raw[:8])
    assert n % 8 == 0 and b'"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}' in raw[8:8 + n]
    assert raw[8 + n:] == np.array([1.0, 2.0], np.float32).tobytes()


def test_bad_files_and_mismatches_leave_the_network_untouched(tmp_path):
    net = Net()
    before = [p.asnumpy().copy() for p in net.get_parameters()]
    path = str(tmp_path / "bad.ckpt")
    ms.save_checkpoint({"fc1.weight": ms.Tensor(np.zeros((4, 3), np.float32)),
                        "fc2.weight": ms.Tensor(np.zeros((9, 9), np.float32))}, path)
    with pytest.raises(RuntimeError, match=r"'fc2.weight' has shape \(9, 9\) in the checkpoint"):
        ms.load_checkpoint(path, net=net)
    for b, p in zip(before, net.get_parameters()):
        np.testing.assert_array_equal(b, p.asnumpy())
    raw = open(path, "rb").read()
    open(path, "wb").write(raw[:-5])
    with pytest.raises(ValueError, match="truncated or corrupt"):
        ms.load_checkpoint(path)
    with pytest.raises(ValueError, match="does not exist"):
        ms.load_checkpoint(str(tmp_path / "missing.ckpt"))
    with pytest.raises(ValueError, match="no CRC trailer"):
        ms.save_checkpoint({"a": ms.Tensor([1.0])}, path)
        ms.load_checkpoint(path, crc_check=True)
    with pytest.raises(TypeError, match="save_obj"):
        ms.save_checkpoint(3, path)


def test_saving_replaces_atomically(tmp_path):
    path = str(tmp_path / "m.ckpt")
    ms.save_checkpoint({"a": ms.Tensor([1.0])}, path)
    ms.save_checkpoint({"a": ms.Tensor([2.0])}, path)
    assert ms.load_checkpoint(path)["a"].tolist() == [2.0]
    assert sorted(os.listdir(tmp_path)) == ["m.ckpt"]  # no temporary file left behind


def test_filters_and_strict_load(tmp_path):
    net = Net()
    path = str(tmp_path / "f.ckpt")
    ms.save_checkpoint(net, path)
    params = ms.load_checkpoint(path, filter_prefix="fc2")
    assert list(params) == ["fc1.weight", "fc1.bias"]
    with pytest.raises(RuntimeError, match="strict_load"):
        ms.load_param_into_net(Net(), params, strict_load=True)
