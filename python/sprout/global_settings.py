"""MindSpore's top-level setters that are context keys under another name: ``ms.set_deterministic`` (the
'deterministic' key) and ``ms.set_recursion_limit`` (the 'max_call_depth' key)."""
import numbers

from sprout import context


def set_deterministic(deterministic):
    """Asks for deterministic computation (context key 'deterministic' 'ON' or 'OFF').

    Sprout has no separate deterministic kernels to switch to, so the setting is recorded for get_context."""
    if not isinstance(deterministic, bool):
        raise TypeError(f"set_deterministic: 'deterministic' must be a bool, but got {type(deterministic).__name__}")
    context.set_context(deterministic="ON" if deterministic else "OFF")


def set_recursion_limit(recursion_limit=1000):
    """Sets the depth of nested graph calls compiled code may reach (context key 'max_call_depth'). Sprout's
    compiled code sets no such limit of its own (tail calls run in constant stack), so the value is recorded."""
    if isinstance(recursion_limit, bool) or not isinstance(recursion_limit, numbers.Integral):
        raise TypeError(f"set_recursion_limit: 'recursion_limit' must be an int, but got "
                        f"{type(recursion_limit).__name__}")
    if recursion_limit <= 0:
        raise ValueError(f"set_recursion_limit: 'recursion_limit' must be positive, but got {recursion_limit}")
    context.set_context(max_call_depth=int(recursion_limit))


__all__ = ["set_deterministic", "set_recursion_limit"]
