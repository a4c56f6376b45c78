"""The parent's handle on a worker process (see worker.py for the protocol).

Each framework lives in its own long-lived process so that (1) Sprout and
the peers can come from different Python environments, (2) each process
pins its own thread pools before importing its framework, and (3) the parent
can still interleave them sample by sample (A B A B ...).
"""
from __future__ import annotations

import json
import os
import select
import subprocess
import tempfile

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "worker.py")


class WorkerError(RuntimeError):
    pass


class Worker:
    def __init__(self, framework: str, python: str, threads: int, timeout_s: float = 600,
                 env: dict | None = None):
        self.framework = framework
        self.timeout_s = timeout_s
        self._spawn_args = (framework, python, threads, timeout_s, env)
        # Worker stderr (framework warnings, tracebacks) goes to a file, shown
        # only when something fails.
        self.log = tempfile.NamedTemporaryFile(
            "w+", prefix=f"sprout-bench-{framework}-", suffix=".log", delete=False)
        self.proc = subprocess.Popen(
            [python, WORKER, "--framework", framework, "--threads", str(threads)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
            text=True, bufsize=1, env=env)
        self.hello = self._read()  # {"ok", "version", ...} or the import error

    def alive(self) -> bool:
        return not self.log.closed and self.proc.poll() is None

    def _read(self) -> dict:
        ready, _, _ = select.select([self.proc.stdout], [], [], self.timeout_s)
        if not ready:  # stuck: stop it (the run replaces it with a fresh process for the next workload)
            self.close()
            raise WorkerError(f"{self.framework}: no reply within {self.timeout_s:.0f} s")
        line = self.proc.stdout.readline()
        if not line:
            raise WorkerError(f"{self.framework} worker died "
                              f"(exit {self.proc.wait()}): {self.stderr_tail()}")
        return json.loads(line)

    def request(self, **req) -> dict:
        """Sends one request; returns the reply, raising on {"ok": false}."""
        if self.log.closed:
            raise WorkerError(f"{self.framework} worker was stopped earlier")
        try:
            self.proc.stdin.write(json.dumps(req) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise WorkerError(f"{self.framework} worker is gone: {self.stderr_tail()}")
        rep = self._read()
        if not rep.get("ok"):
            raise WorkerError(rep.get("error", "unknown error"))
        return rep

    def fresh_copy(self) -> "Worker":
        """A new worker process of the same framework and settings."""
        return Worker(*self._spawn_args)

    def stderr_tail(self, lines: int = 8) -> str:
        if self.log.closed:
            return "(its log is gone with it)"
        self.log.flush()
        with open(self.log.name) as f:
            return " | ".join(f.read().strip().splitlines()[-lines:])

    def close(self) -> None:
        """Stops the process and removes its log; a second call does nothing."""
        if self.log.closed:
            return
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(json.dumps({"op": "quit"}) + "\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=10)
            except (BrokenPipeError, subprocess.TimeoutExpired, OSError):
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        os.unlink(self.log.name)
