#!/usr/bin/env bash
# Creates the peers' environment for the benchmarks (NumPy, PyTorch, JAX,
# MindSpore). It is deliberately SEPARATE from Sprout's own .venv: peers must
# never leak into the environment Sprout's tests run in.
#
# Usage: bash benchmarks/peers_env.sh [VENV_DIR]   (default: <repo>/.bench-venv)
#
# Layout: VENV_DIR is the venv for numpy, torch and jax. MindSpore 2.10.0 is
# compiled against NumPy 1.x while jax needs NumPy >= 2, so MindSpore gets
# its own venv nested inside, VENV_DIR/mindspore (still under the one
# gitignored directory). Every framework runs in its own worker process
# anyway, so each can have its own interpreter.
#
# Each peer is installed on its own, so one failing does not stop the others.
# The outcome is written to VENV_DIR/peers_status.json as
#   {"torch": {"status": "ok", "python": ".../bin/python"}, ...}
# or {"status": "missing: <reason>"}; run.py reads it so that a missing peer
# is reported with its reason, never silently dropped.
set -u
set -f  # no globbing: requirements such as jax[cpu] are words, not patterns
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="${1:-$(dirname "$here")/.bench-venv}"
# torch 2.13.0's CPU wheel on this machine's disk is built for CPython 3.11.
py="${PEERS_PYTHON:-$(command -v python3.11 || command -v python3)}"
log="$venv/peers_install.log"

make_venv() {  # make_venv DIR
    [ -x "$1/bin/python" ] || "$py" -m venv "$1"
}
make_venv "$venv" || { echo "cannot create venv $venv" >&2; exit 1; }
: > "$log"

# name | venv | pip requirements. torch is pinned: pip takes the local CPU
# build of 2.13.0; an unpinned "torch" would pull a multi-GB CUDA build.
peers=(
    "numpy|$venv|numpy"
    "torch|$venv|torch==2.13.0 pillow"
    "jax|$venv|jax[cpu]"
    "mindspore|$venv/mindspore|mindspore==2.10.0 numpy<2"
)
status_args=()
for entry in "${peers[@]}"; do
    IFS='|' read -r name dir reqs <<<"$entry"
    echo "== $name: pip install $reqs (in $dir)" | tee -a "$log"
    start=$(($(wc -l <"$log") + 1))
    # shellcheck disable=SC2086  # reqs is a word list on purpose
    if make_venv "$dir" >>"$log" 2>&1 &&
        "$dir/bin/python" -m pip install --disable-pip-version-check $reqs >>"$log" 2>&1; then
        state="ok"
    else
        # This attempt's last ERROR line of pip is the reason shown in RESULTS.md.
        reason="$(tail -n "+$start" "$log" | grep -E '^ERROR' | tail -n 1 | cut -c1-200)"
        state="missing: pip install $reqs failed: ${reason:-see $log}"
    fi
    echo "   -> $state"
    status_args+=("$name" "$state" "$dir/bin/python")
done

# JSON is written by Python so reasons with quotes are escaped correctly.
"$py" - "$venv/peers_status.json" "${status_args[@]}" <<'PY'
import json, sys
out, rest = sys.argv[1], sys.argv[2:]
status = {rest[i]: {"status": rest[i + 1], "python": rest[i + 2]}
          for i in range(0, len(rest), 3)}
with open(out, "w") as f:
    json.dump(status, f, indent=2)
print("status written to", out)
PY
