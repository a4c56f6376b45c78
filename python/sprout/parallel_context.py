"""``set_auto_parallel_context`` and ``ParallelMode`` (MindSpore 2.x): how a job of several ranks trains.

DATA_PARALLEL: every rank holds the whole model and a shard of each global batch, and TrainOneStepCell
averages (or sums) the gradients across ranks before the optimizer step (nn.DistributedGradReducer).
SEMI_AUTO_PARALLEL: every rank feeds the whole batch (full_batch=True in MindSpore's terms) and holds the
whole model; primitives given a strategy by ``shard`` split their computation across the ranks (Note
[Sharded primitives] in sprout/parallel/operator_sharding.py). AUTO_PARALLEL's strategy search is not built.
parameter_broadcast makes rank 0's weights everyone's when TrainOneStepCell is made, in either mode.
"""


class ParallelMode:
    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


_DEFAULTS = {"parallel_mode": ParallelMode.STAND_ALONE, "gradients_mean": False, "device_num": None,
             "global_rank": None, "parameter_broadcast": False, "full_batch": False}
_context = dict(_DEFAULTS)


def _check(key, value):
    if key == "parallel_mode":
        if value not in ParallelMode.MODE_LIST:
            raise ValueError(f"set_auto_parallel_context: parallel_mode must be one of {ParallelMode.MODE_LIST}, "
                             f"but got {value!r}")
        if value in (ParallelMode.HYBRID_PARALLEL, ParallelMode.AUTO_PARALLEL):
            raise ValueError(f"set_auto_parallel_context: parallel_mode '{value}' (a strategy search) is not "
                             f"supported; Sprout trains 'semi_auto_parallel' (strategies given by "
                             f"Primitive.shard), 'data_parallel' or 'stand_alone'")
    elif key in ("gradients_mean", "parameter_broadcast", "full_batch"):
        if not isinstance(value, bool):
            raise TypeError(f"set_auto_parallel_context: {key} must be a bool, but got {type(value).__name__}")
    elif key in ("device_num", "global_rank"):
        lowest = 1 if key == "device_num" else 0
        if isinstance(value, bool) or not isinstance(value, int) or value < lowest:
            raise ValueError(f"set_auto_parallel_context: {key} must be an int >= {lowest}, but got {value!r}")
    else:
        raise ValueError(f"set_auto_parallel_context: unknown key '{key}'; Sprout's keys: "
                         f"{', '.join(sorted(_DEFAULTS))}")
    return value


# dataset_strategy is full_batch under MindSpore's other name: "full_batch" (every rank reads the whole batch)
# or "data_parallel" (each rank its shard). Per-input layouts (a tuple of strategies) need sharded inputs.
_DATASET_STRATEGIES = {"data_parallel": False, "full_batch": True}


def _full_batch_of(dataset_strategy):
    if not isinstance(dataset_strategy, str) or dataset_strategy not in _DATASET_STRATEGIES:
        raise ValueError(f"set_auto_parallel_context: dataset_strategy must be 'data_parallel' or 'full_batch' "
                         f"(Sprout does not shard inputs by layout), but got {dataset_strategy!r}")
    return _DATASET_STRATEGIES[dataset_strategy]


def set_auto_parallel_context(**kwargs):
    if "dataset_strategy" in kwargs:
        if "full_batch" in kwargs:
            raise ValueError("set_auto_parallel_context: give dataset_strategy or full_batch, not both")
        kwargs["full_batch"] = _full_batch_of(kwargs.pop("dataset_strategy"))
    checked = {k: _check(k, v) for k, v in kwargs.items()}
    _context.update(checked)


def get_auto_parallel_context(attr_key):
    if attr_key == "dataset_strategy":
        return "full_batch" if _context["full_batch"] else "data_parallel"
    if attr_key not in _context:
        raise ValueError(f"get_auto_parallel_context: unknown key '{attr_key}'; Sprout's keys: "
                         f"{', '.join(sorted(_DEFAULTS))}")
    if attr_key == "device_num" and _context["device_num"] is None:
        return _group_size()
    if attr_key == "global_rank" and _context["global_rank"] is None:
        from sprout import _C
        return _C.dist_rank() if _C.dist_initialized() else 0
    return _context[attr_key]


def reset_auto_parallel_context():
    _context.clear()
    _context.update(_DEFAULTS)


def _group_size():
    from sprout import _C
    return _C.dist_size() if _C.dist_initialized() else 1


def _data_parallel():
    return _context["parallel_mode"] == ParallelMode.DATA_PARALLEL


def _semi_auto_parallel():
    return _context["parallel_mode"] == ParallelMode.SEMI_AUTO_PARALLEL
