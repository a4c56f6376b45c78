"""OpRecord: everything the harness needs to test one operator."""
from dataclasses import dataclass, field
from typing import Callable, Optional


import sprout as ms

FLOAT_DTYPES = (ms.float16, ms.bfloat16, ms.float32, ms.float64)
INT_DTYPES = (ms.int8, ms.int16, ms.int32, ms.int64, ms.uint8)
NUMERIC_DTYPES = INT_DTYPES + FLOAT_DTYPES

# (rtol, atol) per dtype, for comparing against a float64 NumPy reference.
DEFAULT_TOL = {
    ms.float16: (2e-3, 2e-3), ms.bfloat16: (1.6e-2, 1.6e-2), ms.float32: (2e-6, 1e-6),
    ms.float64: (1e-12, 1e-12),
}


@dataclass
class OpRecord:
    op: str                                   # registry name ("Add")
    call: Callable                            # how a user calls it: (*Tensors) -> Tensor or tuple
    ref: Callable                             # NumPy reference: (*float64/int arrays) -> array(s)
    shapes: list                              # sample input shapes: [(shape_x, shape_y), ...]
    dtypes: tuple = FLOAT_DTYPES
    low: float = -3.0                         # sample value range
    high: float = 3.0
    tol: dict = field(default_factory=dict)   # overrides of DEFAULT_TOL
    prim: Optional[Callable] = None           # () -> _C.Primitive for the bprop check; None: no rule
    grad_shapes: Optional[list] = None        # shapes for the gradient check (default: `shapes`)
    bad: list = field(default_factory=list)   # [(() -> call that must fail, exception type, message regex)]
    exact: bool = False                       # integer-valued results compared exactly
    input_dtypes: Optional[tuple] = None      # per input: a fixed dtype (class labels: ms.int32), None = swept
    sampler: Optional[Callable] = None        # (rng, shapes, dtype) -> arrays, replacing `sample`
    grad_outputs: Optional[tuple] = None      # outputs given a random dout in the gradient check (default all;
                                              # the others get zeros, e.g. a mask the rule ignores)
    random: bool = False                      # random outputs: `ref` maps the input Tensors to each output's
                                              # (shape, dtype); the harness checks those, that a second call
                                              # (same seeds) agrees, and `support`
    support: Optional[Callable] = None        # random ops: (*inputs, *outputs) -> True when every value drawn
                                              # is one the distribution allows

    def input_dtype(self, index, dtype):
        """The dtype input `index` is given when the sweep is at `dtype`."""
        fixed = self.input_dtypes[index] if self.input_dtypes and index < len(self.input_dtypes) else None
        return fixed if fixed is not None else dtype

    def tolerance(self, dtype):
        return self.tol.get(dtype, DEFAULT_TOL.get(dtype, (0, 0)))

    def sample(self, rng, shapes, dtype):
        """NumPy inputs for `shapes` in `dtype`'s value range (ints drawn as ints)."""
        if self.sampler is not None:
            return self.sampler(rng, shapes, dtype)
        arrays = []
        for shape in shapes:
            if dtype == ms.bool_:
                arrays.append(rng.random(shape) > 0.5)
            elif dtype in INT_DTYPES:
                low = max(self.low, 0) if dtype == ms.uint8 else self.low
                arrays.append(rng.integers(int(low), int(self.high) + 1, size=shape).astype(ms.dtype_to_nptype(dtype)))
            else:
                arrays.append(rng.uniform(self.low, self.high, size=shape))
        return arrays
