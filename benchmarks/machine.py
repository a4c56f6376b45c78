"""Measures this machine's limits instead of assuming them.

* peak FP32 FLOP/s: machine_limits.c (vector FMA chains), compiled here at
  run time with gcc -O3 -march=native -fopenmp, on 1 thread and on N threads;
* memory bandwidth: a STREAM-style triad a[i] = b[i] + s*c[i] in float32,
  counted as 3 arrays x 4 bytes per element (STREAM's convention, which does
  NOT count the write-allocate read of a; the figure with it, 4/3 larger,
  is kept beside it). Run with plain stores and with streaming
  (non-temporal) stores, alternately; the limit is the better of the two
  (streaming wins beyond the last-level cache, plain within it). Measured
  both far beyond L3 (DRAM) and at the element counts the workloads use, so
  a workload is compared with the triad of the same footprint;
* with two or more threads, how long a cache line takes from one thread's
  core to the other's and back (machine_limits.c pingpong): tens of
  nanoseconds within a core complex, several times that between complexes,
  where a virtual machine's vCPUs sometimes sit (then each thread has an L3
  of its own, and data one writes and the other reads crosses the fabric);
* the theoretical peak (cores x FMA units x lanes x 2 x clock) from
  /proc/cpuinfo, printed only as context: the FMA-unit count is a
  per-microarchitecture assumption, and the clock there is the nominal one.

Usage: python benchmarks/machine.py [--threads N]   (prints JSON)
Only the standard library is used, so any Python can run it.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROBE_SRC = os.path.join(HERE, "machine_limits.c")


def cpu_info() -> dict:
    """CPU model, logical/physical core counts, nominal clock, ISA flags."""
    procs, physical, fields = 0, set(), {}
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, value = line.partition(":")
            key, value = key.strip(), value.strip()
            if key == "processor":
                procs += 1
                phys_id = None
            elif key == "physical id":
                phys_id = value
            elif key == "core id":
                physical.add((phys_id, value))
            fields.setdefault(key, value)  # first processor's values
    mhz = float(fields.get("cpu MHz", "0") or 0)
    max_khz = _read("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")
    if max_khz:
        mhz = int(max_khz) / 1000.0
    return {
        "model": fields.get("model name", "unknown"),
        "vendor": fields.get("vendor_id", "unknown"),
        "family": int(fields.get("cpu family", "0") or 0),
        "model_id": int(fields.get("model", "0") or 0),
        "logical_cpus": procs,
        "physical_cores": len(physical) or procs,
        "usable_cpus": len(os.sched_getaffinity(0)),
        "mhz": mhz,
        "flags": set(fields.get("flags", "").split()),
        "l3_bytes": _l3_bytes(),
    }


def _read(path: str) -> str | None:
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def _l3_bytes() -> int | None:
    for idx in range(8):
        base = f"/sys/devices/system/cpu/cpu0/cache/index{idx}"
        if _read(f"{base}/level") == "3":
            size = _read(f"{base}/size") or ""
            mult = {"K": 1 << 10, "M": 1 << 20}.get(size[-1:], 1)
            return int(size.rstrip("KM")) * mult if size else None
    return None


def fma_units_and_lanes(info: dict) -> tuple[int, int, str]:
    """(FMA pipes per core, FP32 lanes per pipe, why): an assumption by
    microarchitecture, since /proc/cpuinfo does not tell the pipe width."""
    fam, model, flags = info["family"], info["model_id"], info["flags"]
    if info["vendor"] == "AuthenticAMD":
        if fam == 0x1A:
            return 2, 16, "AMD Zen 5: 2 x 512-bit FMA pipes"
        if fam == 0x19 and "avx512f" in flags:
            return 2, 8, "AMD Zen 4: 2 x 256-bit FMA pipes (AVX-512 double-pumped)"
        if fam in (0x17, 0x19):
            return 2, 8, "AMD Zen 2/3: 2 x 256-bit FMA pipes"
    if "avx512f" in flags:
        return 2, 16, "AVX-512 CPU, assumed 2 x 512-bit FMA pipes (some parts have 1)"
    if "fma" in flags:
        return 2, 8, "AVX2/FMA CPU, assumed 2 x 256-bit FMA pipes"
    return 1, 4, "no FMA flag, assumed 1 x 128-bit"


def theoretical_gflops(info: dict, threads: int) -> dict:
    units, lanes, why = fma_units_and_lanes(info)
    cores = min(threads, info["physical_cores"])
    per_cycle = units * lanes * 2  # an FMA is 2 FLOPs
    return {
        "cores": cores, "fma_units": units, "lanes": lanes, "ghz": info["mhz"] / 1000,
        "gflops": cores * per_cycle * info["mhz"] / 1000, "assumption": why,
    }


def build_probe(workdir: str) -> str:
    exe = os.path.join(workdir, "machine_limits")
    cmd = ["gcc", "-O3", "-march=native", "-fopenmp", PROBE_SRC, "-o", exe]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return exe


def _probe(exe: str, *args) -> dict:
    env = dict(os.environ, OMP_PROC_BIND="close", OMP_PLACES="cores")
    out = subprocess.run([exe, *map(str, args)], check=True, capture_output=True,
                         text=True, env=env).stdout
    return json.loads(out)


def triad_sizes(info: dict, extra_sizes=()) -> list[int]:
    # DRAM size: each array at least 4x L3 (and >= 128 MB) so caches cannot help.
    l3 = info["l3_bytes"] or (32 << 20)
    dram_n = max(32 << 20, 4 * l3 // 4)
    return sorted({dram_n, *extra_sizes})


def round_trip_ns(exe: str) -> float:
    """Nanoseconds for a cache line to go from one thread's core to another's and back."""
    return _probe(exe, "pingpong", 100_000)["round_trip_ns"]


def triad_reps(n: int) -> int:
    """~2 GB moved per size bounds the time; >= 10 reps, of which the best counts."""
    return max(10, min(2000, int(2e9 / (12 * n))))


def triad_gbps(exe: str, threads: int, n: int) -> float:
    """The triad's GB/s over n floats x 3 arrays on `threads` threads, plain or streaming stores."""
    return _probe(exe, "triad", threads, n, triad_reps(n))["gbps"]


def measure(threads: int, triad_elems=(), flops_seconds: float = 0.3, exe: str | None = None) -> dict:
    """Peak FLOP/s and triad GB/s on 1 thread and on `threads` threads.
    triad_elems: extra triad sizes (elements), e.g. the workloads' sizes.
    exe: a probe from build_probe (else one is built and removed here)."""
    info = cpu_info()
    counts = sorted({1, threads})
    workdir = tempfile.mkdtemp(prefix="sprout-machine-")
    try:
        exe = exe or build_probe(workdir)
        round_trip = round_trip_ns(exe) if threads >= 2 else None
        flops = {t: _probe(exe, "flops", t, flops_seconds) for t in counts}
        triad = {}
        dram_n = triad_sizes(info)[-1]
        for n in triad_sizes(info, triad_elems):
            triad[n] = {t: _probe(exe, "triad", t, n, triad_reps(n)) for t in counts}
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return {
        "cpu": {k: v for k, v in info.items() if k != "flags"},
        "threads": counts,
        "isa": flops[1]["isa"],
        "peak_gflops": {t: flops[t]["gflops"] for t in counts},
        "core_round_trip_ns": round_trip,
        "theoretical": {t: theoretical_gflops(info, t) for t in counts},
        "triad_dram_n": dram_n,
        "triad_gbps": {n: {t: r["gbps"] for t, r in by_t.items()} for n, by_t in triad.items()},
        "triad_gbps_plain": {n: {t: r["gbps_plain"] for t, r in by_t.items()} for n, by_t in triad.items()},
        "triad_gbps_streaming": {
            n: {t: r["gbps_streaming"] for t, r in by_t.items()} for n, by_t in triad.items()},
        "triad_gbps_with_write_allocate": {
            n: {t: r["gbps_with_write_allocate"] for t, r in by_t.items()}
            for n, by_t in triad.items()},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    args = ap.parse_args()
    print(json.dumps(measure(args.threads, (1 << 20, 4 << 20)), indent=2))


if __name__ == "__main__":
    main()
