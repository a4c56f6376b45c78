"""float16 and bfloat16 ops, Sprout against PyTorch, run alone.

    PYTHONPATH=python .venv/bin/python benchmarks/half_precision.py [--bench-venv .bench-venv]

Each framework runs in its own process (Sprout from this environment, PyTorch from the peers' venv that
benchmarks/peers_env.sh makes), two threads, best of 5 runs of 10 calls, forward only. A spot check
between full harness runs (benchmarks/run.py): no interleaving, so compare only ratios within one run.
"""
import json

from spot_check import pythons_and_env, run_child

# name: (Sprout expression, PyTorch expression) over x (4096, 1024), a and b (1024, 1024), img (32, 64, 28, 28)
# and w (64, 64, 3, 3), all of the dtype under test; ops is sprout.ops or torch, F torch.nn.functional.
CASES = [
    ("x + x", "x + x", "x + x"),
    ("x * 2.5", "x * 2.5", "x * 2.5"),
    ("exp(x)", "ops.exp(x)", "torch.exp(x)"),
    ("x > 0", "x > 0", "x > 0"),
    ("sum over the last axis", "x.sum(-1)", "x.sum(-1)"),
    ("sum over the first axis", "x.sum(0)", "x.sum(0)"),
    ("relu(x)", "ops.relu(x)", "torch.relu(x)"),
    ("gelu(x)", "ops.gelu(x)", "F.gelu(x)"),
    ("softmax(x, -1)", "ops.softmax(x, -1)", "torch.softmax(x, -1)"),
    ("layer_norm(x)", "ops.layer_norm(x, (1024,), g, beta)", "F.layer_norm(x, (1024,), g, beta)"),
    ("x.T made contiguous", "x.T.contiguous()", "x.T.contiguous()"),
    ("cast to float32", "x.astype(ms.float32)", "x.float()"),
    ("a @ b, 1024^3", "ops.matmul(a, b)", "a @ b"),
    ("conv2d 3x3, 64 -> 64", "ops.conv2d(img, w, pad_mode='pad', padding=1)", "F.conv2d(img, w, padding=1)"),
]
SHAPES = {"x": (4096, 1024), "a": (1024, 1024), "b": (1024, 1024), "img": (32, 64, 28, 28), "w": (64, 64, 3, 3)}

CHILD = r'''  # after spot_check.CHILD_PRELUDE (json, sys, np, rng, best)
FW, DTYPE = sys.argv[1], sys.argv[2]
CASES, SHAPES = json.loads(sys.argv[3]), json.loads(sys.argv[4])

data = {k: (rng.standard_normal(s) * (0.05 if k == "w" else 1)).astype(np.float32) for k, s in SHAPES.items()}
data["g"], data["beta"] = np.ones(SHAPES["x"][1], np.float32), np.zeros(SHAPES["x"][1], np.float32)
if FW == "sprout":
    import sprout as ms
    from sprout import ops
    ms.set_context(runtime_num_threads=2)
    env = {k: ms.Tensor(v).astype(getattr(ms, DTYPE)) for k, v in data.items()}
    env.update(ms=ms, ops=ops)
    run = lambda e: (lambda: eval(e, env))  # eager ops return finished results (no asnumpy: a bfloat16 one converts)
else:
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(2)
    env = {k: torch.from_numpy(v).to(getattr(torch, DTYPE)) for k, v in data.items()}
    env.update(torch=torch, F=F)
    run = lambda e: (lambda: eval(e, env))
col = 1 if FW == "sprout" else 2
print(json.dumps({c[0]: best(run(c[col]), n=10, warmup=2) for c in CASES}))
'''


def run(python, framework, dtype, env, cases=CASES, shapes=SHAPES):
    """{case name: ms} from a child process of `python` running `framework` at `dtype`."""
    return run_child(python, CHILD, [framework, dtype, json.dumps(cases), json.dumps(shapes)], env,
                     f"{framework} {dtype}")


def main():
    sprout_python, torch_python, env = pythons_and_env(__doc__.splitlines()[0])
    for dtype in ("float16", "bfloat16"):
        sprout = run(sprout_python, "sprout", dtype, env)
        torch = run(torch_python, "torch", dtype, env)
        print(f"\n{dtype:28} {'Sprout ms':>10} {'PyTorch ms':>11} {'Sprout/PyTorch':>15}")
        for name, _, _ in CASES:
            print(f"{name:28} {sprout[name]:10.3f} {torch[name]:11.3f} {sprout[name] / torch[name]:15.2f}")


if __name__ == "__main__":
    main()
