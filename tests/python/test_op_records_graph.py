"""The op-test harness in graph mode: every record's op compiled (forward equal to PYNATIVE), and every
op's gradient through the J transform equal to its eager bprop (which test_op_records.py checks against
float64 finite differences)."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops
from op_records import ALL_RECORDS

FORWARD = [r for r in ALL_RECORDS if not r.random]
GRADS = [r for r in ALL_RECORDS if r.prim and not r.random]


def compiled_call(call):
    def run(*xs):
        return call(*xs)

    return ms.jit(run)


def as_list(out):
    return list(out) if isinstance(out, tuple) else [out]


@pytest.mark.parametrize("record", FORWARD, ids=[f"{r.op}-graph" for r in FORWARD])
def test_forward_in_graph_mode_equals_pynative(record):
    rng = np.random.default_rng(0)
    shapes = record.shapes[0]
    dtype = ms.float32 if ms.float32 in record.dtypes else record.dtypes[0]
    arrays = record.sample(rng, shapes, dtype)
    # Fresh inputs for each mode: in-place ops (Assign*, BatchNorm's running statistics) write them.
    fresh = lambda: [ms.Tensor(a, record.input_dtype(i, dtype)) for i, a in enumerate(arrays)]  # noqa: E731
    expected = as_list(record.call(*fresh()))
    try:
        got = as_list(compiled_call(record.call)(*fresh()))
    except RuntimeError as e:
        if "needs the tensor's value" not in str(e):
            raise
        pytest.skip(f"{record.op}: this record's call reads tensor values (asnumpy) while computing, which "
                    f"compiled code cannot; the op itself is covered by its other records")
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.shape == e.shape, record.op
        np.testing.assert_allclose(g.asnumpy().astype(np.float64), e.asnumpy().astype(np.float64), rtol=1e-6,
                                   atol=1e-6, err_msg=record.op)


def graph_gradient(prim, n_outputs):
    grad_op = ops.GradOperation(get_all=True, sens_param=True)

    def forward(*xs):
        return prim(*xs)

    def gradient(*xs_and_sens):
        return grad_op(forward)(*xs_and_sens)

    return ms.jit(gradient)


@pytest.mark.parametrize("record", GRADS, ids=[f"{r.op}-graph-grad" for r in GRADS])
def test_gradient_in_graph_mode_equals_the_eager_bprop(record):
    rng = np.random.default_rng(1)
    prim = record.prim()
    shapes = (record.grad_shapes or record.shapes)[0]
    arrays = record.sample(rng, shapes, ms.float64)
    inputs = [ms.Tensor(a, record.input_dtype(i, ms.float64)) for i, a in enumerate(arrays)]
    outs = as_list(prim(*inputs))
    graded = record.grad_outputs or range(len(outs))
    douts = [ms.Tensor(rng.standard_normal(o.shape) if k in graded else np.zeros(o.shape), o.dtype)
             for k, o in enumerate(outs)]
    expected = ms._C.run_bprop(prim, inputs, outs, douts)
    sens = tuple(douts) if len(douts) > 1 else douts[0]
    got = graph_gradient(prim, len(outs))(*inputs, sens)
    assert len(got) == len(inputs)
    for i, (g, e) in enumerate(zip(got, expected)):
        if e is None:
            assert not g.asnumpy().any(), f"{record.op}: input {i} got a gradient in graph mode"
            continue
        np.testing.assert_allclose(g.asnumpy(), e.asnumpy(), rtol=1e-9, atol=1e-9, err_msg=f"{record.op} input {i}")
