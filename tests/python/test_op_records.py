"""The op-test harness: runs every record of op_records/ (see its __init__)."""
import warnings

import numpy as np
import pytest

import sprout as ms
from sprout import _C
from op_records import ALL_RECORDS
from op_records.record import FLOAT_DTYPES

IDS = [f"{r.op}-{i}" for i, r in enumerate(ALL_RECORDS)]


def test_every_registry_op_has_a_record():
    registered = {r["name"] for r in _C.op_records()}
    recorded = {r.op for r in ALL_RECORDS}
    assert registered - recorded == set(), "ops without a record in tests/python/op_records"
    assert recorded - registered == set(), "records of ops that are not registered"


def test_every_differentiable_op_has_a_bprop_rule():
    for rec in _C.op_records():
        assert rec["has_bprop"], f"{rec['name']} has no bprop rule"


def _to_numpy_result(out):
    if isinstance(out, tuple):
        return [o.asnumpy() for o in out]
    return [out.asnumpy()]


@pytest.mark.parametrize("record", ALL_RECORDS, ids=IDS)
def test_forward_matches_numpy(record):
    rng = np.random.default_rng(0)
    for shapes in record.shapes:
        for dtype in record.dtypes:
            arrays = record.sample(rng, shapes, dtype)
            tensors = [ms.Tensor(a, record.input_dtype(i, dtype)) for i, a in enumerate(arrays)]
            # The reference sees exactly the values the op sees (after rounding to `dtype`).
            exact_inputs = [t.asnumpy().astype(np.float64) if t.dtype in FLOAT_DTYPES else t.asnumpy() for t in tensors]
            if record.random:
                _check_random(record, tensors, exact_inputs, f"{record.op} shapes={shapes} dtype={dtype}")
                continue
            with warnings.catch_warnings():  # NumPy warns on empty means; the values are still compared
                warnings.simplefilter("ignore", RuntimeWarning)
                expected = record.ref(*exact_inputs)
            got = _to_numpy_result(record.call(*tensors))
            expected = expected if isinstance(expected, (list, tuple)) else [expected]
            for g, e in zip(got, expected):
                where = f"{record.op} shapes={shapes} dtype={dtype}"
                assert g.shape == np.shape(e), where
                if record.exact or dtype not in FLOAT_DTYPES:
                    np.testing.assert_array_equal(g, np.asarray(e).astype(g.dtype), err_msg=where)
                else:
                    rtol, atol = record.tolerance(dtype)
                    np.testing.assert_allclose(g.astype(np.float64), e, rtol=rtol, atol=atol, err_msg=where)


def _check_random(record, tensors, inputs, where):
    """A random op's values cannot match a reference: their shapes and dtypes must (`ref` maps the input
    Tensors to each output's (shape, dtype)), a second call with the same seeds must give the same values,
    and every value must lie in the distribution's support."""
    specs = record.ref(*tensors)
    specs = specs if isinstance(specs, list) else [specs]
    got, again = _as_list(record.call(*tensors)), _as_list(record.call(*tensors))
    assert len(got) == len(specs), where
    for g, a, (shape, dtype) in zip(got, again, specs):
        assert g.shape == tuple(shape) and g.dtype == dtype, f"{where}: got {g.dtype}{g.shape}, not {dtype}{shape}"
        np.testing.assert_array_equal(g.asnumpy(), a.asnumpy(), err_msg=f"{where}: two calls with the same seeds differ")
    if record.support is not None:
        assert record.support(*inputs, *[g.asnumpy() for g in got]), f"{where}: values outside the support"


@pytest.mark.parametrize("record", [r for r in ALL_RECORDS if r.bad], ids=[f"{r.op}-bad" for r in ALL_RECORDS if r.bad])
def test_bad_inputs_raise_clear_errors(record):
    for make_call, error, match in record.bad:
        with pytest.raises(error, match=match):
            make_call()


def _as_list(out):
    return list(out) if isinstance(out, tuple) else [out]


def _numeric_grad(prim, inputs, douts, index, eps=1e-6):
    """d sum_k(prim(inputs)[k] * douts[k]) / d inputs[index], by central differences in float64."""
    base = [t.asnumpy().copy() for t in inputs]
    grad = np.zeros_like(base[index])
    flat = grad.reshape(-1)
    for k in range(flat.size):
        values = []
        for sign in (1, -1):
            shifted = [b.copy() for b in base]
            shifted[index].reshape(-1)[k] += sign * eps
            outs = _as_list(prim(*[ms.Tensor(s) for s in shifted]))
            values.append(sum(float((o.asnumpy().astype(np.float64) * d).sum()) for o, d in zip(outs, douts)))
        flat[k] = (values[0] - values[1]) / (2 * eps)
    return grad


def _run_float64(record, prim, rng, shapes):
    """The record's sample inputs for `shapes` in float64 (other dtypes as the op needs), and prim's outputs."""
    arrays = record.sample(rng, shapes, ms.float64)
    inputs = [ms.Tensor(a, record.input_dtype(i, ms.float64)) for i, a in enumerate(arrays)]
    return inputs, _as_list(prim(*inputs))


@pytest.mark.parametrize("record", [r for r in ALL_RECORDS if r.prim], ids=[f"{r.op}-grad" for r in ALL_RECORDS if r.prim])
def test_bprop_rule_matches_finite_differences(record):
    rng = np.random.default_rng(1)
    prim = record.prim()
    for shapes in record.grad_shapes or record.shapes:
        inputs, outs = _run_float64(record, prim, rng, shapes)
        # Multi-output ops: a record's `grad_outputs` names the differentiable outputs (others get zero douts).
        graded = getattr(record, "grad_outputs", None) or range(len(outs))
        douts = [rng.standard_normal(o.shape) if k in graded else np.zeros(o.shape) for k, o in enumerate(outs)]
        grads = _C.run_bprop(prim, inputs, outs, [ms.Tensor(d, o.dtype) for d, o in zip(douts, outs)])
        assert len(grads) == len(inputs)
        for i, g in enumerate(grads):
            if outs[0].dtype == ms.bool_ or inputs[i].dtype not in FLOAT_DTYPES:  # no gradient flows
                assert g is None or not g.asnumpy().any(), f"{record.op}: input {i} got a gradient"
                continue
            assert g is not None, f"{record.op}: no gradient for input {i}"
            assert g.shape == inputs[i].shape, f"{record.op}: gradient {i} has shape {g.shape}"
            np.testing.assert_allclose(g.asnumpy(), _numeric_grad(prim, inputs, douts, i), rtol=1e-6, atol=1e-7,
                                       err_msg=f"{record.op} shapes={shapes} input {i}")


def _nan_like(t):
    fill = np.nan if t.dtype in FLOAT_DTYPES else 0
    return ms.Tensor(np.full(t.shape, fill), t.dtype)


@pytest.mark.parametrize("record", [r for r in ALL_RECORDS if r.prim], ids=[f"{r.op}-saved" for r in ALL_RECORDS if r.prim])
def test_bprop_rule_reads_only_what_the_tape_saves(record):
    # The eager tape keeps only the inputs and outputs the rule reads (Note [Saving only what backward
    # reads]). Given NaN in place of every other one, the rule must give the same gradients.
    rng = np.random.default_rng(2)
    prim = record.prim()
    for shapes in record.grad_shapes or record.shapes:
        inputs, outs = _run_float64(record, prim, rng, shapes)
        douts = [ms.Tensor(rng.standard_normal(o.shape), o.dtype) for o in outs]
        # Every input tracked: the rule is asked for every gradient (an untracked input's is never wanted).
        reads_in, reads_out = _C.bprop_reads(prim, [_C.track(t) for t in inputs], outs)
        kept_in = [t if keep else _nan_like(t) for t, keep in zip(inputs, reads_in)]
        kept_out = [t if keep else _nan_like(t) for t, keep in zip(outs, reads_out)]
        full = _C.run_bprop(prim, inputs, outs, douts)
        saved = _C.run_bprop(prim, kept_in, kept_out, douts)
        for i, (g, h) in enumerate(zip(full, saved)):
            assert (g is None) == (h is None), f"{record.op}: input {i}"
            if g is not None:
                np.testing.assert_array_equal(h.asnumpy(), g.asnumpy(), err_msg=f"{record.op} shapes={shapes} input {i}")
