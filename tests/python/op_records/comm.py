"""Records of the collectives in a job of one process (the pytest process joins one): AllReduce and
Broadcast give the input back, AllGather too (one rank's block). tests/python/test_distributed.py runs
them across two ranks."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from sprout.communication import init
from op_records.record import NUMERIC_DTYPES, OpRecord

init()

RECORDS = [
    OpRecord("AllReduce", lambda x: ops.AllReduce()(x), lambda x: x, [((2, 3),), ((),), ((0,),)], NUMERIC_DTYPES,
             exact=True, prim=lambda: _C.Primitive("AllReduce", {}),
             bad=[(lambda: ops.AllReduce("mean")(ms.Tensor([1.0])), ValueError, "AllReduce: op must be")]),
    OpRecord("AllGather", lambda x: ops.AllGather()(x), lambda x: x, [((2, 3),), ((1,),)], NUMERIC_DTYPES,
             exact=True, prim=lambda: _C.Primitive("AllGather", {}),
             bad=[(lambda: ops.AllGather()(ms.Tensor(1.0)), ValueError, "AllGather: the input must have")]),
    OpRecord("Broadcast", lambda x: ops.Broadcast(0)((x,))[0], lambda x: x, [((2, 3),), ((),)], NUMERIC_DTYPES,
             exact=True, prim=lambda: _C.Primitive("Broadcast", {"root_rank": 0}),
             bad=[(lambda: ops.Broadcast(2)((ms.Tensor([1.0]),)), ValueError, "Broadcast: root_rank 2")]),
]
