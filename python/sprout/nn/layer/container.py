"""Containers: SequentialCell, CellList, CellDict."""
from collections import OrderedDict

from sprout.nn.cell import Cell


def _check_cell(api, value):
    if not isinstance(value, Cell):
        raise TypeError(f"{api}: every element must be a Cell, but got {type(value).__name__}")
    return value


class SequentialCell(Cell):
    """Runs its cells in order, each on the previous one's output."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, cell in args[0].items():
                self.insert_child_to_cell(name, _check_cell("SequentialCell", cell))
        else:
            cells = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
            for i, cell in enumerate(cells):
                self.insert_child_to_cell(str(i), _check_cell("SequentialCell", cell))

    def __getitem__(self, index):
        if isinstance(index, slice):
            return SequentialCell(list(self._cells.values())[index])
        return list(self._cells.values())[index]

    def __len__(self):
        return len(self._cells)

    def append(self, cell):
        self.insert_child_to_cell(str(len(self._cells)), _check_cell("SequentialCell.append", cell))
        return self

    def construct(self, x):
        for cell in self._cells.values():
            x = cell(x)
        return x


class CellList(Cell):
    """A list of cells, registered so their parameters belong to the owner."""

    def __init__(self, *args, **kwargs):
        super().__init__(auto_prefix=kwargs.get("auto_prefix", True))
        if args:
            self.extend(args[0])

    def __getitem__(self, index):
        if isinstance(index, slice):
            return CellList(list(self._cells.values())[index])
        return list(self._cells.values())[index]

    def __setitem__(self, index, cell):
        key = list(self._cells.keys())[index]
        self._cells[key] = _check_cell("CellList", cell)

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells.values())

    def append(self, cell):
        """Adds `cell` at the end; returns None, as list.append and MindSpore's CellList.append."""
        self.insert_child_to_cell(str(len(self._cells)), _check_cell("CellList.append", cell))

    def extend(self, cells):
        for cell in cells:
            self.append(cell)
        return self

    def insert(self, index, cell):
        cells = list(self._cells.values())
        cells.insert(index, _check_cell("CellList.insert", cell))
        self._cells.clear()
        for i, c in enumerate(cells):
            self._cells[str(i)] = c

    def construct(self, *inputs):
        raise TypeError("CellList is a container: call its cells, not the list")


class CellDict(Cell):
    """A dict of named cells."""

    def __init__(self, *args, **kwargs):
        super().__init__(auto_prefix=kwargs.get("auto_prefix", True))
        if args:
            self.update(args[0])

    def __getitem__(self, key):
        return self._cells[key]

    def __setitem__(self, key, cell):
        self.insert_child_to_cell(key, _check_cell("CellDict", cell))

    def __delitem__(self, key):
        del self._cells[key]

    def __contains__(self, key):
        return key in self._cells

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells)

    def keys(self):
        return self._cells.keys()

    def values(self):
        return self._cells.values()

    def items(self):
        return self._cells.items()

    def update(self, cells):
        items = cells.items() if hasattr(cells, "items") else cells
        for key, cell in items:
            self[key] = cell

    def pop(self, key):
        return self._cells.pop(key)

    def clear(self):
        """Removes every cell."""
        self._cells.clear()

    def construct(self, *inputs):
        raise TypeError("CellDict is a container: call its cells, not the dict")
