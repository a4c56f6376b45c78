"""``ms.recompute(block, *args)``: calls the Cell `block` on the arguments with its activations recomputed in
backward instead of kept, in PYNATIVE mode and in compiled code alike (Note [Recomputed cells] in
nn/_recompute.py); the function form of ``Cell.recompute()``, for one call."""


def recompute(block, *args, use_reentrant=True, output_recompute=False, early_stop=True, context_fn=None,
              **kwargs):
    """block(*args, **kwargs), its intermediate values recomputed when the gradient is taken."""
    from sprout.nn.cell import Cell
    if not isinstance(block, Cell):
        raise TypeError(f"recompute: 'block' must be a Cell, but got {type(block).__name__}")
    for name, value in (("use_reentrant", use_reentrant), ("output_recompute", output_recompute),
                        ("early_stop", early_stop)):
        if not isinstance(value, bool):
            raise TypeError(f"recompute: '{name}' must be a bool, but got {type(value).__name__}")
    if context_fn is not None:
        raise ValueError("recompute: 'context_fn' is not supported by Sprout; leave it None")
    if block._recompute:
        return block(*args, **kwargs)
    # The cell is marked for this call only; the mark is what both the eager call and the stager read.
    object.__setattr__(block, "_recompute", True)
    try:
        return block(*args, **kwargs)
    finally:
        object.__delattr__(block, "_recompute")


__all__ = ["recompute"]
