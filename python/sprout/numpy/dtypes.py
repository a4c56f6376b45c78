"""mindspore.numpy.dtypes: the dtype names mindspore.numpy exports and its constants.

As MindSpore's, the platform-width names are 32-bit (``int_`` is int32, ``float_`` float32): MindSpore maps
NumPy's 64-bit defaults down because its kernels favour 32 bits, and code written for mindspore.numpy
expects those dtypes; ``uint`` is uint32 likewise.
"""
from sprout.common.dtype import (bool_, float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32,
                                 uint64)

inf = float('inf')
PINF = float('inf')
NINF = float('-inf')
nan = float('nan')
pi = 3.141592653589793

int_ = int32
uint = uint32
float_ = float32

numeric_types = ['int_', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float_', 'float16',
                 'float32', 'float64', 'bool_']

dtype_tuple = (int_, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float_, float16, float32, float64,
               bool_)

# NumPy's type names (and Python's) to the dtypes mindspore.numpy gives them.
dtype_map = {'int': int_, 'int8': int8, 'int16': int16, 'int32': int32, 'int64': int64, 'uint': uint, 'uint8': uint8,
             'uint16': uint16, 'uint32': uint32, 'uint64': uint64, 'float': float_, 'float16': float16,
             'float32': float32, 'float64': float64, 'bool': bool_}

# The result dtype of trigonometric and other float functions on each input dtype (MindSpore's table:
# small integers go to float16, wider ones to float32).
rule_for_trigonometric = {float16: float16, float32: float32, float64: float64, int8: float16, int16: float32,
                          int32: float32, int64: float32, uint8: float16, uint16: float32, uint32: float32,
                          uint64: float32, bool_: float16}

__all__ = ['bool_', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'uint', 'float16',
           'float32', 'float64', 'int_', 'float_', 'inf', 'PINF', 'NINF', 'nan', 'pi', 'numeric_types']
