"""Runs one workload on every live worker: setup (correctness check,
warm-up, calibration) in each, then rounds in which every framework takes
one sample in turn (A B C A B C ...), so slow drifts of the machine (clock,
other load) hit every framework alike. The first framework of each round
rotates, so none always runs right after another.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Optional

from .frameworks import VARIANT_OF
from .load import wait_for_worker_idle
from .registry import Workload
from .stats import Summary, summarize
from .workers import Worker, WorkerError


@dataclass
class Options:
    smoke: bool = False
    rounds: int = 21          # samples per framework (odd: a true median)
    min_rounds: int = 5       # even when the time budget is tight
    budget_s: float = 30.0    # rough time allowed for the rounds of one workload
    target_s: float = 0.05    # one sample lasts about this long (and
                              # amortizes an async framework's one wait)
    warmup_s: float = 0.2
    files_root: Optional[str] = None  # where workloads' files are written (a folder per workload)
    gap_s: float = 0.005      # pause between turns; then the previous framework's
                              # worker is waited for until its spinning thread pools
                              # (OpenMP, OpenBLAS) go idle (load.wait_for_worker_idle)


@dataclass
class Result:
    framework: str
    values: list = field(default_factory=list)   # metric per sample
    summary: Optional[Summary] = None
    error: Optional[str] = None
    repeats: int = 0
    peak_bytes: Optional[int] = None
    peak_error: Optional[str] = None


def workload_files(w: Workload, opt: Options) -> Optional[str]:
    """The folder of the files `w` reads, written on first use (None if it reads none)."""
    if not w.files:
        return None
    if opt.files_root is None:
        raise ValueError(f"{w.name} reads files, but no Options.files_root was given")
    folder = os.path.join(opt.files_root, w.name + ("-smoke" if opt.smoke else ""))
    if not os.path.isdir(folder):
        partial = folder + ".partial"
        os.makedirs(partial)
        w.files(partial, opt.smoke)
        os.rename(partial, folder)  # a folder that exists is complete
    return folder


def _measure_peak_memory(w: Workload, worker: Worker, res: Result, opt: Options, files) -> None:
    try:
        fresh = worker.fresh_copy()
        try:
            res.peak_bytes = fresh.request(op="peak_memory", workload=w.name, smoke=opt.smoke,
                                           files=files)["peak_bytes"]
        finally:
            fresh.close()
    except WorkerError as e:
        res.peak_error = str(e)


def run_workload(w: Workload, workers: dict[str, Worker], opt: Options) -> dict[str, Result]:
    # A variant (torch.compile, GRAPH_MODE) only appears where implemented.
    workers = {n: wk for n, wk in workers.items() if n in w.impls or n not in VARIANT_OF}
    results = {name: Result(name) for name in workers}
    live, sample_s = [], {}
    files = workload_files(w, opt)
    for name, wk in workers.items():
        if name not in w.impls:
            results[name].error = "no implementation of this workload"
            continue
        try:
            rep = wk.request(op="setup", workload=w.name, smoke=opt.smoke, files=files,
                             target_s=opt.target_s, warmup_s=0.0 if opt.smoke else opt.warmup_s)
        except WorkerError as e:
            results[name].error = str(e)
            continue
        results[name].repeats = rep["repeats"]
        sample_s[name] = rep["step_s"] * rep["repeats"]
        live.append(name)

    if w.peak_memory:
        for name in live:
            _measure_peak_memory(w, workers[name], results[name], opt, files)

    if opt.smoke:
        rounds = 1
    else:
        per_round = sum(sample_s.values()) + opt.gap_s * len(live)
        rounds = max(opt.min_rounds, min(opt.rounds, int(opt.budget_s / max(per_round, 1e-9))))
    times = {name: [] for name in live}
    previous = None
    for r in range(rounds):
        k = r % max(len(live), 1)
        for name in live[k:] + live[:k]:
            if results[name].error:
                continue
            if opt.gap_s:
                time.sleep(opt.gap_s)
            if previous is not None and not opt.smoke:
                wait_for_worker_idle(workers[previous].proc.pid)
            try:
                times[name] += workers[name].request(op="run", workload=w.name, samples=1)["times"]
            except WorkerError as e:
                results[name].error = str(e)
            previous = name

    for name in live:
        res = results[name]
        if not res.error:
            res.values = [w.metric(t, opt.smoke) for t in times[name]]
            res.summary = summarize(res.values)
        try:
            workers[name].request(op="drop", workload=w.name)
        except WorkerError:
            pass
    return results
