"""Turns measurements into Markdown: the machine, the frameworks, one table
per workload, and a summary in plain words derived from the numbers."""
from __future__ import annotations

from dataclasses import dataclass

from .frameworks import TITLES
from .load import NOISY, describe
from .registry import Workload

MIB = 1 << 20
# Below this a cache line's round trip between two cores stays inside one core complex (Zen 4: about
# 60 ns there, about 330 between complexes).
SAME_COMPLEX_NS = 150


def fmt(x: float) -> str:
    """About 3 significant digits, never in exponent form."""
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    if x >= 1:
        return f"{x:.2f}"
    return f"{x:.3g}"


def speedup(w: Workload, sprout: float, peer: float) -> float:
    """> 1 when Sprout is faster, whatever the unit's direction."""
    return peer / sprout if w.lower_is_better else sprout / peer


@dataclass
class Conditions:
    """The machine's state measured just before a workload: the host may move the threads' cores between
    core complexes mid-run, and with them what bandwidth a cache-sized working set gets (machine.py)."""
    round_trip_ns: float | None = None  # a cache line between the threads' cores and back
    triad_gbps: float | None = None     # a bandwidth workload's triad, at its size and thread count


def limit_fraction(w: Workload, value: float, machine: dict | None, threads: int, conditions: Conditions | None = None):
    """(fraction, label) of the measured machine limit, or None. A bandwidth workload is compared with
    the triad measured just before it when there is one: the limits table's triad may have been taken
    with the cores placed otherwise (with two L3s a 48 MB triad runs about 1.6x faster than with one)."""
    if w.kind == "flops" and machine:
        return value / machine["peak_gflops"][threads], "of peak"
    if w.kind != "bandwidth" or not w.triad_elems:
        return None
    size = f"triad@{w.triad_elems // MIB}M"
    if conditions and conditions.triad_gbps:
        return value / conditions.triad_gbps, f"of {size} just before"
    if machine and w.triad_elems in machine["triad_gbps"]:
        return value / machine["triad_gbps"][w.triad_elems][threads], f"of {size}"
    return None


def machine_section(m: dict, threads: int) -> list[str]:
    cpu, counts = m["cpu"], m["threads"]
    head = "| limit | " + " | ".join(f"{t} thread{'s' * (t > 1)}" for t in counts) + " |"
    rows = [head, "|---" * (len(counts) + 1) + "|"]

    def row(label, values):
        rows.append(f"| {label} | " + " | ".join(values) + " |")

    row(f"peak FP32, measured ({m['isa']} FMA chains), GFLOP/s",
        [fmt(m["peak_gflops"][t]) for t in counts])
    th = m["theoretical"]
    row("theoretical: cores x FMA units x lanes x 2 x clock, GFLOP/s",
        [f"{fmt(th[t]['gflops'])} ({th[t]['cores']} x {th[t]['fma_units']} x "
         f"{th[t]['lanes']} x 2 x {th[t]['ghz']:.2f} GHz)" for t in counts])
    # Measured / (FLOPs per cycle): above the nominal clock means boost.
    row("clock implied by the measured peak, GHz",
        [f"{m['peak_gflops'][t] / (th[t]['cores'] * th[t]['fma_units'] * th[t]['lanes'] * 2):.2f}"
         for t in counts])
    for n in sorted(m["triad_gbps"]):
        where = "DRAM" if n == m["triad_dram_n"] else "same size as workloads"
        row(f"triad a=b+s*c, {n // MIB}M floats x 3 arrays ({3 * 4 * n // MIB} MB, {where}), GB/s",
            [fmt(m["triad_gbps"][n][t]) for t in counts])
    n = m["triad_dram_n"]
    if "triad_gbps_plain" in m:
        row("triad DRAM, plain stores / streaming stores, GB/s",
            [f"{fmt(m['triad_gbps_plain'][n][t])} / {fmt(m['triad_gbps_streaming'][n][t])}" for t in counts])
    row("triad DRAM with plain stores, counting their write-allocate read (4 arrays), GB/s",
        [fmt(m["triad_gbps_with_write_allocate"][n][t]) for t in counts])
    return [
        f"- CPU: {cpu['model']} ({cpu['vendor']} family {cpu['family']} model "
        f"{cpu['model_id']}), {cpu['logical_cpus']} logical CPUs, "
        f"{cpu['physical_cores']} physical cores, nominal clock {cpu['mhz']:.0f} MHz, "
        f"L3 {(cpu['l3_bytes'] or 0) // MIB} MB",
        f"- Theoretical FMA units: {th[counts[0]]['assumption']} (an assumption by "
        "microarchitecture; the clock is the nominal one, boost can exceed it).",
        "- Triad GB/s follow STREAM: 3 arrays x 4 bytes per element, without the "
        "write-allocate read; the best of several repetitions, with plain or with "
        "streaming (non-temporal) stores, whichever is faster at that size.",
        *([f"- Cache-line round trip between the threads' cores: "
           f"{round_trip_words(m['core_round_trip_ns'])}. A virtual machine's vCPUs can sit on two "
           "core complexes: then each thread has an L3 of its own (the triads within twice the L3 "
           "run faster) and reads of data the other thread has just written cross the fabric. The "
           "host can move them during a run: each workload gives the round trip measured before it, "
           "and a bandwidth workload is compared with its triad measured just before it, not with this "
           "table's."]
          if m.get("core_round_trip_ns") else []),
        "", *rows]


def round_trip_words(ns) -> str:
    """A cache line's round trip between the threads' cores, with what it says about their placement."""
    if ns is None:
        return "not measured"
    where = "one core complex" if ns < SAME_COMPLEX_NS else "two core complexes, each with its own L3"
    return f"{ns:.0f} ns ({where})"


def conditions_words(conditions: Conditions | None, threads: int, w: Workload) -> str:
    c = conditions or Conditions()
    words = ""
    if threads > 1:
        words += f" Cache-line round trip between the threads' cores just before: {round_trip_words(c.round_trip_ns)}."
    if c.triad_gbps:
        words += f" Triad@{w.triad_elems // MIB}M just before: {fmt(c.triad_gbps)} GB/s."
    return words


def workload_table(w: Workload, results: dict, machine, threads: int, load=None,
                   conditions: Conditions | None = None) -> list[str]:
    better = "lower" if w.lower_is_better else "higher"
    lines = [f"### {w.name}", "", f"{w.doc}. Unit: {w.unit}, {better} is better.",
             f"Other processes' CPU use meanwhile: {describe(load)}." + conditions_words(conditions, threads, w), "",
             f"| framework | median ({w.unit}) | IQR | min - max | n | machine limit | "
             "Sprout / this | Sprout is |" + (" peak memory (MB) |" if w.peak_memory else ""),
             "|---|---|---|---|---|---|---|---|" + ("---|" if w.peak_memory else "")]
    if w.peak_memory:
        lines[2] += (" Peak memory: how far the process's resident size rises above where it stood before "
                     "the model was built, over building it and three steps, in a fresh process.")
    sprout = results.get("sprout")
    s_med = sprout.summary.median if sprout and sprout.summary else None
    for name, res in results.items():
        title = TITLES[name]
        if res.error:
            lines.append(f"| {title} | not measured: {_cell(res.error)} | | | | | | |")
            continue
        s = res.summary
        frac = limit_fraction(w, s.median, machine, threads, conditions)
        frac_txt = f"{frac[0] * 100:.0f}% {frac[1]}" if frac else ""
        ratio = sp = ""
        if s_med is not None:
            ratio = fmt(s_med / s.median)
            if name != "sprout":
                sp = _versus(speedup(w, s_med, s.median))
        memory = ""
        if w.peak_memory:
            memory = (f" {fmt(res.peak_bytes / MIB)} |" if res.peak_bytes is not None
                      else f" not measured: {_cell(res.peak_error or 'no figure')} |")
        lines.append(f"| {title} | {fmt(s.median)} | {fmt(s.q1)} - {fmt(s.q3)} | "
                     f"{fmt(s.min)} - {fmt(s.max)} | {s.n} | {frac_txt} | {ratio} | {sp} |{memory}")
    return lines + [""]


def _cell(text: str) -> str:
    text = " ".join(text.split())
    return (text[:160] + "...") if len(text) > 160 else text.replace("|", "/")


def _versus(x: float) -> str:
    return f"{fmt(x)}x faster" if x >= 1 else f"{fmt(1 / x)}x slower"


def summary_section(measured: list, machine, threads: int) -> list[str]:
    leads, trails, par, limits, goals, noisy = [], [], [], [], [], []
    missing = {}  # (framework, reason) -> workloads, so one cause is told once
    for w, results, load, conditions in measured:
        # Results taken while other processes loaded the machine stay in the
        # lists, but marked, so nobody reads them as clean.
        tag = " [under load]" if load is not None and load > NOISY else ""
        if tag:
            noisy.append(f"{w.name} ({load * 100:.0f}%)")
        sprout = results.get("sprout")
        ok = sprout is not None and sprout.summary is not None
        for name, res in results.items():
            if res.summary is None:
                missing.setdefault((name, _cell(res.error or "not run")), []).append(w.name)
        for name, res in results.items():
            if name == "sprout" or not ok or res.summary is None:
                continue
            x = speedup(w, sprout.summary.median, res.summary.median)
            item = f"{w.name} vs {TITLES[name]} ({_versus(x)}){tag}"
            if sprout.summary.overlaps(res.summary):
                par.append(item)
            elif x > 1:
                leads.append(item)
            else:
                trails.append(item)
        if ok:
            frac = limit_fraction(w, sprout.summary.median, machine, threads, conditions)
            if frac:
                limits.append(f"{w.name} {frac[0] * 100:.0f}% {frac[1]}{tag}")
        if w.goal:
            goals.append(_goal_line(w, results) + tag)
    out = ["## Summary", ""]

    def bullet(label, items, empty="none"):
        out.append(f"- {label}: " + ("; ".join(items) if items else empty) + ".")

    if machine and machine.get("foreign_load", 0) > NOISY:
        noisy.insert(0, f"machine limits ({machine['foreign_load'] * 100:.0f}%)")
    if noisy:
        bullet("WARNING: measured while other processes used the CPU (share of the "
               "machine in brackets); these numbers are unreliable", noisy)
    bullet("Sprout leads", leads)
    bullet("Sprout trails", trails)
    bullet("Within noise (interquartile ranges overlap)", par)
    bullet("Sprout against the machine's measured limits", limits, "not measured")
    bullet("Goals", goals, "none set")
    if missing:
        bullet("Not measured", [f"{TITLES[name]} on {', '.join(names)}: {why}"
                                for (name, why), names in missing.items()])
    return out + [""]


def _goal_line(w: Workload, results: dict) -> str:
    g = w.goal
    sprout, peer = results.get("sprout"), results.get(g.peer)
    if not (sprout and sprout.summary and peer and peer.summary):
        return f"{w.name}: \"{g.text}\": not measured"
    # For a throughput unit the time ratio is the inverse of the value ratio.
    r = sprout.summary.median / peer.summary.median
    time_ratio = r if w.lower_is_better else 1 / r
    verdict = "met" if time_ratio <= g.max_time_ratio else "NOT met"
    return (f"{w.name}: \"{g.text}\": {verdict} (Sprout/{TITLES[g.peer]} time ratio "
            f"{fmt(time_ratio)}, needs <= {fmt(g.max_time_ratio)})")


def framework_section(frameworks: dict) -> list[str]:
    lines = ["| framework | version | environment |", "|---|---|---|"]
    for name, f in frameworks.items():
        version = f.get("version") or _cell(f["status"])
        where = f.get("python", "")
        if name == "sprout" and f.get("module"):
            where += f" (imports {f['module']})"
        lines.append(f"| {TITLES[name]} | {version} | {where} |")
    return lines


def render(run: dict) -> str:
    m, threads = run["machine"], run["threads"]
    out = ["# Sprout benchmark results", "",
           f"Generated by `{run['command']}` on {run['date']}; regenerate instead of editing.",
           "Each framework runs in its own worker process pinned to the same thread count; "
           "samples are interleaved between frameworks (A B A B ...), after a warm-up and a "
           "correctness check against NumPy.", "",
           f"- Threads used by every framework: {threads}",
           f"- CPU: {run['cpu_model']}, {run['cores']} usable cores", "",
           "## Frameworks", "", *framework_section(run["frameworks"]), "",
           "## Machine limits (measured by benchmarks/machine.py)", ""]
    if m:
        out += machine_section(m, threads)
        out += ["", f"Other processes' CPU use meanwhile: {describe(m.get('foreign_load'))}."]
    else:
        out += [f"Not measured: {run.get('machine_error')}"]
    out += ["", "## Workloads", ""]
    for w, results, load, conditions in run["workloads"]:
        out += workload_table(w, results, m, threads, load, conditions)
    out += summary_section(run["workloads"], m, threads)
    return "\n".join(out)
