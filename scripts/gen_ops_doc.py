"""Writes docs/ops.md from the op registry (the registry is the only list of ops).

    .venv/bin/python scripts/gen_ops_doc.py          # rewrite docs/ops.md
    .venv/bin/python scripts/gen_ops_doc.py --check  # exit 1 if docs/ops.md is out of date
"""
import os
import sys
import tempfile

from sprout import _C

PATH = os.path.join(os.path.dirname(__file__), "..", "docs", "ops.md")


def render():
    records = _C.op_records()
    lines = ["# Operators", "",
             f"Generated from the op registry by `scripts/gen_ops_doc.py` ({len(records)} ops). Attributes marked",
             "*call* are given when calling the primitive (`ops.ReduceSum(keep_dims=True)(x, axis)`).", "",
             "| op | inputs | attributes | dtype policy | bprop | doc |", "|---|---|---|---|---|---|"]
    for r in records:
        attrs = ", ".join(f"{a['name']}: {a['kind']} = {a['default']!r}{' (*call*)' if a['call_arg'] else ''}"
                          for a in r["attrs"]) or "-"
        inputs = ", ".join(r["inputs"]) + (" (variadic)" if r["variadic"] else "")
        lines.append(f"| {r['name']} | {inputs or '-'} | {attrs} | {r['dtype_policy']} | "
                     f"{'yes' if r['has_bprop'] else 'no'} | {r['doc']} |")
    return "\n".join(lines) + "\n"


def main():
    text = render()
    if "--check" in sys.argv:
        current = open(PATH).read() if os.path.exists(PATH) else ""
        if current != text:
            print("docs/ops.md is out of date: run `make docs`", file=sys.stderr)
            return 1
        return 0
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(PATH), suffix=".md")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, PATH)  # atomic: a reader never sees half a file
    return 0


if __name__ == "__main__":
    sys.exit(main())
