"""ops.interpolate on 3-d and 5-d inputs and ops.grid_sample on volumes, against separable NumPy references
(PyTorch's conventions, which MindSpore's interpolate follows)."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops


def _linear_matrix(n_in, n_out, align_corners):
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        if align_corners:
            src = o * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
        else:
            src = max((o + 0.5) * n_in / n_out - 0.5, 0.0)
        lo = min(int(np.floor(src)), n_in - 1)
        hi = min(lo + 1, n_in - 1)
        frac = src - lo
        m[o, lo] += 1 - frac
        m[o, hi] += frac
    return m


def _nearest_matrix(n_in, n_out):
    m = np.zeros((n_out, n_in))
    m[np.arange(n_out), np.minimum(np.floor(np.arange(n_out) * n_in / n_out).astype(int), n_in - 1)] = 1
    return m


def _separable(x, matrices):
    for k, m in enumerate(matrices):
        x = np.moveaxis(np.tensordot(m, np.moveaxis(x, 2 + k, 0), axes=1), 0, 2 + k)
    return x


@pytest.mark.parametrize("align_corners", [False, True])
def test_trilinear_and_linear_match_separable_interpolation(align_corners):
    rng = np.random.default_rng(0)
    volume = rng.standard_normal((2, 3, 4, 5, 3))
    got = ops.interpolate(ms.Tensor(volume), size=(6, 3, 7), mode="trilinear", align_corners=align_corners)
    want = _separable(volume, [_linear_matrix(n, m, align_corners) for n, m in zip((4, 5, 3), (6, 3, 7))])
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-10, atol=1e-12)
    line = rng.standard_normal((2, 3, 5))
    got = ops.interpolate(ms.Tensor(line), scale_factor=1.6, mode="linear", align_corners=align_corners)
    np.testing.assert_allclose(got.asnumpy(), _separable(line, [_linear_matrix(5, 8, align_corners)]), rtol=1e-10)


def test_nearest_and_area_on_volumes_and_lines():
    rng = np.random.default_rng(1)
    volume = rng.standard_normal((1, 2, 3, 4, 5)).astype(np.float32)
    got = ops.interpolate(ms.Tensor(volume), size=(5, 2, 7), mode="nearest")
    want = _separable(volume, [_nearest_matrix(n, m) for n, m in zip((3, 4, 5), (5, 2, 7))])
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)
    pooled = ops.interpolate(ms.Tensor(volume), size=(1, 1, 1), mode="area")
    np.testing.assert_allclose(pooled.asnumpy().ravel(), volume.mean(axis=(2, 3, 4)).ravel(), rtol=1e-5)
    line = volume[0, :, 0]  # (2, 4, 5) as (N, C, L)
    got = ops.interpolate(ms.Tensor(line), size=9, mode="nearest")
    np.testing.assert_allclose(got.asnumpy(), _separable(line, [_nearest_matrix(5, 9)]), rtol=1e-6)
    with pytest.raises(ValueError, match=r"interpolate: 'mode' must be one of \('nearest', 'trilinear', 'area'\)"):
        ops.interpolate(ms.Tensor(volume), size=2, mode="bilinear")


def test_grid_sample_on_volumes_reads_the_corners():
    volume = np.arange(8, dtype=np.float32).reshape(1, 1, 2, 2, 2)  # value = 4 z + 2 y + x
    corners = np.array([[-1, -1, -1], [1, -1, -1], [-1, 1, 1], [1, 1, 1]], np.float32).reshape(1, 1, 1, 4, 3)
    got = ops.grid_sample(ms.Tensor(volume), ms.Tensor(corners), align_corners=True)
    np.testing.assert_allclose(got.asnumpy().ravel(), [0, 1, 6, 7])
    centre = ops.grid_sample(ms.Tensor(volume), ms.Tensor(np.zeros((1, 1, 1, 1, 3), np.float32)), align_corners=True)
    assert float(centre.asnumpy().ravel()[0]) == pytest.approx(3.5)
