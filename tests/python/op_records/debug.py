"""Print: its value is an Int32 zero; the printed text is checked in test_graph_mode.py."""
import numpy as np

import sprout as ms
from sprout import ops
from op_records.record import OpRecord

RECORDS = [
    OpRecord("Print", lambda x: ops.Print()("value:", x), lambda x: np.array(0, np.int32), [((3,),)],
             (ms.float32, ms.int64), exact=True),
]
