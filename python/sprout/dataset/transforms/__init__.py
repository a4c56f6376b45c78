"""sprout.dataset.transforms: general transforms (``mindspore.dataset.transforms``)."""
from sprout.dataset.transforms.transforms import (Compose, Concatenate, Duplicate, Fill, Mask, OneHot, PadEnd,
                                                  RandomApply, RandomChoice, RandomOrder, Relational, Slice,
                                                  TensorOperation, TypeCast)

__all__ = ["Compose", "Concatenate", "Duplicate", "Fill", "Mask", "OneHot", "PadEnd", "RandomApply", "RandomChoice",
           "RandomOrder", "Relational", "Slice", "TensorOperation", "TypeCast"]
