"""sprout.mindrecord: MindRecord files (``mindspore.mindrecord``), in the published layout so files move
between Sprout and MindSpore. The layout is described in _layout.py."""
from sprout.mindrecord.filereader import FileReader
from sprout.mindrecord.filewriter import FileWriter

__all__ = ["FileReader", "FileWriter"]
