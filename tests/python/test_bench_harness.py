"""The benchmark harness's own bookkeeping (benchmarks/harness): what counts as another process's
load, how throughput is reported, and the files a data workload reads. `make test` also runs every
workload once on Sprout (benchmarks/run.py --smoke)."""
import os
import signal
import subprocess
import sys
import time

import pytest

BENCHMARKS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "benchmarks")
sys.path.insert(0, BENCHMARKS)

from harness import load, runner  # noqa: E402
from harness.registry import Workload  # noqa: E402
from harness.stats import Summary  # noqa: E402

BUSY = "import time\nt = time.process_time()\nwhile time.process_time() - t < 1.0: pass\n"


def test_a_workers_descendants_count_as_its_own_cpu_time():
    # A DataLoader's worker processes are children of the framework's worker: their CPU time is the
    # framework's, not another process's load. Here a shell (which itself sleeps) has a busy child.
    shell = subprocess.Popen(["sh", "-c", f'"{sys.executable}" -c "$0"', BUSY], start_new_session=True)
    try:
        time.sleep(0.1)
        assert len(load.with_descendants([shell.pid])) == 2
        before = load._own_s([shell.pid])
        time.sleep(0.4)
        spent = load._own_s([shell.pid]) - before  # the child is still running
    finally:
        os.killpg(shell.pid, signal.SIGKILL)  # the shell and its child
        shell.wait()
    assert spent >= 0.2


def test_throughput_is_rows_per_second():
    w = Workload(name="rows", kind="throughput", doc="", inputs=lambda np, smoke: {}, check=lambda np, f: None,
                 amount=lambda smoke: 1000)
    assert (w.unit, w.lower_is_better) == ("rows/s", False)
    assert w.metric(0.5) == pytest.approx(2000)


def test_workload_files_are_written_once_per_run(tmp_path):
    calls = []

    def write(folder, smoke):
        calls.append(smoke)
        with open(os.path.join(folder, "data.bin"), "wb") as f:
            f.write(b"x")

    w = Workload(name="reads_files", kind="throughput", doc="", inputs=lambda np, smoke: {},
                 check=lambda np, f: None, amount=lambda smoke: 1, files=write)
    opt = runner.Options(smoke=True, files_root=str(tmp_path))
    folder = runner.workload_files(w, opt)
    assert runner.workload_files(w, opt) == folder and calls == [True]
    assert os.listdir(folder) == ["data.bin"] and not os.path.exists(folder + ".partial")
    with pytest.raises(ValueError, match="reads_files reads files, but no Options.files_root"):
        runner.workload_files(w, runner.Options(smoke=True))


def test_the_probe_times_a_cache_line_between_two_cores(tmp_path):
    # machine_limits.c's pingpong, as run.py uses it before every workload: the round trip says whether
    # the two threads' cores share a core complex (the report's words for it come from the number).
    import machine
    from harness import report
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("the round trip needs two usable CPUs; this process has one")
    ns = machine.round_trip_ns(machine.build_probe(str(tmp_path)))
    assert 5 < ns < 5000
    assert report.round_trip_words(60.0) == "60 ns (one core complex)"
    assert report.round_trip_words(330.0) == "330 ns (two core complexes, each with its own L3)"
    assert report.round_trip_words(None) == "not measured"


def test_a_bandwidth_workload_is_compared_with_its_triad_measured_just_before(tmp_path):
    # The limits table's triad@4M may have been taken with the cores in two core complexes (two L3s,
    # ~1.6x the bandwidth of one): the report compares with the triad taken just before the workload.
    import machine
    from harness import report
    w = Workload(name="stream_4m", kind="bandwidth", doc="x", inputs=None, amount=lambda smoke: 1,
                 check=lambda *a: None, triad_elems=4 << 20)
    limits = {"peak_gflops": {2: 200.0}, "triad_gbps": {4 << 20: {2: 120.0}}}
    summary = Summary(n=3, median=60.0, q1=58.0, q3=62.0, min=55.0, max=65.0)  # GB/s
    value = summary.median
    assert report.limit_fraction(w, value, limits, 2) == (value / 120.0, "of triad@4M")
    before = report.Conditions(round_trip_ns=64.0, triad_gbps=75.0)
    assert report.limit_fraction(w, value, limits, 2, before) == (value / 75.0, "of triad@4M just before")
    table = "\n".join(report.workload_table(w, {"sprout": runner.Result("sprout", summary=summary)},
                                            limits, 2, None, before))
    assert "round trip between the threads' cores just before: 64 ns (one core complex)" in table
    assert "Triad@4M just before: 75.0 GB/s." in table
    assert "| 80% of triad@4M just before |" in table
    flops = Workload(name="gemm", kind="flops", doc="x", inputs=None, amount=lambda smoke: 1,
                     check=lambda *a: None)
    assert report.limit_fraction(flops, 100.0, limits, 2, before) == (0.5, "of peak")
    # The probe's own triad, as run.py takes it before each bandwidth workload.
    gbps = machine.triad_gbps(machine.build_probe(str(tmp_path)), 1, 1 << 16)
    assert 1 < gbps < 10000


def test_a_stopped_worker_is_replaced_for_the_workloads_after_it():
    # A peer stuck past its timeout is stopped (its log removed with it); the run then gives the next
    # workloads a fresh process instead of failing on the dead one (a whole run was once lost that way).
    import run as bench_run
    from harness.workers import Worker, WorkerError
    wk = Worker("numpy", sys.executable, 1)
    workers, info = {"numpy": wk}, {"numpy": {"status": "ok"}}
    try:
        wk.proc.kill()
        wk.proc.wait()
        assert not wk.alive()
        with pytest.raises(WorkerError, match="numpy worker is gone"):
            wk.request(op="setup", workload="add_1m", smoke=True, files={}, target_s=0.01, warmup_s=0.0)
        wk.close()
        wk.close()  # a second close does nothing
        with pytest.raises(WorkerError, match="numpy worker was stopped earlier"):
            wk.request(op="setup", workload="add_1m", smoke=True, files={}, target_s=0.01, warmup_s=0.0)
        bench_run.replace_stopped_workers(workers, info)
        assert workers["numpy"] is not wk and workers["numpy"].alive()
        assert workers["numpy"].request(op="setup", workload="add_1m", smoke=True, files={}, target_s=0.01,
                                        warmup_s=0.0)["ok"]
    finally:
        for w in workers.values():
            w.close()


def test_the_optimizer_benchmark_runs_every_update():
    import optimizers  # benchmarks/optimizers.py

    times = optimizers.main(n=37, number=1, repeat=1)  # 37: two vectors and a tail on any target
    assert sorted(times) == sorted(["Momentum", "GradientDescent", "SGD", "Adam", "AdamWeightDecay", "RMSProp",
                                    "CenteredRMSProp", "Adagrad", "AdaMax", "Adadelta", "Lamb"])
    assert all(t > 0 for t in times.values())


def test_the_layer_spot_check_runs_on_sprout():
    import layers_vs_torch  # benchmarks/layers_vs_torch.py; its PyTorch half needs the peers' venv

    small = [(name, mine, theirs, (2,) + shape[1:]) for name, mine, theirs, shape in layers_vs_torch.CASES]
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(BENCHMARKS), "python"))
    times = layers_vs_torch.run(sys.executable, "sprout", env, small)
    assert set(times) == {c[0] for c in small} | set(layers_vs_torch.SPECIAL) and all(t > 0 for t in times.values())


def test_the_half_precision_spot_check_runs_on_sprout():
    import half_precision  # benchmarks/half_precision.py; its PyTorch half needs the peers' venv

    small = {"x": (8, 16), "a": (8, 8), "b": (8, 8), "img": (1, 4, 5, 5), "w": (4, 4, 3, 3)}
    cases = [(name, mine, theirs.replace("(1024,)", "(16,)")) for name, mine, theirs in half_precision.CASES]
    cases = [(n, m.replace("(1024,)", "(16,)"), t) for n, m, t in cases]
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(BENCHMARKS), "python"))
    for dtype in ("float16", "bfloat16"):
        times = half_precision.run(sys.executable, "sprout", dtype, env, cases, small)
        assert set(times) == {c[0] for c in cases} and all(t > 0 for t in times.values())
