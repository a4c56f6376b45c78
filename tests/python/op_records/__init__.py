"""The op-test harness's records: one OpRecord per registry op, one module per op family.

Adding an op means adding a record to the module of its family (every module here with a RECORDS
list is collected). test_op_records.py runs every record: NumPy comparison over samples and dtypes,
bad inputs, and a float64 finite-difference check of the op's bprop rule through the eager emitter.
"""
import importlib
import pkgutil

from op_records.record import OpRecord  # noqa: F401

ALL_RECORDS = []
for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _info.name != "record":
        ALL_RECORDS += getattr(importlib.import_module(f"op_records.{_info.name}"), "RECORDS", [])
