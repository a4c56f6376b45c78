"""Note [OpenBLAS core on new Intel CPUs]
Debian's OpenBLAS (0.3.21, DYNAMIC_ARCH) picks its kernels by CPU model when it is loaded, and takes an
Intel model it does not know (an Emerald Rapids Xeon, family 6 model 207) for "Prescott": SSE3 kernels,
a 64^3 sgemm 20 us instead of 5 (26 against 99 GFLOP/s on two threads), and every product below
oneDNN's sizes that slow. OpenBLAS reads OPENBLAS_CORETYPE once, as it loads, which is when `_C` loads:
so before that, on an Intel CPU with AVX-512, the AVX-512 kernels are named by the CPU's features
(Cooperlake's with bfloat16 instructions, SkylakeX's otherwise), which is what OpenBLAS picks for the
Intel models it knows. A value the user set is kept; other vendors are left to OpenBLAS's detection.
"""


def openblas_core(cpuinfo):
    """The OPENBLAS_CORETYPE to set for a CPU described by /proc/cpuinfo's text, or None."""
    fields = {}
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
    flags = set(fields.get("flags", "").split())
    if fields.get("vendor_id") != "GenuineIntel" or "avx512f" not in flags:
        return None
    return "Cooperlake" if "avx512_bf16" in flags else "SkylakeX"


def set_openblas_core(environ):
    if "OPENBLAS_CORETYPE" in environ:
        return
    try:
        with open("/proc/cpuinfo") as f:
            core = openblas_core(f.read())
    except OSError:
        return
    if core:
        environ["OPENBLAS_CORETYPE"] = core
