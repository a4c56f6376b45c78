"""Every float32 GEMM backend (small_sgemm, OpenBLAS, oneDNN, MKL) against NumPy, and how MKL is chosen.

SPROUT_MATMUL_BACKEND is read once per process, so those cases run in a child process;
_C.set_matmul_backend switches in this one.
"""
import os
import subprocess
import sys

import pytest

from sprout import _C

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Products big enough for oneDNN and MKL (from 4M multiply-adds), with transposes, a strided view, a
# batch, and the accumulating GEMM of ApplyGradientDescentMatMul; float64 references.
CHECK_PRODUCTS = r"""
import numpy as np
import sprout as ms
from sprout import ops
rng = np.random.default_rng(0)
def close(got, want):
    np.testing.assert_allclose(got.asnumpy(), want, rtol=2e-4, atol=2e-4)
for m, k, n in [(64, 512, 512), (130, 70, 600), (256, 256, 256)]:
    for ta in (False, True):
        for tb in (False, True):
            a = rng.standard_normal((k, m) if ta else (m, k)).astype(np.float32)
            b = rng.standard_normal((n, k) if tb else (k, n)).astype(np.float32)
            want = (a.T if ta else a).astype(np.float64) @ (b.T if tb else b).astype(np.float64)
            close(ops.MatMul(transpose_a=ta, transpose_b=tb)(ms.Tensor(a), ms.Tensor(b)), want)
wide = rng.standard_normal((300, 500)).astype(np.float32)
b = rng.standard_normal((200, 400)).astype(np.float32)
close(ops.matmul(ms.Tensor(wide)[:, 100:300], ms.Tensor(b)), wide[:, 100:300].astype(np.float64) @ b)
x = rng.standard_normal((3, 128, 192)).astype(np.float32)
y = rng.standard_normal((3, 192, 256)).astype(np.float32)
close(ops.BatchMatMul()(ms.Tensor(x), ms.Tensor(y)), x.astype(np.float64) @ y)
var = rng.standard_normal((256, 300)).astype(np.float32)
g1 = rng.standard_normal((128, 256)).astype(np.float32)
g2 = rng.standard_normal((128, 300)).astype(np.float32)
v = ms.Parameter(ms.Tensor(var))
ops.ApplyGradientDescentMatMul(True, False)(v, 0.1, ms.Tensor(g1), ms.Tensor(g2))
close(v, var - 0.1 * (g1.T.astype(np.float64) @ g2))
print("ok")
"""


def _run(code, **env):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"), **env))


def _mkl_loaded():
    return _C.mkl_status().startswith("MKL Intel")


@pytest.mark.parametrize("backend", ["small", "blas", "onednn", "mkl"])
def test_every_backend_matches_numpy(backend):
    if backend == "mkl" and not _mkl_loaded():
        pytest.skip(f"MKL is optional and not usable here: {_C.mkl_status()}")
    result = _run(CHECK_PRODUCTS, SPROUT_MATMUL_BACKEND=backend)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr


def test_mkl_status_names_the_library_or_why_not():
    status = _C.mkl_status()
    assert status.startswith("MKL Intel") or status.startswith("MKL not"), status
    if os.path.exists(os.path.join(sys.prefix, "lib", "libmkl_rt.so.3")):
        assert _mkl_loaded(), status  # the Makefile installs it into the venv: it must load


def test_large_products_go_to_mkl_and_small_ones_do_not():
    if not _mkl_loaded():
        pytest.skip(f"MKL is optional and not usable here: {_C.mkl_status()}")
    with open("/proc/cpuinfo") as f:
        if "GenuineIntel" not in f.read():
            pytest.skip("MKL is used unasked only on Intel CPUs")
    code = ("import numpy as np, sprout as ms\nfrom sprout import ops\n"
            "print('small', flush=True); s = ms.Tensor(np.ones((8, 8), np.float32)); ops.matmul(s, s)\n"
            "print('large', flush=True); b = ms.Tensor(np.ones((256, 256), np.float32)); ops.matmul(b, b)\n")
    result = _run(code, MKL_VERBOSE="1")
    assert result.returncode == 0, result.stderr
    small, large = result.stdout.split("large")
    assert "SGEMM" not in small  # OpenBLAS, not MKL's CBLAS bound by accident
    assert "SGEMM(N,N,256,256,256" in large


def test_forcing_mkl_without_the_library_is_a_clear_error():
    code = ("import numpy as np, sprout as ms\nfrom sprout import ops, _C\n"
            "_C.set_mkl_library('/nonexistent/libmkl_rt.so.3')\n"
            "b = ms.Tensor(np.ones((256, 256), np.float32))\n"
            "try:\n    ops.matmul(b, b)\nexcept RuntimeError as e:\n    print(e)\n")
    result = _run(code, SPROUT_MATMUL_BACKEND="mkl")
    assert result.returncode == 0, result.stderr
    assert "SPROUT_MATMUL_BACKEND=mkl, but MKL not loaded: /nonexistent/libmkl_rt.so.3" in result.stdout


def test_set_matmul_backend_switches_in_process_and_every_choice_agrees():
    import numpy as np
    import sprout as ms
    from sprout import ops
    rng = np.random.default_rng(1)
    # Shapes on each side of the choice by size, on Intel and elsewhere: OpenBLAS on one thread,
    # small_sgemm split across threads, B^T copied by small_sgemm (wide) or left to OpenBLAS (narrow),
    # and oneDNN or MKL above the limits of small_sgemm.
    shapes = [(48, 48, 48, False), (80, 80, 80, False), (64, 400, 120, False), (64, 64, 64, True),
              (64, 512, 10, True), (96, 130, 100, True), (128, 256, 200, False), (64, 784, 512, False),
              (64, 512, 512, True), (256, 512, 300, False)]
    try:
        for m, k, n, tb in shapes:
            a = rng.standard_normal((m, k)).astype(np.float32)
            b = rng.standard_normal((n, k) if tb else (k, n)).astype(np.float32)
            want = a.astype(np.float64) @ (b.T if tb else b).astype(np.float64)
            for backend in ("auto", "small", "blas", "onednn"):
                _C.set_matmul_backend(backend)
                got = ops.MatMul(transpose_b=tb)(ms.Tensor(a), ms.Tensor(b)).asnumpy()
                np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-4, err_msg=f"{backend} {m}x{k}x{n} B^T={tb}")
    finally:
        _C.set_matmul_backend("auto")


def test_set_matmul_backend_rejects_unknown_names():
    with pytest.raises(ValueError, match="set_matmul_backend: 'name' must be one of 'auto', 'small', 'blas', "
                                         "'onednn', 'mkl', but got 'cublas'"):
        _C.set_matmul_backend("cublas")
