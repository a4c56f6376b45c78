"""train.Model with callbacks: training reduces the loss, eval/predict, checkpoints, early stopping."""
import os

import numpy as np
import pytest

import sprout as ms
from sprout import nn
from sprout.train import (Callback, CheckpointConfig, EarlyStopping, History, LambdaCallback, LossMonitor, Model,
                          ModelCheckpoint, ProgressBar, ReduceLROnPlateau, TimeMonitor)


def toy_data(n=128, batch=32, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 4)).astype(np.float32)
    y = (x[:, 0] - x[:, 2] > 0).astype(np.int64)
    onehot = np.eye(2, dtype=np.float32)[y]
    return [(x[i:i + batch], onehot[i:i + batch]) for i in range(0, n, batch)]


def make_model(**kw):
    ms.set_seed(3)
    net = nn.Dense(4, 2)
    return net, Model(net, nn.MSELoss(), nn.Adam(net.trainable_params(), 0.05), metrics={"accuracy", "loss"},
                      progress=False, **kw)


def test_train_eval_predict(capsys):
    net, model = make_model()
    data = toy_data()
    before = model.eval(data)["loss"]
    model.train(4, data, callbacks=[LossMonitor(4), TimeMonitor()])
    after = model.eval(data)
    assert after["loss"] < before and after["accuracy"] > 0.8
    out = capsys.readouterr().out
    assert "epoch: 4 step: 4, loss is" in out and "per step time" in out
    assert model.predict(ms.Tensor(data[0][0])).shape == (32, 2)


def test_fit_history_and_hooks_order():
    _, model = make_model()
    events = []

    class Recorder(Callback):
        def on_train_begin(self, rc):
            events.append("begin")

        def on_train_epoch_end(self, rc):
            events.append(f"epoch{rc.original_args().cur_epoch_num}")

        def on_train_end(self, rc):
            events.append("end")

    history = History()
    model.fit(2, toy_data(), toy_data(seed=1), callbacks=[Recorder(), history])
    assert events == ["begin", "epoch1", "epoch2", "end"]
    assert history.epoch == {'epoch': [1, 2]} and len(history.history["accuracy"]) == 2


def test_model_checkpoint_keeps_the_newest(tmp_path):
    net, model = make_model()
    cfg = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=2, append_info=["epoch_num"])
    ckpt = ModelCheckpoint(prefix="toy", directory=str(tmp_path), config=cfg)
    model.train(2, toy_data(), callbacks=[ckpt])
    files = sorted(os.listdir(tmp_path))
    assert files == ["toy-2_2.ckpt", "toy-2_4.ckpt"]
    params = ms.load_checkpoint(str(tmp_path / "toy-2_4.ckpt"))
    assert params["epoch_num"].item() == 2
    fresh = nn.Dense(4, 2)
    assert ms.load_param_into_net(fresh, params)[0] == []  # wrappers add no prefix: names match the net's
    np.testing.assert_array_equal(fresh.weight.asnumpy(), net.weight.asnumpy())


def test_early_stopping_and_lambda_and_reduce_lr():
    _, model = make_model()
    stops = EarlyStopping(monitor="loss", patience=0, min_delta=10.0)  # never "improves" after the first epoch
    seen = []
    model.train(5, toy_data(), callbacks=[stops, LambdaCallback(on_train_epoch_end=lambda rc: seen.append(1))])
    assert stops.stopped_epoch == 2 and len(seen) == 2
    net, model = make_model()
    reduce = ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0, min_delta=10.0)
    model.train(3, toy_data(), callbacks=[reduce])
    assert model._optimizer.get_lr().item() < 0.05


def test_progress_bar_renders():
    import io
    stream = io.StringIO()
    _, model = make_model()
    model.train(1, toy_data(), callbacks=[ProgressBar(stream=stream, force=True)])
    text = stream.getvalue()
    assert "epoch 1/1" in text and "4/4" in text and "ETA" in text and "step/s" in text


def test_bad_use():
    net = nn.Dense(4, 2)
    with pytest.raises(TypeError, match="'network' must be a Cell"):
        Model(lambda x: x)
    with pytest.raises(ValueError, match="amp_level"):
        Model(net, amp_level="O7")
    with pytest.raises(RuntimeError, match="optimizer"):
        Model(net, nn.MSELoss()).train(1, toy_data())
    _, model = make_model()
    with pytest.raises(ValueError, match="'epoch' must be a positive int"):
        model.train(0, toy_data())
    with pytest.raises(ValueError, match="no batch"):
        model.train(1, [])
    with pytest.raises(ValueError, match="no metrics"):
        Model(net, nn.MSELoss()).eval(toy_data())
    with pytest.raises(ValueError, match="NaN|nan"):
        model.train(1, [(np.full((2, 4), np.nan, np.float32), np.zeros((2, 2), np.float32))],
                    callbacks=[LossMonitor()])
