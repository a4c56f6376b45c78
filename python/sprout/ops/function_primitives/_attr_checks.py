"""Checks of constructor arguments shared by the Primitive classes over functional ops (the functions check
their own inputs): each error names the primitive, the argument, what was expected and what was given."""
from sprout.common import dtype as mstype


def check_int(api, arg, value, minimum=None):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{api}: '{arg}' must be an int, but got {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{api}: '{arg}' must be at least {minimum}, but got {value}")
    return value


def check_bool(api, arg, value):
    if not isinstance(value, bool):
        raise TypeError(f"{api}: '{arg}' must be a bool, but got {value!r}")
    return value


def check_float(api, arg, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{api}: '{arg}' must be a float, but got {value!r}")
    return float(value)


def check_dtype(api, arg, value, allowed):
    if value not in allowed:
        names = ", ".join(str(d) for d in allowed)
        raise TypeError(f"{api}: '{arg}' must be one of {names}, but got {value!r}")
    return value


def check_int_tuple(api, arg, value):
    """An int or a tuple/list of ints, as a tuple."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,)
    if isinstance(value, (tuple, list)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return tuple(value)
    raise TypeError(f"{api}: '{arg}' must be an int or a tuple of ints, but got {value!r}")


FLOAT_DTYPES = (mstype.float16, mstype.float32, mstype.float64)
INDEX_DTYPES = (mstype.int32, mstype.int64)
