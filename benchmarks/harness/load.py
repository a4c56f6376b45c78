"""How much CPU OTHER processes took while we measured.

This machine may be shared (e.g. a compiler running beside the benchmark),
and a framework whose thread pool has to wait for a busy core can look many
times slower than it is. So each measurement records the machine's busy time
(/proc/stat, including time stolen by the hypervisor) minus our own CPU time
(the harness, its workers and their descendants such as a DataLoader's worker
processes, /proc/PID/stat, and waited-for children such as the machine
probe), as a fraction of the machine's capacity. The report
flags results taken under such load instead of passing them off as clean.
"""
from __future__ import annotations

import os
import time

HZ = os.sysconf("SC_CLK_TCK")
NOISY = 0.10  # above this fraction of the machine, results are flagged


def _machine_busy_s() -> float:
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    user, nice, system, idle, iowait, irq, softirq, steal = v
    return (user + nice + system + irq + softirq + steal) / HZ


def _process_stats() -> dict[int, list[str]]:
    """Every live process's /proc/PID/stat fields after the command name (fields[1] is its parent)."""
    stats = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as f:
                stats[int(entry)] = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # exited meanwhile
    return stats


def with_descendants(pids, stats=None) -> set[int]:
    """`pids` and every live process below them (from `stats`, else a fresh reading of /proc)."""
    children = {}
    for pid, fields in (stats if stats is not None else _process_stats()).items():
        children.setdefault(int(fields[1]), []).append(pid)
    tree, todo = set(), list(pids)
    while todo:
        pid = todo.pop()
        if pid not in tree:
            tree.add(pid)
            todo += children.get(pid, [])
    return tree


def _own_s(pids) -> float:
    stats = _process_stats()  # one reading of /proc serves both the tree and the times
    # utime, stime, and cutime, cstime: where an exited, reaped child's time went
    return sum(sum(int(stats[pid][i]) for i in (11, 12, 13, 14))
               for pid in with_descendants(pids, stats) if pid in stats) / HZ


class ForeignLoad:
    """with ForeignLoad(pids) as load: ...; then load.fraction."""

    def __init__(self, pids=()):
        self.pids = {os.getpid(), *pids}  # with their descendants, found at each reading
        self.fraction = None

    def __enter__(self):
        self.t0, self.busy0, self.own0 = time.monotonic(), _machine_busy_s(), _own_s(self.pids)
        return self

    def __exit__(self, *exc):
        wall = time.monotonic() - self.t0
        foreign = (_machine_busy_s() - self.busy0) - (_own_s(self.pids) - self.own0)
        self.fraction = max(0.0, foreign / (wall * os.cpu_count())) if wall > 0 else 0.0
        return False


def describe(fraction) -> str:
    if fraction is None:
        return "not measured"
    flag = " - results UNRELIABLE (the machine was shared)" if fraction > NOISY else ""
    return f"{fraction * 100:.0f}% of the machine's CPU{flag}"


def current_hogs(limit: int = 3) -> str:
    """The busiest other processes right now, to say who was loading the
    machine (read from /proc/PID/stat over a short interval)."""
    def snapshot():
        out = {}
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/stat") as f:
                    head, tail = f.read().rsplit(")", 1)
                fields = tail.split()
                out[pid] = (head.split("(", 1)[1], int(fields[11]) + int(fields[12]))
            except (OSError, IndexError):
                pass
        return out
    a = snapshot()
    time.sleep(0.5)
    b = snapshot()
    me = str(os.getpid())
    use = sorted(((b[p][1] - a[p][1], b[p][0]) for p in b if p in a and p != me), reverse=True)
    return ", ".join(f"{name} {ticks / HZ / 0.5 * 100:.0f}%"
                     for ticks, name in use[:limit] if ticks)


def wait_until_idle(max_wait_s: float, log) -> bool:
    """Waits up to max_wait_s for a 1-second window in which other
    processes leave the CPU nearly idle; returns whether one came."""
    deadline = time.monotonic() + max_wait_s
    next_log = 0.0
    while True:
        with ForeignLoad() as load:
            time.sleep(1)
        if load.fraction <= NOISY / 2:
            return True
        now = time.monotonic()
        if now >= deadline:
            log(f"machine still busy after {max_wait_s:.0f} s; measuring anyway")
            return False
        if now >= next_log:  # say why we wait, but not every second
            log(f"waiting for an idle machine (others use {load.fraction * 100:.0f}%: "
                f"{current_hogs() or '?'}) ...")
            next_log = now + 15


def measure_quietly(fn, what: str, pids=(), wait_s: float = 0, retries: int = 0, log=print):
    """Runs fn() (a whole measurement) while watching other processes' load.
    If they took more than NOISY of the machine, waits for quiet and measures
    again, up to `retries` times. Returns (fn's value, the last load)."""
    for attempt in range(retries + 1):
        if wait_s > 0:
            wait_until_idle(wait_s, log)
        with ForeignLoad(pids) as load:
            value = fn()
        if load.fraction <= NOISY:
            break
        again = "; measuring again" if attempt < retries else ""
        log(f"WARNING: other processes used {load.fraction * 100:.0f}% of the CPU "
            f"during {what} (now: {current_hogs() or 'none'}){again}")
    return value, load.fraction


def _cpu_ns(pids) -> int:
    """CPU time of all threads of the processes `pids` so far, in ns (/proc/PID/task/*/schedstat)."""
    total = 0
    for p in pids:
        try:
            tasks = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{p}/task/{tid}/schedstat") as f:
                    total += int(f.read().split()[0])
            except (OSError, ValueError, IndexError):
                continue
    return total


def wait_for_worker_idle(pid: int, max_s: float = 0.3, window_s: float = 0.004) -> float:
    """Waits until process `pid` and the processes below it (a DataLoader's workers) stop using the CPU
    (at most `max_s`); returns the seconds waited.

    After its sample, a framework's thread pool keeps spinning for a while before it sleeps (OpenBLAS's
    pthreads spin far longer than OpenMP's), and a sample of the next framework taken meanwhile runs
    on half the cores: a fixed short pause let 1024^3 matmuls measure 200 GFLOP/s instead of 390."""
    start = time.perf_counter()
    tree = with_descendants([pid])  # once: reading all of /proc every window would cost the window itself
    before = _cpu_ns(tree)
    while time.perf_counter() - start < max_s:
        time.sleep(window_s)
        now = _cpu_ns(tree)
        if now - before < window_s * 1e9 * 0.1:  # under a tenth of a core over the window: asleep
            break
        before = now
    return time.perf_counter() - start
