"""Sprout benchmark harness.

Layout (one purpose per module):
  registry.py    the workload table: what a workload is, how its time becomes
                 a metric, and the per-framework implementations
  workloads/     the workloads themselves, one module per area
  frameworks.py  how each framework is imported and pinned to N threads
  worker.py      the process that runs ONE framework, driven over a pipe
  workers.py     the parent's handle on a worker process
  runner.py      warm-up, interleaved rounds (A B A B ...), statistics
  stats.py       median and spread
  load.py        CPU taken by other processes meanwhile; wait for quiet, flag noise
  report.py      RESULTS.md and the console table

Everything the parent imports uses only the standard library, so run.py can
run under any Python 3.9+; numpy and the frameworks are imported only inside
the worker processes, each in its own environment.
"""
