"""Tensor.gather's two MindSpore 2.10 overloads: ``x.gather(input_indices, axis, batch_dims=0)`` (ops.gather:
slices along an axis) and the PyTorch-style ``x.gather(dim, index)`` (ops.gather_elements: one element per
index), told apart as MindSpore does: an int first argument with a Tensor second (or the keywords dim= and
index=) is the second form. Attached by tensor_methods_wave2.attach(), over the earlier definition, which the
new one calls.
"""
import numbers

from sprout.common.tensor import Tensor


def _is_dim(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _elementwise_call(args, kwargs):
    """(dim, index) if this call is the gather(dim, index) overload, else None."""
    if "dim" in kwargs or "index" in kwargs:
        if "input_indices" in kwargs or "axis" in kwargs or "batch_dims" in kwargs or len(args) > 2:
            raise TypeError("Tensor.gather: use either gather(dim, index) or gather(input_indices, axis, "
                            "batch_dims=0), not a mix of their arguments")
        named = dict(zip(("dim", "index"), args))
        duplicate = set(named) & set(kwargs)
        if duplicate:
            raise TypeError(f"Tensor.gather() got multiple values for argument {sorted(duplicate)[0]!r}")
        named.update(kwargs)
        if set(named) != {"dim", "index"}:
            raise TypeError(f"Tensor.gather(dim, index) is missing {sorted({'dim', 'index'} - set(named))[0]!r}")
        return named["dim"], named["index"]
    if len(args) == 2 and not kwargs and _is_dim(args[0]) and isinstance(args[1], Tensor):
        return args[0], args[1]
    return None


def _gather(base):
    def gather(self, *args, **kwargs):
        """gather(dim, index): the elements of self at `index` along `dim` (ops.gather_elements); or
        gather(input_indices, axis, batch_dims=0): slices along `axis` (ops.gather)."""
        picked = _elementwise_call(args, kwargs)
        if picked is None:
            return base(self, *args, **kwargs)
        from sprout.ops.function.array_func import gather_elements
        return gather_elements(self, *picked)
    gather._mindspore_overloads = True
    return gather


def attach():
    """Replaces Tensor.gather by the dispatching method (once)."""
    if not getattr(Tensor.gather, "_mindspore_overloads", False):
        Tensor.gather = _gather(Tensor.gather)


__all__ = ["attach"]
