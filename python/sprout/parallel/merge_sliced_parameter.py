"""``ms.merge_sliced_parameter``: the slices of one Parameter, saved by the ranks of a sharded job, joined back
into the whole Parameter along axis 0 (MindSpore's behavior without a strategy)."""


def merge_sliced_parameter(sliced_parameters, strategy=None):
    """One Parameter from its slices (same name, same shape past axis 0), concatenated along axis 0 in order.

    `strategy`, MindSpore's per-parameter layouts read from a strategy checkpoint file, is not supported:
    Sprout's sharded ops keep every Parameter whole on every rank (Note [Sharded primitives])."""
    from sprout import ops
    from sprout.common.parameter import Parameter
    api = "merge_sliced_parameter"
    if not isinstance(sliced_parameters, (list, tuple)):
        raise TypeError(f"{api}: 'sliced_parameters' must be a list of Parameters, but got "
                        f"{type(sliced_parameters).__name__}")
    if not sliced_parameters:
        raise ValueError(f"{api}: 'sliced_parameters' must not be empty")
    if strategy is not None:
        if not isinstance(strategy, dict):
            raise TypeError(f"{api}: 'strategy' must be a dict or None, but got {type(strategy).__name__}")
        if strategy:
            raise ValueError(f"{api}: 'strategy' (layouts from a strategy checkpoint) is not supported by Sprout, "
                             f"whose sharded ops keep Parameters whole; pass strategy=None to join along axis 0")
    first = sliced_parameters[0]
    for index, parameter in enumerate(sliced_parameters):
        if not isinstance(parameter, Parameter):
            raise TypeError(f"{api}: every element of 'sliced_parameters' must be a Parameter, but got "
                            f"{type(parameter).__name__} at index {index}")
        if parameter.name != first.name or parameter.ndim != first.ndim or parameter.shape[1:] != first.shape[1:]:
            raise ValueError(f"{api}: the slices must have one name, rank and shape past axis 0 ({first.name}, "
                             f"{first.ndim}, {tuple(first.shape[1:])}), but got {parameter.name}, {parameter.ndim}, "
                             f"{tuple(parameter.shape[1:])} at index {index}")
        if parameter.dtype != first.dtype:
            raise TypeError(f"{api}: the slices must have one dtype, {first.dtype}, but got {parameter.dtype} at "
                            f"index {index}")
    if first.ndim == 0:
        raise ValueError(f"{api}: the slices must have at least one dimension, but got 0-d Parameters")
    merged = ops.concat([p.copy() for p in sliced_parameters], 0)
    return Parameter(merged, first.name, first.requires_grad, first.layerwise_parallel)


__all__ = ["merge_sliced_parameter"]
