"""Parameter: a Tensor that a Cell trains, with a name and a requires_grad flag."""
from sprout.common.tensor import Tensor


class Parameter(Tensor):
    """``Parameter(default_input, name=None, requires_grad=True, layerwise_parallel=False)``.

    Holds its own copy of `default_input` (a Tensor, NumPy array or number). In-place updates
    (optimizers, ``assign``) write into that memory, so every view of the parameter sees them.
    """

    def __init__(self, default_input, name=None, requires_grad=True, layerwise_parallel=False, parallel_optimizer=True):
        if name is not None and not isinstance(name, str):
            raise TypeError(f"Parameter: 'name' must be a str or None, but got {type(name).__name__}")
        if not isinstance(requires_grad, bool):
            raise TypeError(f"Parameter: 'requires_grad' must be a bool, but got {type(requires_grad).__name__}")
        super().__init__(default_input)
        self.name = name if name is not None else "Parameter"
        self.requires_grad = requires_grad
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer

    def __repr__(self):
        return f"Parameter (name={self.name}, shape={self.shape}, dtype={self.dtype}, requires_grad={self.requires_grad})"

    __str__ = __repr__

    def __deepcopy__(self, memo):
        return Parameter(self.copy(), name=self.name, requires_grad=self.requires_grad)

    def clone(self, init="same"):
        if init != "same":
            raise ValueError(f"Parameter.clone: only init='same' is supported, got {init!r}")
        return Parameter(self, name=self.name, requires_grad=self.requires_grad)

    def set_data(self, data, slice_shape=False):
        """Replaces the value (same shape; cast to this parameter's dtype)."""
        self._assign_value(data if isinstance(data, Tensor) else Tensor(data))
        return self

    @property
    def data(self):
        return self

    def value(self):
        return self


class ParameterTuple(tuple):
    """A tuple of Parameters (with unique names), as optimizers and grad take them."""

    def __new__(cls, iterable):
        params = tuple(iterable)
        for p in params:
            if not isinstance(p, Parameter):
                raise TypeError(f"ParameterTuple: every element must be a Parameter, but got {type(p).__name__}")
        return super().__new__(cls, params)

    def clone(self, prefix, init="same"):
        """Copies named prefix.<name>: of the values ("same") or filled by an initializer ("zeros", "ones", a
        number, an Initializer), each in its parameter's shape and dtype, as optimizers make their state."""
        if init == "same":
            return ParameterTuple(Parameter(p, name=f"{prefix}.{p.name}", requires_grad=p.requires_grad)
                                  for p in self)
        from sprout.common.initializer import initializer
        return ParameterTuple(Parameter(initializer(init, p.shape, p.dtype), name=f"{prefix}.{p.name}",
                                        requires_grad=p.requires_grad) for p in self)
