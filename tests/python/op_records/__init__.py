"""The op-test harness's records: one OpRecord per registry op, one module per op family.

Adding an op means adding a record to the module of its family (and listing new modules below).
test_op_records.py runs every record: NumPy comparison over samples and dtypes, bad inputs, and a
float64 finite-difference check of the op's bprop rule called through the eager emitter.
"""
from op_records.record import OpRecord  # noqa: F401
from op_records import array, math, reduce

ALL_RECORDS = array.RECORDS + math.RECORDS + reduce.RECORDS
