#!/usr/bin/env python3
"""Sprout benchmark harness.

    python benchmarks/run.py [--smoke] [--threads N] [--out benchmarks/RESULTS.md]

Sprout runs in the project's .venv; the peers (NumPy, PyTorch, JAX,
MindSpore) in the separate bench venv made by benchmarks/peers_env.sh. Each
framework gets its own worker process (see harness/), all pinned to the same
thread count, and their samples are interleaved.

--smoke: Sprout only, one tiny iteration of every workload (with its
correctness check), no peers, no machine probe, no RESULTS.md; exits
non-zero on any failure. Meant for `make test`.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import shlex
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
# The parent writes the data pipelines' files with this checkout's Sprout (its JPEG encoder).
sys.path.insert(0, os.path.join(REPO, "python"))

import machine  # noqa: E402
from harness import frameworks, report, runner  # noqa: E402
from harness.load import measure_quietly  # noqa: E402
from harness.registry import load_all  # noqa: E402
from harness.workers import Worker, WorkerError  # noqa: E402


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description="Benchmark Sprout against its peers.")
    ap.add_argument("--smoke", action="store_true",
                    help="Sprout only, one tiny iteration per workload, no report")
    ap.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)),
                    help="threads for every framework (default: all usable CPUs)")
    ap.add_argument("--out", default=os.path.join(HERE, "RESULTS.md"))
    ap.add_argument("--only", default="", help="comma-separated workload names")
    ap.add_argument("--peers", default=",".join(frameworks.PEERS),
                    help="comma-separated peers to compare with")
    ap.add_argument("--rounds", type=int, default=runner.Options.rounds,
                    help="samples per framework and workload")
    ap.add_argument("--budget", type=float, default=runner.Options.budget_s,
                    help="rough seconds allowed per workload (fewer rounds if slow)")
    ap.add_argument("--wait-idle", type=float, default=120, metavar="SECONDS",
                    help="before each measurement, wait up to SECONDS for other "
                         "processes to leave the CPU (0: don't wait)")
    ap.add_argument("--retry-noisy", type=int, default=2, metavar="N",
                    help="measure a workload again (up to N times) if other "
                         "processes loaded the machine meanwhile")
    ap.add_argument("--sprout-python", default=None,
                    help="Python of Sprout's environment (default: .venv/bin/python)")
    ap.add_argument("--bench-venv", default=os.path.join(REPO, ".bench-venv"),
                    help="the peers' venv made by benchmarks/peers_env.sh")
    return ap.parse_args(argv)


def sprout_python(args) -> str:
    if args.sprout_python:
        return args.sprout_python
    venv_py = os.path.join(REPO, ".venv", "bin", "python")
    return venv_py if os.path.exists(venv_py) else sys.executable


def peer_status(args, wanted) -> dict:
    """{peer: {"status", "python"}} from peers_env.sh's record; a peer that
    was not installed keeps its reason."""
    path = os.path.join(args.bench_venv, "peers_status.json")
    try:
        with open(path) as f:
            recorded = json.load(f)
    except (OSError, ValueError):
        recorded = {}
    out = {}
    for name in wanted:
        if name == "sprout_graph":  # Sprout itself, compiled: this checkout's environment
            out[name] = {"status": "ok", "python": sprout_python(args)}
            continue
        out[name] = dict(recorded.get(frameworks.VARIANT_OF.get(name, name)) or {
            "status": f"missing: not installed (no entry in {path}; "
                      "run `bash benchmarks/peers_env.sh`)"})
    return out


def sprout_env() -> dict:
    """This checkout's python/ first on Sprout's path: the .venv may be
    shared by several git worktrees, and its .pth names only one of them."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (os.path.join(REPO, "python"), env.get("PYTHONPATH")) if p)
    return env


def start_workers(fw_info: dict, threads: int) -> dict:
    """Starts a worker per available framework; records import failures."""
    workers = {}
    for name, info in fw_info.items():
        if not info["status"].startswith("ok"):
            continue
        print(f"starting {name} worker ({info['python']}) ...", file=sys.stderr)
        try:
            wk = Worker(name, info["python"], threads,
                        env=sprout_env() if name in ("sprout", "sprout_graph") else None)
        except (OSError, WorkerError) as e:
            info["status"] = f"missing: worker did not start: {e}"
            continue
        module = wk.hello.get("module") or ""
        if name in ("sprout", "sprout_graph") and wk.hello.get("ok") and \
                not module.startswith(os.path.join(REPO, "python") + os.sep):
            # Another checkout's Sprout would be measured under this one's name.
            wk.hello = {"ok": False, "error": f"imported {module}, not {REPO}/python"}
        if wk.hello.get("ok"):
            info["version"] = wk.hello["version"]
            info["module"] = module
            workers[name] = wk
        else:
            info["status"] = f"missing: {wk.hello.get('error')}"
            wk.close()
    return workers


def selected_workloads(args) -> list:
    table = load_all()
    names = [n for n in args.only.split(",") if n] or list(table)
    unknown = [n for n in names if n not in table]
    if unknown:
        sys.exit(f"unknown workload(s): {', '.join(unknown)}; known: {', '.join(table)}")
    return [table[n] for n in names]


def smoke(args) -> int:
    workloads = selected_workloads(args)
    info = {"sprout": {"status": "ok", "python": sprout_python(args)}}
    workers = start_workers(info, args.threads)
    if not workers:
        print(f"SMOKE FAILED: Sprout unavailable ({info['sprout']['python']}): "
              f"{info['sprout']['status']}", file=sys.stderr)
        return 1
    failures = 0
    try:
        with tempfile.TemporaryDirectory(prefix="sprout-bench-files-") as files_root:
            for w in workloads:
                res = runner.run_workload(w, workers, runner.Options(smoke=True, files_root=files_root))["sprout"]
                if res.error:
                    failures += 1
                    print(f"FAIL {w.name}: {res.error}", file=sys.stderr)
                else:
                    print(f"ok   {w.name}: {report.fmt(res.summary.median)} {w.unit}")
    finally:
        for wk in workers.values():
            wk.close()
    print(f"{len(workloads) - failures} passed, {failures} failed")
    return 1 if failures else 0


def full(args) -> int:
    workloads = selected_workloads(args)
    peers = [p for p in args.peers.split(",") if p]
    for p in peers:
        if p not in frameworks.PEERS:
            sys.exit(f"unknown peer {p}; known: {', '.join(frameworks.PEERS)}")
    # Only frameworks that some selected workload implements get a process.
    peers = [p for p in peers if any(p in w.impls for w in workloads)]
    info = {"sprout": {"status": "ok", "python": sprout_python(args)},
            **peer_status(args, peers)}
    cpu = machine.cpu_info()
    threads = args.threads

    def log(msg):
        print(msg, file=sys.stderr)

    quiet = dict(wait_s=args.wait_idle, retries=args.retry_noisy, log=log)
    # Machine limits first, while no framework process exists to disturb it.
    log(f"measuring machine limits ({threads} threads) ...")
    probe_dir = tempfile.TemporaryDirectory(prefix="sprout-machine-")
    probe = None
    try:
        probe = machine.build_probe(probe_dir.name)
        triad_elems = sorted({w.triad_elems for w in workloads if w.triad_elems})
        limits, load = measure_quietly(lambda: machine.measure(threads, triad_elems, exe=probe),
                                       "the machine limits", **quiet)
        limits["foreign_load"], limits_error = load, None
    except Exception as e:  # noqa: BLE001  (no gcc, no OpenMP, ...)
        limits, limits_error = None, f"{type(e).__name__}: {e}"

    def conditions_now(w) -> report.Conditions:
        """Where the threads' cores sit right now and, for a bandwidth workload, what its triad gets
        there (see machine.py): the host may move them mid-run. Context, never a reason to stop."""
        c = report.Conditions()
        if not probe:
            return c
        try:
            if threads >= 2:
                c.round_trip_ns = machine.round_trip_ns(probe)
            if w.kind == "bandwidth" and w.triad_elems:
                c.triad_gbps = machine.triad_gbps(probe, threads, w.triad_elems)
        except Exception:  # noqa: BLE001
            pass
        return c

    workers = start_workers(info, threads)
    if "sprout" not in workers:
        print(f"WARNING: Sprout not measured: {info['sprout']['status']}", file=sys.stderr)
    files_root = tempfile.TemporaryDirectory(prefix="sprout-bench-files-")
    opt = runner.Options(rounds=args.rounds, budget_s=args.budget, files_root=files_root.name)
    measured = []
    try:
        for w in workloads:
            log(f"running {w.name} ...")
            conditions = conditions_now(w)
            results, load = measure_quietly(
                lambda: runner.run_workload(w, workers, opt), w.name,  # noqa: B023
                pids=[wk.proc.pid for wk in workers.values()], **quiet)
            # Frameworks that never started still get a row saying why.
            for name, fi in info.items():
                if name not in results and (name in w.impls or
                                            name not in frameworks.VARIANT_OF):
                    results[name] = runner.Result(name, error=fi["status"])
            results = {n: results[n] for n in info if n in results}
            measured.append((w, results, load, conditions))
            print("\n".join(report.workload_table(w, results, limits, threads, load, conditions)))
            replace_stopped_workers(workers, info)
    finally:
        for wk in workers.values():
            wk.close()
        files_root.cleanup()
        probe_dir.cleanup()

    run = {
        "command": "python benchmarks/run.py " + shlex.join(sys.argv[1:]),
        "date": datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "threads": threads, "cpu_model": cpu["model"], "cores": cpu["usable_cpus"],
        "frameworks": info, "machine": limits, "machine_error": limits_error,
        "workloads": measured,
    }
    write_atomically(args.out, report.render(run) + "\n")
    print("\n".join(report.summary_section(measured, limits, threads)))
    log(f"wrote {args.out}")
    sprout_ok = all(r["sprout"].summary is not None for _, r, _, _ in measured)
    return 0 if sprout_ok else 1


def write_atomically(path: str, text: str) -> None:
    """A temporary file beside `path`, renamed over it: an interrupted run leaves the old report whole."""
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", dir=os.path.dirname(os.path.abspath(path)))
    try:
        with os.fdopen(fd, "w") as f:
            os.fchmod(f.fileno(), 0o644)  # mkstemp's 0600 would hide the report from other users
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def replace_stopped_workers(workers, info):
    """A worker stopped after a timeout (or that died) gets a fresh process for the workloads still to
    come; one that cannot start again is dropped, its rows saying why."""
    for name, wk in list(workers.items()):
        if wk.alive():
            continue
        wk.close()
        try:
            workers[name] = wk.fresh_copy()
        except WorkerError as e:
            del workers[name]
            info[name]["status"] = f"stopped: {e}"


def main(argv=None) -> int:
    args = parse_args(argv)
    return smoke(args) if args.smoke else full(args)


if __name__ == "__main__":
    sys.exit(main())
