"""nn.Cell: the base class of networks (``mindspore.nn.Cell``).

A Cell owns Parameters and sub-Cells, registered when assigned as attributes; its ``construct``
computes the forward pass. Parameter names follow MindSpore: a parameter takes its attribute name,
and a sub-cell's parameters are prefixed with the sub-cell's attribute name ("fc1.weight").
A subclass may define ``bprop(self, *inputs, out, dout)`` to replace autodiff for the cell.
"""
import random
import sys
from collections import OrderedDict

from sprout import _C, context
from sprout._frontend import calls as _staging
from sprout.common import dtype as mstype
from sprout.common.parameter import Parameter, ParameterTuple
from sprout.common.tensor import Tensor
from sprout.nn import _backward_hooks, _recompute


# Note [Training mode in compiled graphs]
# A cell's construct reads `self.training` while it is staged (Dropout and BatchNorm branch on it), so a
# graph compiled in one mode is wrong in the other. Every cell carries a random token; this XOR of the
# tokens of the cells now in training mode changes with any cell's mode and is part of every compiled
# graph's cache key: set_train(False) selects (or compiles) the evaluation graph, and switching back
# finds the training graph again.
_training_state = [0]


def _set_training(cell, mode):
    mode = bool(mode)
    d = cell.__dict__
    if "_train_token" not in d:
        object.__setattr__(cell, "_train_token", random.getrandbits(63))
    if d.get("training", False) != mode:
        _training_state[0] ^= d["_train_token"]
    object.__setattr__(cell, "training", mode)


def training_state():
    """The current training modes of all cells, as one number (Note [Training mode in compiled graphs])."""
    return _training_state[0]


class Cell:
    def __init__(self, auto_prefix=True, flags=None):
        object.__setattr__(self, "_params", OrderedDict())
        object.__setattr__(self, "_cells", OrderedDict())
        # ParameterTuple attributes (an optimizer's moments): their Parameters belong to the cell's
        # parameters, hence to its checkpoints (MindSpore's _params_list).
        object.__setattr__(self, "_param_tuples", OrderedDict())
        object.__setattr__(self, "_forward_pre_hooks", OrderedDict())
        object.__setattr__(self, "_forward_hooks", OrderedDict())
        object.__setattr__(self, "_backward_pre_hooks", OrderedDict())
        object.__setattr__(self, "_backward_hooks", OrderedDict())
        object.__setattr__(self, "_hook_id", 0)
        self._auto_prefix = auto_prefix
        self.training = False
        self._float_dtype = None
        self._output_dtype = None  # amp O1: white-list cells give float32 results back
        self.cls_name = type(self).__name__
        self._flags = dict(flags or {})

    # --- registration -------------------------------------------------------------------------
    def __setattr__(self, name, value):
        if name == "training":
            _set_training(self, value)
            return
        cells = self.__dict__.get("_cells")
        if cells is None and isinstance(value, (Cell, Parameter)):
            raise RuntimeError(f"{type(self).__name__}: call super().__init__() before assigning '{name}'")
        if isinstance(value, Parameter):
            self.insert_param_to_cell(name, value)
        elif isinstance(value, Cell):
            self.insert_child_to_cell(name, value)
        elif isinstance(value, ParameterTuple):
            if cells is None:
                raise RuntimeError(f"{type(self).__name__}: call super().__init__() before assigning '{name}'")
            self._param_tuples[name] = value
            object.__setattr__(self, name, value)
        else:
            self.__dict__.get("_param_tuples", {}).pop(name, None)
            params = self.__dict__.get("_params")
            if params is not None and name in params and value is not None:
                raise TypeError(f"{type(self).__name__}: '{name}' is a Parameter; assign a Parameter, not "
                                f"{type(value).__name__}")
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        d = self.__dict__
        if "_params" in d and name in d["_params"]:
            param = d["_params"][name]
            if _staging._active and param is not None:
                # Library code runs natively while a graph is staged (Note [Staging]): it reads the
                # Parameter as the graph's value, or a Tensor method on it (slicing, astype) would compute
                # now, a constant that no gradient reaches.
                param = _staging.active_context().load_parameter(param)
            if d.get("_float_dtype") is not None:
                return self._param_in_float_dtype(param)
            return param
        if "_cells" in d and name in d["_cells"]:
            return d["_cells"][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        if name in self._params:
            del self._params[name]
        elif name in self._cells:
            del self._cells[name]
        else:
            self._param_tuples.pop(name, None)
            object.__delattr__(self, name)

    def insert_param_to_cell(self, param_name, param, check_name_contain_dot=True):
        """Registers `param` under `param_name`; it takes that name unless it was named explicitly."""
        if not isinstance(param_name, str) or not param_name:
            raise KeyError(f"insert_param_to_cell: 'param_name' must be a non-empty str, but got {param_name!r}")
        if check_name_contain_dot and "." in param_name:
            raise KeyError(f"insert_param_to_cell: 'param_name' must not contain '.', but got {param_name!r}")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"insert_param_to_cell: 'param' must be a Parameter, but got {type(param).__name__}")
        if param is not None and param.name == "Parameter":
            param.name = param_name
        self.__dict__.pop(param_name, None)
        self._params[param_name] = param

    def insert_child_to_cell(self, child_name, child_cell):
        """Registers `child_cell` under `child_name`, prefixing its parameter names with it."""
        if not isinstance(child_name, str) or not child_name or "." in child_name:
            raise KeyError(f"insert_child_to_cell: 'child_name' must be a non-empty str without '.', "
                           f"but got {child_name!r}")
        if child_cell is not None and not isinstance(child_cell, Cell):
            raise TypeError(f"insert_child_to_cell: 'child_cell' must be a Cell, but got {type(child_cell).__name__}")
        if child_cell is not None and self._auto_prefix and child_cell._auto_prefix:
            for _, p in child_cell.parameters_and_names():
                p.name = f"{child_name}.{p.name}"
        self.__dict__.pop(child_name, None)
        self._cells[child_name] = child_cell

    def update_parameters_name(self, prefix="", recurse=True):
        """Prefixes every parameter name with `prefix` (MindSpore's update_parameters_name)."""
        if not isinstance(prefix, str):
            raise TypeError(f"update_parameters_name: 'prefix' must be a str, but got {type(prefix).__name__}")
        for _, p in self.parameters_and_names(expand=recurse):
            p.name = prefix + p.name

    # --- traversal ----------------------------------------------------------------------------
    def cells_and_names(self, cells=None, name_prefix=""):
        """(name, cell) for this cell and every sub-cell, each once, depth first."""
        seen = cells if cells is not None else set()
        if id(self) not in seen:
            seen.add(id(self))
            yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is not None and id(cell) not in seen:
                yield from cell.cells_and_names(seen, f"{name_prefix}.{name}" if name_prefix else name)

    def name_cells(self):
        return OrderedDict((name, cell) for name, cell in self._cells.items() if cell is not None)

    def cells(self):
        return self.name_cells().values()

    def parameters_and_names(self, name_prefix="", expand=True):
        """(name, Parameter) for this cell's parameters (and its sub-cells' with expand), each once."""
        seen = set()
        cells = self.cells_and_names() if expand else [("", self)]
        for _, cell in cells:
            for p in [*cell._params.values(), *(p for t in cell._param_tuples.values() for p in t)]:
                if p is not None and id(p) not in seen:
                    seen.add(id(p))
                    yield (f"{name_prefix}.{p.name}" if name_prefix else p.name), p

    def get_parameters(self, expand=True):
        for _, p in self.parameters_and_names(expand=expand):
            yield p

    def trainable_params(self, recurse=True):
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse=True):
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse=True):
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def apply(self, fn):
        for _, cell in self.cells_and_names():
            fn(cell)
        return self

    # --- modes --------------------------------------------------------------------------------
    def set_train(self, mode=True):
        for _, cell in self.cells_and_names():
            _set_training(cell, mode)
            cell.__dict__.pop("_phase", None)  # as MindSpore, set_train names the phase again
        return self

    @property
    def phase(self):
        """The phase name compiled code is built under: 'train' or 'predict' from set_train, unless set by hand."""
        return self.__dict__.get("_phase") or ("train" if self.training else "predict")

    @phase.setter
    def phase(self, value):
        if not isinstance(value, str):
            raise TypeError(f"Cell.phase: must be a str, but got {type(value).__name__}")
        object.__setattr__(self, "_phase", value)

    def to_float(self, dst_type):
        """Runs this cell (and its sub-cells) with floating-point inputs cast to `dst_type`."""
        if dst_type not in (mstype.float16, mstype.bfloat16, mstype.float32):
            raise ValueError(f"to_float: 'dst_type' must be float16, bfloat16 or float32, but got {dst_type!r}")
        for _, cell in self.cells_and_names():
            object.__setattr__(cell, "_float_dtype", dst_type)
        return self

    # --- calling ------------------------------------------------------------------------------
    def construct(self, *inputs, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must define construct()")

    def register_forward_pre_hook(self, hook_fn):
        """hook_fn(cell, inputs) runs before construct; it may return replacement inputs."""
        return self._add_hook(self._forward_pre_hooks, hook_fn)

    def register_forward_hook(self, hook_fn):
        """hook_fn(cell, inputs, output) runs after construct; it may return a replacement output."""
        return self._add_hook(self._forward_hooks, hook_fn)

    _recompute = False

    def recompute(self, *, use_reentrant=True, output_recompute=False, early_stop=True, context_fn=None, **kwargs):
        """Recompute this cell's activations in backward instead of keeping them (memory for time).
        Both modes (Note [Recomputed cells] in python/sprout/nn/_recompute.py)."""
        for name, value in (("use_reentrant", use_reentrant), ("output_recompute", output_recompute),
                            ("early_stop", early_stop)):
            if not isinstance(value, bool):
                raise TypeError(f"Cell.recompute: '{name}' must be a bool, but got {type(value).__name__}")
        if context_fn is not None:
            raise ValueError("Cell.recompute: 'context_fn' is not supported by Sprout; leave it None")
        known = {"mp_comm_recompute", "parallel_optimizer_comm_recompute", "recompute_slice_activation"}
        for name, value in kwargs.items():
            if name not in known:
                raise TypeError(f"Cell.recompute: unexpected keyword argument {name!r}")
            if not isinstance(value, bool):
                raise TypeError(f"Cell.recompute: '{name}' must be a bool, but got {type(value).__name__}")
        object.__setattr__(self, "_recompute", True)
        return self

    def register_backward_pre_hook(self, hook_fn):
        """hook_fn(cell, grad_output) runs in backward when the gradient of the cell's output is known; it may
        return a replacement for it. PYNATIVE mode (a GRAPH_MODE call of this cell runs eagerly)."""
        return self._add_hook(self._backward_pre_hooks, hook_fn)

    def register_backward_hook(self, hook_fn):
        """hook_fn(cell, grad_input, grad_output) runs in backward when the gradients of the cell's inputs
        are known (grad_input, a tuple with None for inputs that get none) given those of its outputs
        (grad_output); it may return replacement input gradients. PYNATIVE mode, as register_forward_hook."""
        return self._add_hook(self._backward_hooks, hook_fn)

    def _add_hook(self, hooks, fn):
        if not callable(fn):
            raise TypeError(f"register hook: 'hook_fn' must be callable, but got {type(fn).__name__}")
        hook_id = self._hook_id
        object.__setattr__(self, "_hook_id", hook_id + 1)
        hooks[hook_id] = fn
        return _HookHandle(hooks, hook_id)

    # Whether a cell run with to_float reads its Parameters cast to that dtype. BatchNorm does not: its
    # kernels take a half-precision input with float32 statistics, which it updates in place.
    _casts_params = True

    def _param_in_float_dtype(self, param):
        """A floating Parameter as this cell computes (to_float): a cast, through which the gradient reaches
        the float32 Parameter (MindSpore's mixed precision: float32 weights, half-precision arithmetic)."""
        if (param is None or not self._casts_params or param.dtype == self._float_dtype
                or not mstype.is_floating_type(param.dtype)):
            return param
        return param.astype(self._float_dtype)

    def _cast_inputs(self, inputs):
        if self._float_dtype is None:
            return inputs
        # Tensors inside tuples and lists too (an LSTM cell's (h, c)), as MindSpore casts them. Inputs
        # already in the dtype are passed on as they are, and a tensor passed twice is cast once: callees
        # may test identity (MultiheadAttention's `query is key is value` projects all three with one
        # product).
        cast = {}

        def one(x):
            if isinstance(x, (tuple, list)):
                return type(x)(one(item) for item in x)
            if not isinstance(x, Tensor) or x.dtype == self._float_dtype or not mstype.is_floating_type(x.dtype):
                return x
            if id(x) not in cast:
                cast[id(x)] = x.astype(self._float_dtype)
            return cast[id(x)]
        return tuple(one(x) for x in inputs)

    def _cast_output(self, output):
        if self._output_dtype is None:
            return output
        if isinstance(output, tuple):
            return tuple(self._cast_output(o) for o in output)
        if isinstance(output, Tensor) and mstype.is_floating_type(output.dtype):
            return output.astype(self._output_dtype, copy=False)
        return output

    def __call__(self, *inputs, **kwargs):
        # The checks are written for the common case, a PYNATIVE call without hooks or casts (a cell
        # call is a few ops' worth of time otherwise: 1.5 -> 0.6 us around an empty construct).
        graph = _graph_call(self, inputs, kwargs)
        if graph is not _EAGER:
            return graph
        if self._float_dtype is not None:
            inputs = self._cast_inputs(inputs)
        if self._forward_pre_hooks:
            for hook in list(self._forward_pre_hooks.values()):
                replaced = hook(self, inputs)
                if replaced is not None:
                    inputs = replaced if isinstance(replaced, tuple) else (replaced,)
        if self._recompute and _C.is_recording() and not _recompute.nested():
            output = _recompute.call_recomputed(self, inputs, kwargs)
        elif (self._backward_hooks or self._backward_pre_hooks) and _C.is_recording():
            output = _backward_hooks.call_with_backward_hooks(self, inputs, kwargs)
        elif type(self).bprop is not Cell.bprop and _C.is_recording():
            output = self._call_with_custom_bprop(inputs, kwargs)
        else:
            output = self.construct(*inputs, **kwargs)
        if self._output_dtype is not None:
            output = self._cast_output(output)
        if self._forward_hooks:
            for hook in list(self._forward_hooks.values()):
                replaced = hook(self, inputs, output)
                if replaced is not None:
                    output = replaced
        return output

    def bprop(self, *args):
        """Override as ``bprop(self, *inputs, out, dout)`` returning one gradient per input."""
        raise NotImplementedError(f"{type(self).__name__} has no bprop; define bprop(self, *inputs, out, dout)")

    def _call_with_custom_bprop(self, inputs, kwargs):
        tensor_inputs = [x for x in inputs if isinstance(x, Tensor)]
        with _C.NoGrad():  # the forward pass is opaque to autodiff: bprop gives its gradients
            output = self.construct(*inputs, **kwargs)
        outputs = list(output) if isinstance(output, tuple) else [output]

        def backward(douts):
            dout = douts if isinstance(output, tuple) else douts[0]
            grads = self.bprop(*inputs, output, dout)
            grads = grads if isinstance(grads, tuple) else (grads,)
            tensor_grads = [g for x, g in zip(inputs, grads) if isinstance(x, Tensor)]
            if len(grads) != len(inputs):
                raise ValueError(f"{type(self).__name__}.bprop must return {len(inputs)} gradient(s), one per input, "
                                 f"but returned {len(grads)}")
            return tuple(tensor_grads)

        tracked = _C.record_custom(backward, tensor_inputs, outputs)
        return tuple(tracked) if isinstance(output, tuple) else tracked[0]

    # --- printing -----------------------------------------------------------------------------
    def extend_repr(self):
        """Extra text inside the parentheses of this cell's repr (layers override it)."""
        return ""

    def __repr__(self):
        """MindSpore 2.x's form (PyTorch's): ``Dense(input_channels=2, ...)``, and with sub-cells
        ``Net(\n  (fc): Dense(...)\n)``, the extra text's lines first."""
        extra = self.extend_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): " + repr(cell).replace("\n", "\n  ") for name, cell in self._cells.items()]
        if len(extra_lines) == 1 and not child_lines:
            return f"{type(self).__name__}({extra_lines[0]})"
        lines = extra_lines + child_lines
        body = "\n  " + "\n  ".join(lines) + "\n" if lines else ""
        return f"{type(self).__name__}({body})"


class _HookHandle:
    def __init__(self, hooks, hook_id):
        self._hooks, self._id = hooks, hook_id

    def remove(self):
        self._hooks.pop(self._id, None)


_EAGER = object()


def _graph_call(cell, inputs, kwargs):
    """GRAPH_MODE: a call compiles `construct` (cached per input signature) and runs the graph. While a
    graph is being built, library code calling a cell stages it into that graph. Otherwise _EAGER."""
    calls = sys.modules.get("sprout._frontend.calls")  # imported here the first time: it imports this module
    if calls is None:
        from sprout._frontend import calls
    stager = calls.current_stager()
    if stager is not None:
        return calls.call_cell(stager, cell, list(inputs), kwargs)
    if context._context["mode"] != context.GRAPH_MODE or _C.is_recording():
        return _EAGER
    if cell._forward_pre_hooks or cell._forward_hooks or cell._backward_pre_hooks or cell._backward_hooks:
        return _EAGER  # hooks are Python callbacks around construct: PYNATIVE only, as in MindSpore
    jit_construct = cell.__dict__.get("_jit_construct")
    if jit_construct is None:
        from sprout._frontend.jit import JitFunction
        construct = type(cell).construct
        jit_construct = JitFunction(getattr(construct, "fn", construct), cell)
        object.__setattr__(cell, "_jit_construct", jit_construct)
    return jit_construct(*inputs, **kwargs)
