"""train.Model: the high-level API that trains, evaluates and predicts (``mindspore.train.Model``)."""
import os
from types import SimpleNamespace

import numpy as np

from sprout import _C

from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell
from sprout.nn.wrap.cell_wrapper import TrainOneStepCell, WithEvalCell, WithLossCell
from sprout.train.callback import CallbackList, ProgressBar, RunContext
from sprout.train.metrics import Loss, Metric, get_metric_fn

_AMP_LEVELS = ("O0", "O1", "O2", "O3")


def _build_metrics(metrics):
    if metrics is None:
        return {}
    if isinstance(metrics, dict):
        items = metrics.items()
    elif isinstance(metrics, (set, list, tuple)):
        items = [(m, m) if isinstance(m, str) else (type(m).__name__.lower(), m) for m in metrics]
    else:
        raise TypeError(f"Model: 'metrics' must be a dict, set or list, but got {type(metrics).__name__}")
    out = {}
    for name, metric in items:
        metric = get_metric_fn(metric) if isinstance(metric, str) else metric
        if not isinstance(metric, Metric):
            raise TypeError(f"Model: metric {name!r} must be a Metric or a metric name, but got {type(metric).__name__}")
        out[name] = metric
    return out


def _batches(dataset, api):
    """The dataset's rows as tuples of Tensors: a sprout.dataset Dataset or any iterable of tuples."""
    if hasattr(dataset, "create_tuple_iterator"):
        rows = dataset.create_tuple_iterator(num_epochs=1)
    elif hasattr(dataset, "__iter__"):
        rows = iter(dataset)
    else:
        raise TypeError(f"Model.{api}: the dataset must be a sprout.dataset Dataset or an iterable of tuples, but "
                        f"got {type(dataset).__name__}")
    for row in rows:
        row = row if isinstance(row, (tuple, list)) else (row,)
        yield tuple(x if isinstance(x, Tensor) else Tensor(np.asarray(x)) for x in row)


def _dataset_size(dataset):
    if hasattr(dataset, "get_dataset_size"):
        return dataset.get_dataset_size()
    try:
        return len(dataset)
    except TypeError:
        return 0


class Model:
    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None, eval_indexes=None,
                 amp_level="O0", boost_level="O0", **kwargs):
        if not isinstance(network, Cell):
            raise TypeError(f"Model: 'network' must be a Cell, but got {type(network).__name__}")
        if amp_level not in _AMP_LEVELS:
            raise ValueError(f"Model: 'amp_level' must be one of {_AMP_LEVELS} on this build, but got {amp_level!r}")
        if eval_indexes is not None and len(eval_indexes) != 3:
            raise ValueError(f"Model: 'eval_indexes' must be [loss, output, label] positions, got {eval_indexes!r}")
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._metrics = _build_metrics(metrics)
        self._amp_level = amp_level
        self._loss_scale_manager = kwargs.get("loss_scale_manager")
        self._progress = kwargs.get("progress", os.environ.get("SPROUT_PROGRESS", "1") != "0")
        self._train_network = self._build_train_network()
        self._eval_network = eval_network
        self._eval_indexes = eval_indexes
        if eval_network is None and loss_fn is not None:
            self._eval_network = WithEvalCell(network, loss_fn, add_cast_fp32=amp_level != "O0")
            self._eval_indexes = [0, 1, 2]

    def _build_train_network(self):
        from sprout import amp
        if self._optimizer is None:
            if self._amp_level != "O0":
                amp.auto_mixed_precision(self._network, self._amp_level)
            return None
        if self._amp_level != "O0":  # as MindSpore's Model: the loss in float32, O2's dynamic loss scale
            return amp.build_train_network(self._network, self._optimizer, self._loss_fn, level=self._amp_level,
                                           loss_scale_manager=self._loss_scale_manager)
        net = WithLossCell(self._network, self._loss_fn) if self._loss_fn is not None else self._network
        return TrainOneStepCell(net, self._optimizer)

    @property
    def train_network(self):
        return self._train_network

    @property
    def predict_network(self):
        return self._network

    @property
    def eval_network(self):
        return self._eval_network

    # --- training -----------------------------------------------------------------------------
    def train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False, sink_size=-1, initial_epoch=0):
        """Trains for `epoch` epochs, calling the callbacks' hooks."""
        self._run(epoch, train_dataset, callbacks, None, 1, initial_epoch)

    def fit(self, epoch, train_dataset, valid_dataset=None, valid_frequency=1, callbacks=None,
            dataset_sink_mode=False, valid_dataset_sink_mode=False, init_size=1):
        """Trains, evaluating on `valid_dataset` every `valid_frequency` epochs (results in cb_params.eval_results)."""
        if not isinstance(valid_frequency, int) or valid_frequency < 1:
            raise ValueError(f"Model.fit: 'valid_frequency' must be a positive int, but got {valid_frequency!r}")
        self._run(epoch, train_dataset, callbacks, valid_dataset, valid_frequency, 0)

    def _run(self, epoch, dataset, callbacks, valid_dataset, valid_frequency, initial_epoch):
        if self._train_network is None:
            raise RuntimeError("Model.train: give an optimizer (and a loss_fn unless the network returns the loss)")
        if not isinstance(epoch, int) or isinstance(epoch, bool) or epoch < 1:
            raise ValueError(f"Model.train: 'epoch' must be a positive int, but got {epoch!r}")
        if valid_dataset is not None and not self._metrics:
            raise ValueError("Model.fit: validation needs metrics: Model(..., metrics={'accuracy'})")
        user = list(callbacks) if isinstance(callbacks, (list, tuple)) else ([callbacks] if callbacks else [])
        if self._progress and _is_first_rank():  # one progress bar for a data-parallel job, not one per rank
            user.append(ProgressBar())
        cbs = CallbackList(user)
        cb = SimpleNamespace(train_network=self._train_network, network=self._network, optimizer=self._optimizer,
                             loss_fn=self._loss_fn, epoch_num=epoch, batch_num=_dataset_size(dataset),
                             cur_epoch_num=initial_epoch, cur_step_num=0, net_outputs=None, train_dataset=dataset,
                             mode="train", eval_results=None, list_callback=cbs.callbacks)
        ctx = RunContext(cb)
        self._train_network.set_train(True)
        cbs.on_train_begin(ctx)
        for e in range(initial_epoch, epoch):
            cb.cur_epoch_num = e + 1
            cbs.on_train_epoch_begin(ctx)
            steps = 0
            for batch in _batches(dataset, "train"):
                cb.cur_step_num += 1
                steps += 1
                cbs.on_train_step_begin(ctx)
                cb.net_outputs = self._train_network(*batch)
                cbs.on_train_step_end(ctx)
                if ctx.get_stop_requested():
                    break
            if steps == 0:
                raise ValueError("Model.train: the training dataset produced no batch")
            cb.batch_num = steps
            if valid_dataset is not None and cb.cur_epoch_num % valid_frequency == 0:
                cb.eval_results = self.eval(valid_dataset)
                print(f"Eval result: epoch {cb.cur_epoch_num}, metrics: {cb.eval_results}", flush=True)
                self._train_network.set_train(True)
            cbs.on_train_epoch_end(ctx)
            if ctx.get_stop_requested():
                break
        cbs.on_train_end(ctx)

    # --- evaluation and prediction --------------------------------------------------------------
    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False):
        """The metrics over `valid_dataset`: {name: value}."""
        if not self._metrics:
            raise ValueError("Model.eval: no metrics; construct Model(..., metrics={'accuracy'})")
        if self._eval_network is None:
            raise ValueError("Model.eval: give a loss_fn or an eval_network")
        cbs = CallbackList(callbacks)
        cb = SimpleNamespace(eval_network=self._eval_network, valid_dataset=valid_dataset, cur_step_num=0,
                             net_outputs=None, mode="eval", batch_num=_dataset_size(valid_dataset))
        ctx = RunContext(cb)
        self._eval_network.set_train(False)
        for metric in self._metrics.values():
            metric.clear()
        cbs.on_eval_begin(ctx)
        for batch in _batches(valid_dataset, "eval"):
            cb.cur_step_num += 1
            cbs.on_eval_step_begin(ctx)
            outputs = self._eval_network(*batch)
            cb.net_outputs = outputs
            self._update_metrics(outputs)
            cbs.on_eval_step_end(ctx)
        results = {name: metric.eval() for name, metric in self._metrics.items()}
        cb.metrics = results
        cbs.on_eval_end(ctx)
        return results

    def _update_metrics(self, outputs):
        outputs = outputs if isinstance(outputs, (tuple, list)) else (outputs,)
        loss_i, out_i, label_i = self._eval_indexes or (None, 0, len(outputs) - 1)
        for metric in self._metrics.values():
            if metric.indexes is not None:
                metric.update(*[outputs[i] for i in metric.indexes])
            elif isinstance(metric, Loss):
                if loss_i is None:
                    raise ValueError("Model.eval: the Loss metric needs a loss_fn or eval_indexes")
                metric.update(outputs[loss_i])
            else:
                metric.update(outputs[out_i], outputs[label_i])

    def predict(self, *predict_data, backend=None, config=None):
        """The network's output for `predict_data` (in inference mode)."""
        self._network.set_train(False)
        return self._network(*predict_data)


def _is_first_rank():
    return not _C.dist_initialized() or _C.dist_rank() == 0
