"""ms.Profiler: per-op times from eager dispatch and compiled graphs."""
import csv

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops


def test_profiler_times_eager_and_compiled_ops(tmp_path, capsys):
    x = Tensor(np.ones((64, 64), np.float32))

    @ms.jit
    def f(v):
        return ops.relu(v * 2 + 1)

    profiler = ms.Profiler(output_path=str(tmp_path))
    for _ in range(3):
        ops.matmul(x, x)
        f(x)
    stats = profiler.analyse()
    by_op = {s["op"]: s for s in stats}
    assert by_op["MatMul"]["calls"] == 3 and by_op["MatMul"]["total_ms"] > 0
    assert by_op["Fused[Mul, Add, ReLU]"]["calls"] == 3  # the compiled graph's fused node
    assert abs(sum(s["percent"] for s in stats) - 100) < 1e-6
    with open(tmp_path / "profiler" / "op_statistics.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert {r["op"] for r in rows} == set(by_op)
    assert "MatMul" in capsys.readouterr().out
    ops.matmul(x, x)  # stopped: nothing more is recorded
    assert {s["op"]: s for s in profiler.op_statistics()}["MatMul"]["calls"] == 3


def test_profiler_rejects_bad_arguments():
    with pytest.raises(TypeError, match="Profiler: 'output_path' must be a str"):
        ms.Profiler(output_path=3)
