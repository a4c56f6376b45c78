"""ops.affine_grid and ops.grid_sample against a per-point NumPy reference of PyTorch's rules (which
MindSpore's follow), every mode, padding mode and corner alignment; gradients by finite differences."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops

RNG = np.random.default_rng(9)


def unnormalize(c, size, align):
    return (c + 1) / 2 * (size - 1) if align else ((c + 1) * size - 1) / 2


def reflect(x, low, high):
    span = high - low
    if span <= 0:
        return 0.0
    d = abs(x - low)
    flips, extra = divmod(d, span)
    return extra + low if flips % 2 == 0 else span - extra + low


def reference(x, grid, mode, padding, align):
    n, c, h, w = x.shape
    ho, wo = grid.shape[1:3]
    out = np.zeros((n, c, ho, wo))
    for b in range(n):
        for i in range(ho):
            for j in range(wo):
                px, py = unnormalize(grid[b, i, j, 0], w, align), unnormalize(grid[b, i, j, 1], h, align)
                if padding == "reflection":
                    px = reflect(px, 0, w - 1) if align else reflect(px, -0.5, w - 0.5)
                    py = reflect(py, 0, h - 1) if align else reflect(py, -0.5, h - 0.5)
                if padding != "zeros":
                    px, py = np.clip(px, 0, w - 1), np.clip(py, 0, h - 1)

                def at(ix, iy):
                    return x[b, :, int(iy), int(ix)] if 0 <= ix <= w - 1 and 0 <= iy <= h - 1 else 0.0

                if mode == "nearest":
                    out[b, :, i, j] = at(np.rint(px), np.rint(py))
                else:
                    x0, y0 = np.floor(px), np.floor(py)
                    fx, fy = px - x0, py - y0
                    out[b, :, i, j] = (at(x0, y0) * (1 - fx) * (1 - fy) + at(x0 + 1, y0) * fx * (1 - fy) +
                                       at(x0, y0 + 1) * (1 - fx) * fy + at(x0 + 1, y0 + 1) * fx * fy)
    return out


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [False, True])
def test_grid_sample_matches_the_reference(mode, padding, align):
    x = RNG.standard_normal((2, 3, 4, 5))
    grid = RNG.uniform(-1.6, 1.6, (2, 3, 6, 2))  # points inside and outside the image
    got = ops.grid_sample(ms.Tensor(x), ms.Tensor(grid), mode, padding, align)
    np.testing.assert_allclose(got.asnumpy(), reference(x, grid, mode, padding, align), rtol=1e-10, atol=1e-12)


def test_affine_grid_and_gradients():
    theta = np.array([[[0.8, -0.3, 0.1], [0.2, 1.1, -0.2]]])
    for align in (False, True):
        grid = ops.affine_grid(ms.Tensor(theta), (1, 2, 3, 4), align).asnumpy()
        xs = np.linspace(-1, 1, 4) if align else (np.arange(4) * 2 + 1) / 4 - 1
        ys = np.linspace(-1, 1, 3) if align else (np.arange(3) * 2 + 1) / 3 - 1
        want = np.einsum("hwk,ik->hwi", np.stack(list(np.meshgrid(xs, ys)) + [np.ones((3, 4))], -1), theta[0])
        np.testing.assert_allclose(grid[0], want, rtol=1e-12)
    x, grid = RNG.standard_normal((1, 2, 3, 4)), RNG.uniform(-0.9, 0.9, (1, 2, 3, 2))
    w = RNG.standard_normal((1, 2, 2, 3))
    loss = lambda a, g: (ops.grid_sample(a, g, align_corners=True) * ms.Tensor(w)).sum()  # noqa: E731
    ga, gg = ms.grad(loss, grad_position=(0, 1))(ms.Tensor(x), ms.Tensor(grid))
    for got, arg in ((ga, 0), (gg, 1)):
        base = (x, grid)[arg]
        numeric = np.zeros_like(base)
        for idx in np.ndindex(base.shape):
            d = np.zeros_like(base)
            d[idx] = 1e-6
            args_plus = [ms.Tensor(v + d if k == arg else v) for k, v in enumerate((x, grid))]
            args_minus = [ms.Tensor(v - d if k == arg else v) for k, v in enumerate((x, grid))]
            numeric[idx] = (float(loss(*args_plus).asnumpy()) - float(loss(*args_minus).asnumpy())) / 2e-6
        np.testing.assert_allclose(got.asnumpy(), numeric, rtol=1e-5, atol=1e-8)


def test_bad_arguments():
    x, g = ms.Tensor(np.zeros((1, 1, 2, 2))), ms.Tensor(np.zeros((1, 2, 2, 2)))
    with pytest.raises(ValueError, match="grid_sample: 'padding_mode' must be"):
        ops.grid_sample(x, g, padding_mode="wrap")
    with pytest.raises(ValueError, match=r"grid_sample: 'input' must be \(N, C, H, W\) and 'grid' \(N, Ho, Wo, 2\)"):
        ops.grid_sample(x, ms.Tensor(np.zeros((1, 2, 2, 3))))
    with pytest.raises(ValueError, match=r"affine_grid: 'theta' must be a floating-point \(1, 2, 3\) tensor"):
        ops.affine_grid(ms.Tensor(np.zeros((1, 3, 3))), (1, 1, 2, 2))
