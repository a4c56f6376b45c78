"""Layers and losses that every model uses, forward + backward, Sprout against PyTorch, run alone.

    PYTHONPATH=python .venv/bin/python benchmarks/layers_vs_torch.py [--bench-venv .bench-venv]

Each framework runs in its own process (Sprout from this environment, PyTorch from the peers' venv that
benchmarks/peers_env.sh makes), two threads, best of 5 runs of 20 calls; both take the gradient of the
output's sum with respect to the input (and the table, for Embedding), in training mode. A spot check
between full harness runs (benchmarks/run.py): no interleaving, so compare only ratios within one run.
"""
import json

from spot_check import pythons_and_env, run_child

CASES = [  # name: (sprout constructor, torch constructor, input shape)
    ("LayerNorm(256)", "nn.LayerNorm((256,))", "nn.LayerNorm((256,))", (16, 128, 256)),
    ("GroupNorm(8, 64)", "nn.GroupNorm(8, 64)", "nn.GroupNorm(8, 64)", (32, 64, 32, 32)),
    ("BatchNorm2d(64)", "nn.BatchNorm2d(64)", "nn.BatchNorm2d(64)", (32, 64, 32, 32)),
    ("GELU", "nn.GELU()", "nn.GELU()", (16, 128, 1024)),
    ("SiLU", "nn.SiLU()", "nn.SiLU()", (16, 128, 1024)),
    ("Dropout(0.1)", "nn.Dropout(p=0.1)", "nn.Dropout(p=0.1)", (16, 128, 1024)),
    ("Softmax(-1)", "nn.Softmax(-1)", "nn.Softmax(-1)", (16, 4, 128, 128)),
    ("MaxPool2d(2)", "nn.MaxPool2d(2, 2)", "nn.MaxPool2d(2, 2)", (32, 64, 32, 32)),
    ("AvgPool2d(2)", "nn.AvgPool2d(2, 2)", "nn.AvgPool2d(2, 2)", (32, 64, 32, 32)),
    ("MaxPool2d(3, 2, padding 1)", "nn.MaxPool2d(3, 2, pad_mode='pad', padding=1)", "nn.MaxPool2d(3, 2, 1)",
     (8, 64, 56, 56)),  # ResNet-50's stem pooling, a quarter of its batch-32 size
    ("MaxPool2d(3, 2, pad 1, dilation 2, indices)",
     "nn.MaxPool2d(3, 2, pad_mode='pad', padding=1, dilation=2, return_indices=True)",
     "nn.MaxPool2d(3, 2, 1, dilation=2, return_indices=True)", (8, 64, 56, 56)),
    ("AdaptiveAvgPool2d(1)", "nn.AdaptiveAvgPool2d(1)", "nn.AdaptiveAvgPool2d(1)", (32, 512, 8, 8)),
    ("InstanceNorm2d(64)", "nn.InstanceNorm2d(64)", "nn.InstanceNorm2d(64)", (16, 64, 16, 16)),
    ("Upsample(x2, bilinear)", "nn.Upsample(scale_factor=2.0, mode='bilinear')",
     "nn.Upsample(scale_factor=2.0, mode='bilinear')", (8, 64, 32, 32)),
    ("PixelShuffle(2)", "nn.PixelShuffle(2)", "nn.PixelShuffle(2)", (8, 256, 32, 32)),
    ("PReLU(64)", "nn.PReLU(64)", "nn.PReLU(64)", (32, 64, 32, 32)),
    ("LogSoftmax(-1)", "nn.LogSoftmax(-1)", "nn.LogSoftmax(-1)", (64, 32000)),
    ("ReflectionPad2d(2)", "nn.ReflectionPad2d(2)", "nn.ReflectionPad2d(2)", (16, 32, 64, 64)),
    ("Conv1d(64, 64, 3)", "nn.Conv1d(64, 64, 3, pad_mode='same')", "nn.Conv1d(64, 64, 3, padding='same')",
     (32, 64, 256)),
    ("ConvTranspose2d(64, 32, 2, s2)", "nn.Conv2dTranspose(64, 32, 2, stride=2)",
     "nn.ConvTranspose2d(64, 32, 2, stride=2)", (8, 64, 32, 32)),
    ("LSTM(128, 256)", "nn.LSTM(128, 256, batch_first=True)", "nn.LSTM(128, 256, batch_first=True)", (32, 64, 128)),
    ("MultiheadAttention(256, 4)", "nn.MultiheadAttention(256, 4, batch_first=True)",
     "nn.MultiheadAttention(256, 4, batch_first=True)", (8, 128, 256)),
]
SPECIAL = ["Embedding(30000, 256), 32x128 ids", "CrossEntropy, 4096x1000 logits"]

CHILD = r'''  # after spot_check.CHILD_PRELUDE (json, sys, np, rng, best)
FW = sys.argv[1]
CASES = json.loads(sys.argv[2])

out = {}
if FW == "sprout":
    import sprout as ms
    from sprout import nn
    ms.set_context(runtime_num_threads=2)
    T = lambda s: ms.Tensor(rng.standard_normal(s).astype(np.float32))
    for name, make, _, shape in CASES:
        cell = eval(make)
        cell.set_train(True)
        first = lambda y: y[0] if isinstance(y, tuple) else y
        if name.startswith("MultiheadAttention"):
            g = ms.grad(lambda q: cell(q, q, q)[0].sum())
        else:
            g = ms.grad(lambda x: first(cell(x)).sum())
        x = T(tuple(shape))
        out[name] = best(lambda: g(x))
    emb = nn.Embedding(30000, 256)
    ids = ms.Tensor(rng.integers(0, 30000, (32, 128)).astype(np.int32))
    ge = ms.grad(lambda: emb(ids).sum(), None, emb.trainable_params())
    out["Embedding(30000, 256), 32x128 ids"] = best(lambda: ge())
    ce, logits = nn.CrossEntropyLoss(), T((4096, 1000))
    labels = ms.Tensor(rng.integers(0, 1000, 4096).astype(np.int32))
    gc = ms.grad(lambda l: ce(l, labels))
    out["CrossEntropy, 4096x1000 logits"] = best(lambda: gc(logits))
else:
    import torch
    from torch import nn
    torch.set_num_threads(2)
    T = lambda s: torch.from_numpy(rng.standard_normal(s).astype(np.float32)).requires_grad_(True)
    for name, _, make, shape in CASES:
        cell = eval(make).train()
        first = lambda y: y[0] if isinstance(y, tuple) else y
        x = T(tuple(shape))
        if name.startswith("MultiheadAttention"):
            f = lambda: torch.autograd.grad(cell(x, x, x)[0].sum(), [x])
        else:
            f = lambda: torch.autograd.grad(first(cell(x)).sum(), [x])
        out[name] = best(f)
    emb = nn.Embedding(30000, 256)
    ids = torch.from_numpy(rng.integers(0, 30000, (32, 128)))
    out["Embedding(30000, 256), 32x128 ids"] = best(lambda: torch.autograd.grad(emb(ids).sum(), [emb.weight]))
    ce, logits = nn.CrossEntropyLoss(), T((4096, 1000))
    labels = torch.from_numpy(rng.integers(0, 1000, 4096))
    out["CrossEntropy, 4096x1000 logits"] = best(lambda: torch.autograd.grad(ce(logits, labels), [logits]))
print(json.dumps(out))
'''


def run(python, framework, env, cases=CASES):
    """{case name: ms} from a child process of `python` running `framework`."""
    return run_child(python, CHILD, [framework, json.dumps(cases)], env, framework)


def main():
    sprout_python, torch_python, env = pythons_and_env(__doc__.splitlines()[0])
    sprout = run(sprout_python, "sprout", env)
    torch = run(torch_python, "torch", env)
    print(f"{'forward + backward':44} {'Sprout ms':>10} {'PyTorch ms':>11} {'Sprout/PyTorch':>15}")
    for name in [c[0] for c in CASES] + SPECIAL:
        print(f"{name:44} {sprout[name]:10.3f} {torch[name]:11.3f} {sprout[name] / torch[name]:15.2f}")


if __name__ == "__main__":
    main()
