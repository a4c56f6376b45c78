"""MindSpore's documentation examples, run by MindSpore and by Sprout, their printed outputs compared.

Every public name of mindspore and of its ops, nn, train, amp, dataset (vision, transforms, text, audio),
mindrecord, mint and numpy namespaces (NAMESPACES), and every Tensor method, whose docstring has examples
and lists CPU among its platforms is run twice: once by MindSpore (in the peers' environment,
benchmarks/peers_env.sh) and once by Sprout with `import mindspore` meaning `import sprout`. What the
examples print is compared number by number (relative 2e-3, as MindSpore's docs print few digits) and word
by word. The examples stay in MindSpore's package: nothing of them is stored here; the report lists each
name with its verdict and, for the ones that differ, both outputs.

    python benchmarks/interop/doc_examples.py                     # both sides, report to stdout
    python benchmarks/interop/doc_examples.py --only ops.abs,nn.Dense --show
    python benchmarks/interop/doc_examples.py --graph   # every docstring in GRAPH_MODE: Cells compile
"""
import argparse
import contextlib
import doctest
import importlib
import importlib.abc
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
MINDSPORE_PYTHON = os.path.join(REPO, ".bench-venv", "mindspore", "bin", "python")
SPROUT_PYTHON = os.path.join(REPO, ".venv", "bin", "python")
TASK_TIMEOUT_S = 60


# ---- collecting the examples (MindSpore's side) ----

def _platforms(doc):
    """The platforms a docstring's "Supported Platforms" section names, or None when it has none."""
    match = re.search(r"Supported Platforms:\s*(.*?)\n\s*\n", doc + "\n\n", re.S)
    return None if match is None else re.findall(r"``(\w+)``", match.group(1))


# Where the examples are read: (prefix of the reported names, the module or class below mindspore).
NAMESPACES = (("ops", "ops"), ("nn", "nn"), ("Tensor", "Tensor"), ("mindspore", ""), ("train", "train"),
              ("amp", "amp"), ("dataset", "dataset"), ("dataset.vision", "dataset.vision"),
              ("dataset.transforms", "dataset.transforms"), ("dataset.text", "dataset.text"),
              ("dataset.audio", "dataset.audio"), ("mindrecord", "mindrecord"),
              ("experimental.optim", "experimental.optim"), ("mint", "mint"), ("mint.nn", "mint.nn"),
              ("mint.nn.functional", "mint.nn.functional"), ("numpy", "numpy"))


def _owner(path):
    import mindspore
    if path == "Tensor":
        return mindspore.Tensor
    return importlib.import_module("mindspore" + ("." + path if path else ""))


def collect():
    """{name: [example source, ...]} for every documented public name that runs on CPU."""
    parser = doctest.DocTestParser()
    seen, found = set(), {}
    for prefix, owner in ((prefix, _owner(path)) for prefix, path in NAMESPACES):
        for name in sorted(dir(owner)):
            if name.startswith("_"):
                continue
            try:
                doc = getattr(getattr(owner, name), "__doc__", None)
            except Exception:
                continue
            if not isinstance(doc, str) or ">>>" not in doc or id(doc) in seen:
                continue
            seen.add(id(doc))
            platforms = _platforms(doc)
            if platforms is not None and "CPU" not in platforms:
                continue
            examples = [e.source for e in parser.get_examples(doc)]
            if examples:
                found[f"{prefix}.{name}"] = examples
    return found


# ---- running one docstring's examples (either side) ----

class _AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Makes `import mindspore.x.y` import `sprout.x.y` (the module object itself, under both names)."""

    def find_spec(self, fullname, path, target=None):
        if fullname != "mindspore" and not fullname.startswith("mindspore."):
            return None
        target_name = "sprout" + fullname[len("mindspore"):]
        try:
            if importlib.util.find_spec(target_name) is None:
                return None
        except ModuleNotFoundError:
            return None
        return importlib.util.spec_from_loader(fullname, self, origin=target_name)

    def create_module(self, spec):
        return importlib.import_module(spec.origin)

    def exec_module(self, module):
        pass


def run_examples(name, sources):
    """Runs one docstring's examples in a fresh namespace: [{"out": printed text, "err": ...}, ...],
    stopping at the first example that raises. Each example's source is registered with linecache, as
    doctest does, so that both compilers can read the functions it defines."""
    import linecache
    import numpy as np
    np.random.seed(0)
    namespace = {"__name__": "__doc_example__"}
    results = []
    for index, source in enumerate(sources):
        filename = f"<example {name} {index}>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        buffer = io.StringIO()
        entry = {}
        try:
            with contextlib.redirect_stdout(buffer):
                code = compile(source, filename, "single")  # "single" echoes bare expressions, like >>>
                exec(code, namespace)
        except BaseException as error:  # an example may raise anything, SystemExit included
            entry["err"] = f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}"
        entry["out"] = buffer.getvalue()
        results.append(entry)
        if "err" in entry:
            break
    return results


def worker(framework):
    """Reads {"name", "sources"} lines on stdin, answers one JSON line of results per task."""
    if framework == "sprout":
        sys.meta_path.insert(0, _AliasFinder())
        sys.path.insert(0, os.path.join(REPO, "python"))
    import mindspore
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    real_stdout = sys.stdout
    for line in sys.stdin:
        task = json.loads(line)
        if task.get("collect"):
            real_stdout.write(json.dumps(collect()) + "\n")
        else:
            # Each docstring starts in the sweep's mode; GRAPH_MODE compiles the Cells the examples call.
            mindspore.set_context(mode=mindspore.GRAPH_MODE if task.get("graph") else mindspore.PYNATIVE_MODE)
            results = run_examples(task["name"], task["sources"])
            real_stdout.write(json.dumps({"name": task["name"], "results": results}) + "\n")
        real_stdout.flush()


class Worker:
    """A worker process of one framework, restarted after a task that hangs or kills it."""

    def __init__(self, python, framework):
        self.command = [python, os.path.abspath(__file__), "--worker", framework]
        self.process = None

    def _start(self):
        env = dict(os.environ, OMP_NUM_THREADS="2", GLOG_v="3", PYTHONWARNINGS="ignore")
        self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, env=env, cwd="/tmp")

    def ask(self, task, timeout=TASK_TIMEOUT_S):
        if self.process is None or self.process.poll() is not None:
            self._start()
        self.process.stdin.write(json.dumps(task) + "\n")
        self.process.stdin.flush()
        import selectors
        selector = selectors.DefaultSelector()
        selector.register(self.process.stdout, selectors.EVENT_READ)
        if not selector.select(timeout):
            self.process.kill()
            self.process = None
            return {"results": [{"out": "", "err": f"Timeout: no reply within {timeout} s"}]}
        line = self.process.stdout.readline()
        if not line:
            self.process = None
            return {"results": [{"out": "", "err": "Crash: the worker process died"}]}
        return json.loads(line)

    def close(self):
        if self.process is not None:
            self.process.kill()


# ---- comparing ----

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|nan|inf)", re.I)


def _split(text):
    numbers = [float(m) for m in _NUMBER.findall(text)]
    words = re.sub(r"\s+", "", _NUMBER.sub("#", text))
    return numbers, words


def same_output(expected, got, rtol=2e-3, atol=1e-5):  # 2e-3: float16's one-ulp differences
    if expected.split() == got.split():
        return True
    (numbers_e, words_e), (numbers_g, words_g) = _split(expected), _split(got)
    if words_e != words_g or len(numbers_e) != len(numbers_g):
        return False
    import math
    for e, g in zip(numbers_e, numbers_g):
        if math.isnan(e) and math.isnan(g):
            continue
        if not (e == g or abs(e - g) <= atol + rtol * abs(e)):
            return False
    return True


def verdict(mindspore_results, sprout_results):
    """'pass', 'mindspore error' (the example fails in MindSpore too), 'sprout error' or 'differs'
    (main() tells 'random' apart: outputs that differ between two runs of MindSpore itself)."""
    if mindspore_results and "err" in mindspore_results[-1]:
        return "mindspore error"
    for index, expected in enumerate(mindspore_results):
        if index >= len(sprout_results):
            return "sprout error"
        got = sprout_results[index]
        if "err" in got:
            return "sprout error"
        if not same_output(expected["out"], got["out"]):
            return "differs"
    return "pass"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--only", help="comma-separated names (ops.abs, nn.Dense, Tensor.sum ...)")
    parser.add_argument("--show", action="store_true", help="print the sources and both outputs of failures")
    parser.add_argument("--json", help="also write every verdict and output to this file")
    parser.add_argument("--graph", action="store_true", help="run every docstring in GRAPH_MODE (both frameworks)")
    args = parser.parse_args()
    if args.worker:
        return worker(args.worker)
    mindspore_worker, sprout_worker = Worker(MINDSPORE_PYTHON, "mindspore"), Worker(SPROUT_PYTHON, "sprout")
    examples = mindspore_worker.ask({"collect": True}, timeout=300)
    if args.only:
        wanted = set(args.only.split(","))
        examples = {name: sources for name, sources in examples.items() if name in wanted}
    report, counts = {}, {}
    started = time.time()
    for name, sources in examples.items():
        task = {"name": name, "sources": sources, "graph": args.graph}
        expected = mindspore_worker.ask(task)["results"]
        got = sprout_worker.ask(task)["results"]
        outcome = verdict(expected, got)
        if outcome == "differs" and verdict(expected, mindspore_worker.ask(task)["results"]) == "differs":
            outcome = "random"  # MindSpore's own second run prints something else: random draws
        counts[outcome] = counts.get(outcome, 0) + 1
        report[name] = {"verdict": outcome, "sources": sources, "mindspore": expected, "sprout": got}
        if outcome in ("sprout error", "differs"):
            detail = got[-1].get("err", "") if outcome == "sprout error" else ""
            print(f"{outcome:15s} {name} {detail}", flush=True)
            if args.show:
                for source, e, g in zip(sources, expected, got + [{}] * len(expected)):
                    print("    >>> " + source.rstrip().replace("\n", "\n    ... "))
                    if e.get("out") or g.get("out") or g.get("err"):
                        print("      mindspore: " + e.get("out", "").rstrip().replace("\n", "\n                 "))
                        print("      sprout:    " + (g.get("err") or g.get("out", "")).rstrip().replace(
                            "\n", "\n                 "))
    mindspore_worker.close()
    sprout_worker.close()
    print(f"\n{len(examples)} documented names in {time.time() - started:.0f} s: " +
          ", ".join(f"{count} {outcome}" for outcome, count in sorted(counts.items())))
    if args.json:
        with open(args.json + ".tmp", "w") as f:
            json.dump(report, f, indent=1)
        os.replace(args.json + ".tmp", args.json)


if __name__ == "__main__":
    main()
