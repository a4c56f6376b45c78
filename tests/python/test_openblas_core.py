"""Note [OpenBLAS core on new Intel CPUs]: the kernels OpenBLAS is told to use, and that it uses them."""
import ctypes
import os

import sprout  # noqa: F401  (sets OPENBLAS_CORETYPE before OpenBLAS loads)
from sprout._openblas_core import openblas_core, set_openblas_core

EMERALD_RAPIDS = "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 207\nflags\t\t: fpu sse3 avx2 avx512f avx512_bf16 amx_bf16\n"


def test_intel_cpus_with_avx512_get_the_avx512_kernels():
    assert openblas_core(EMERALD_RAPIDS) == "Cooperlake"
    assert openblas_core(EMERALD_RAPIDS.replace(" avx512_bf16", "")) == "SkylakeX"
    assert openblas_core(EMERALD_RAPIDS.replace(" avx512f", "").replace(" avx512_bf16", "")) is None
    assert openblas_core(EMERALD_RAPIDS.replace("GenuineIntel", "AuthenticAMD")) is None  # OpenBLAS detects Zen


def test_a_core_the_user_chose_is_kept():
    environ = {"OPENBLAS_CORETYPE": "Haswell"}
    set_openblas_core(environ)
    assert environ == {"OPENBLAS_CORETYPE": "Haswell"}


def test_openblas_does_not_fall_back_to_sse3_kernels_here():
    with open("/proc/cpuinfo") as f:
        cpuinfo = f.read()
    blas = ctypes.CDLL("libopenblas.so.0")  # the library _C loaded
    blas.openblas_get_corename.restype = ctypes.c_char_p
    core = blas.openblas_get_corename().decode()
    assert core.lower() != "prescott", (core, os.environ.get("OPENBLAS_CORETYPE"))
    expected = openblas_core(cpuinfo)
    if expected and os.environ.get("OPENBLAS_CORETYPE") == expected:
        assert core.lower() == expected.lower()
