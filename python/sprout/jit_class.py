"""``ms.jit_class``: marks a user-defined class as one whose instances compiled code (ms.jit, GRAPH_MODE) uses.

Sprout's stager reads any object's attributes and stages its methods while compiling (Note [Staging] in
_frontend/stager.py), so the decorator only checks its argument and sets MindSpore's mark, __ms_class__."""
import inspect


def jit_class(cls):
    """The class `cls` (not a Cell), marked for compiled code; returns it."""
    from sprout.nn.cell import Cell
    if not inspect.isclass(cls):
        raise TypeError(f"jit_class: can only decorate a class, but got {type(cls).__name__} {cls!r}")
    if issubclass(cls, Cell):
        raise TypeError(f"jit_class: is for user-defined classes, not nn.Cell, but got {cls.__name__}")
    cls.__ms_class__ = True
    return cls


__all__ = ["jit_class"]
