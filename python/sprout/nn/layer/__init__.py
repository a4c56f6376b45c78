from sprout.nn.layer.basic import Dense, Flatten, Identity
from sprout.nn.layer.container import CellDict, CellList, SequentialCell

__all__ = ["Dense", "Flatten", "Identity", "SequentialCell", "CellList", "CellDict"]
