"""Files that move between Sprout and MindSpore: MindRecord datasets, .ckpt checkpoints and .mindir models.

Each side writes its own files with the same deterministic contents, then reads the other side's and
compares every value; a model is exported with the outputs its framework computes, run by the other side
(load + nn.GraphCell) and compared with them. MindSpore runs in the peers' environment
(benchmarks/peers_env.sh); it is never imported by Sprout.

    python benchmarks/interop/mindspore_files.py            # drives both sides, prints the report
    python benchmarks/interop/mindspore_files.py --fixtures DIR   # also keeps MindSpore's small models in DIR
"""
import json
import os
import subprocess
import sys
import tempfile

import shutil

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # mindir_models, importable by name (MindSpore's compiler imports the models' module)
REPO = os.path.dirname(os.path.dirname(HERE))
SCHEMA = {"label": {"type": "int64"}, "image": {"type": "bytes"}, "feature": {"type": "float32", "shape": [3]}}


def rows():
    rng = np.random.default_rng(7)
    return [{"label": int(i), "image": bytes(rng.integers(0, 256, 16 + i, dtype=np.uint8)),
             "feature": rng.standard_normal(3).astype(np.float32)} for i in range(20)]


def params():
    rng = np.random.default_rng(11)
    return {"fc.weight": rng.standard_normal((4, 3)).astype(np.float32),
            "fc.bias": rng.standard_normal(4).astype(np.float32),
            "step": np.array([5], np.int32), "embed": rng.standard_normal((6, 2)).astype(np.float64)}


def write(framework, folder):
    if framework == "sprout":
        import sprout as ms
        from sprout.mindrecord import FileWriter
    else:
        import mindspore as ms
        from mindspore.mindrecord import FileWriter
    writer = FileWriter(os.path.join(folder, "data.mindrecord"), shard_num=1, overwrite=True)
    writer.add_schema(SCHEMA, "interop")
    writer.add_index(["label"])
    writer.write_raw_data(rows())
    writer.commit()
    ms.save_checkpoint([{"name": k, "data": ms.Tensor(v)} for k, v in params().items()],
                       os.path.join(folder, "net.ckpt"))
    import mindir_models
    for name, net, inputs in mindir_models.models(ms):
        net.set_train(False)
        outputs = net(*inputs)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        ms.export(net, *inputs, file_name=os.path.join(folder, name), file_format="MINDIR")
        np.savez(os.path.join(folder, name + ".npz"), n_inputs=len(inputs),
                 **{f"value{i}": t.asnumpy() for i, t in enumerate(list(inputs) + list(outputs))})


def check_model(ms, folder, name):
    """Runs the other side's model file on its inputs; a problem when the outputs differ from its own."""
    saved = np.load(os.path.join(folder, name + ".npz"))
    values = [saved[f"value{i}"] for i in range(len(saved.files) - 1)]
    n_inputs = int(saved["n_inputs"])
    outputs = ms.nn.GraphCell(ms.load(os.path.join(folder, name + ".mindir")))(*map(ms.Tensor, values[:n_inputs]))
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    if len(outputs) != len(values) - n_inputs:
        return [f"MindIR {name}: {len(outputs)} outputs, expected {len(values) - n_inputs}"]
    problems = []
    for i, (got, want) in enumerate(zip(outputs, values[n_inputs:])):
        if not np.allclose(got.asnumpy(), want, rtol=1e-4, atol=1e-5):
            problems.append(f"MindIR {name}: output {i} differs by up to {np.abs(got.asnumpy() - want).max():.3g}")
    return problems


def read_and_check(framework, folder):
    """Reads the other side's files; returns a list of problems (empty: all values equal)."""
    if framework == "sprout":
        import sprout as ms
        import sprout.dataset as ds
    else:
        import mindspore as ms
        import mindspore.dataset as ds
    problems = []
    data = ds.MindDataset(os.path.join(folder, "data.mindrecord"), shuffle=False)
    got = list(data.create_dict_iterator(output_numpy=True))
    expected = rows()
    if len(got) != len(expected):
        problems.append(f"MindRecord: {len(got)} rows, expected {len(expected)}")
    for g, e in zip(got, expected):
        if int(g["label"]) != e["label"] or bytes(np.asarray(g["image"]).tobytes()) != e["image"] or \
                not np.array_equal(g["feature"], e["feature"]):
            problems.append(f"MindRecord: row {e['label']} differs")
            break
    loaded = ms.load_checkpoint(os.path.join(folder, "net.ckpt"))
    for name, value in params().items():
        if name not in loaded:
            problems.append(f"checkpoint: {name} missing")
            continue
        arr = loaded[name].asnumpy()
        if arr.dtype != value.dtype or not np.array_equal(arr, value):
            problems.append(f"checkpoint: {name} is {arr.dtype}{arr.shape}, expected {value.dtype}{value.shape} "
                            f"with equal values")
    import mindir_models
    for name, _, _ in mindir_models.models(ms):
        try:
            problems += check_model(ms, folder, name)
        except Exception as e:  # report every model, not just the first failure
            problems.append(f"MindIR {name}: {type(e).__name__}: {e}")
    return problems


def side(argv):
    framework, action, folder = argv
    if action == "write":
        write(framework, folder)
        print(json.dumps({"ok": True}))
    else:
        print(json.dumps({"problems": read_and_check(framework, folder)}))


def run(python, framework, action, folder, env=None):
    out = subprocess.run([python, __file__, "--side", framework, action, folder], capture_output=True, text=True,
                         env=env, timeout=600)
    if out.returncode != 0:
        return {"error": (out.stderr or out.stdout).strip().splitlines()[-1:]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(fixtures=None):
    sprout_py = os.path.join(REPO, ".venv", "bin", "python")
    ms_py = os.path.join(REPO, ".bench-venv", "mindspore", "bin", "python")
    if not os.path.exists(ms_py):
        sys.exit(f"MindSpore's environment is missing ({ms_py}); run bash benchmarks/peers_env.sh")
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
    with tempfile.TemporaryDirectory() as tmp:
        by_sprout, by_mindspore = os.path.join(tmp, "sprout"), os.path.join(tmp, "mindspore")
        os.makedirs(by_sprout)
        os.makedirs(by_mindspore)
        report = {
            "Sprout writes": run(sprout_py, "sprout", "write", by_sprout, env),
            "MindSpore writes": run(ms_py, "mindspore", "write", by_mindspore),
            "MindSpore reads Sprout's files": run(ms_py, "mindspore", "read", by_sprout),
            "Sprout reads MindSpore's files": run(sprout_py, "sprout", "read", by_mindspore, env),
        }
        if fixtures:  # MindSpore's small models, for tests/python/test_mindir.py
            for name in ("convbn", "mixer", "layers", "primitives", "more_primitives", "conv_layers", "recurrent", "losses",
                         "pooling"):
                for ext in (".mindir", ".npz"):
                    shutil.copyfile(os.path.join(by_mindspore, name + ext), os.path.join(fixtures, "mindspore_" + name + ext))
    for what, result in report.items():
        status = "error: " + " ".join(result["error"]) if "error" in result else \
            ("ok" if not result.get("problems") else "; ".join(result["problems"]))
        print(f"{what}: {status}")
    return 0 if all("error" not in r and not r.get("problems") for r in report.values()) else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--side":
        side(sys.argv[2:])
    else:
        sys.exit(main(sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--fixtures" else None))
