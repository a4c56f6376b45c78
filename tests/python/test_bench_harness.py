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
