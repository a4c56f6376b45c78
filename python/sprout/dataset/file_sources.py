"""Sources that read published file formats: MNIST (IDX), CIFAR-10/100 (binary batches), image
folders, text files and CSV. Files are parsed in C++ (src/data) once per Dataset object."""
import enum
import glob
import os

from sprout.dataset.datasets import _E, _column_list, _window
from sprout.dataset.samplers import Sampler
from sprout.dataset.sources import _SampledSource
from sprout.dataset import config


class Shuffle(str, enum.Enum):
    """How text and CSV datasets shuffle: all rows (GLOBAL), the order of files (FILES), or rows
    within each file (INFILE)."""

    GLOBAL = "global"
    FILES = "files"
    INFILE = "infile"


class _FileSource(_SampledSource):
    """A source whose rows come from files parsed once into an engine RowSource."""

    column_names = ()

    def __init__(self, api, sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers, cache=None):
        if cache is not None:
            raise ValueError(f"{api}: 'cache' (the dataset cache server) is not supported")
        if num_parallel_workers is None:
            num_parallel_workers = config.get_num_parallel_workers()
        super().__init__(api, sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers)
        self._source = None

    def _load(self):
        raise NotImplementedError(f"{type(self).__name__} must define _load")

    def _row_source(self):
        if self._source is None:
            self._source = self._load()
        return self._source

    def _label(self):
        return f"{type(self).__name__}({self._where})"

    def _build_node(self, ctx):
        node = _E.sampled_source(self._row_source(), list(self.column_names), self._engine_sampler(ctx),
                                 self.workers, _window(self.workers))
        return self._capped(node)


def _check_dir(api, dataset_dir):
    if not isinstance(dataset_dir, (str, os.PathLike)):
        raise TypeError(f"{api}: 'dataset_dir' must be a path, but got {type(dataset_dir).__name__}")
    dataset_dir = os.fspath(dataset_dir)
    if not os.path.isdir(dataset_dir):
        raise ValueError(f"{api}: dataset_dir '{dataset_dir}' is not a directory")
    return dataset_dir


def _check_usage(api, usage, allowed):
    usage = "all" if usage is None else usage
    if usage not in allowed:
        raise ValueError(f"{api}: 'usage' must be one of {allowed}, but got {usage!r}")
    return usage


def _existing(api, path):
    if not os.path.isfile(path):
        raise ValueError(f"{api}: file '{path}' not found")
    return path


class MnistDataset(_FileSource):
    """MNIST from its IDX files (train-images-idx3-ubyte, t10k-labels-idx1-ubyte ...).
    Rows: image (28, 28, 1) uint8, label int32."""

    column_names = ("image", "label")

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = _check_dir("MnistDataset", dataset_dir)
        self.usage = _check_usage("MnistDataset", usage, ("train", "test", "all"))
        self._where = f"dataset_dir='{self.dataset_dir}', usage='{self.usage}'"
        super().__init__("MnistDataset", sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers,
                         cache)

    def _load(self):
        prefixes = {"train": ["train"], "test": ["t10k"], "all": ["train", "t10k"]}[self.usage]
        pairs = [(_existing("MnistDataset", os.path.join(self.dataset_dir, f"{p}-images-idx3-ubyte")),
                  _existing("MnistDataset", os.path.join(self.dataset_dir, f"{p}-labels-idx1-ubyte")))
                 for p in prefixes]
        return _E.mnist_source(pairs)


class Cifar10Dataset(_FileSource):
    """CIFAR-10 from its binary batches (data_batch_*.bin, test_batch.bin).
    Rows: image (32, 32, 3) uint8 HWC, label int32."""

    column_names = ("image", "label")
    _api, _cifar100 = "Cifar10Dataset", False

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = _check_dir(self._api, dataset_dir)
        self.usage = _check_usage(self._api, usage, ("train", "test", "all"))
        self._where = f"dataset_dir='{self.dataset_dir}', usage='{self.usage}'"
        super().__init__(self._api, sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers, cache)

    def _files(self):
        train = sorted(glob.glob(os.path.join(self.dataset_dir, "data_batch_*.bin")))
        test = [os.path.join(self.dataset_dir, "test_batch.bin")]
        return {"train": train, "test": test, "all": train + test}[self.usage]

    def _load(self):
        files = self._files()
        if not files:
            raise ValueError(f"{self._api}: no data_batch_*.bin files in '{self.dataset_dir}'")
        return _E.cifar_source([_existing(self._api, f) for f in files], self._cifar100)


class Cifar100Dataset(Cifar10Dataset):
    """CIFAR-100 from its binary files (train.bin, test.bin).
    Rows: image (32, 32, 3) uint8 HWC, coarse_label int32, fine_label int32."""

    column_names = ("image", "coarse_label", "fine_label")
    _api, _cifar100 = "Cifar100Dataset", True

    def _files(self):
        train, test = os.path.join(self.dataset_dir, "train.bin"), os.path.join(self.dataset_dir, "test.bin")
        return {"train": [train], "test": [test], "all": [train, test]}[self.usage]


class ImageFolderDataset(_FileSource):
    """Images in one sub-folder per class. Rows: image (the file's bytes, or (H, W, 3) RGB uint8 with
    ``decode=True``), label int32 (classes numbered in sorted folder order, or by ``class_indexing``)."""

    column_names = ("image", "label")

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 extensions=None, class_indexing=None, decode=False, num_shards=None, shard_id=None, cache=None):
        api = "ImageFolderDataset"
        self.dataset_dir = _check_dir(api, dataset_dir)
        if extensions is not None and (isinstance(extensions, str) or
                                       not all(isinstance(e, str) for e in extensions)):
            raise TypeError(f"{api}: 'extensions' must be a list of str such as ['.jpg', '.png'], "
                            f"but got {extensions!r}")
        self.extensions = None if extensions is None else tuple(e.lower() for e in extensions)
        if class_indexing is not None and not (isinstance(class_indexing, dict) and all(
                isinstance(k, str) and isinstance(v, int) for k, v in class_indexing.items())):
            raise TypeError(f"{api}: 'class_indexing' must be a dict of folder name -> int, but got {class_indexing!r}")
        if not isinstance(decode, bool):
            raise TypeError(f"{api}: 'decode' must be a bool, but got {decode!r}")
        self.class_indexing, self.decode = class_indexing, decode
        self._where = f"dataset_dir='{self.dataset_dir}'"
        super().__init__(api, sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers, cache)

    def get_class_indexing(self):
        folders = sorted(e.name for e in os.scandir(self.dataset_dir) if e.is_dir())
        if self.class_indexing is None:
            return {name: i for i, name in enumerate(folders)}
        missing = sorted(set(self.class_indexing) - set(folders))
        if missing:
            raise ValueError(f"ImageFolderDataset: class_indexing names folders {missing} that are not in "
                             f"'{self.dataset_dir}' (it has {folders})")
        return dict(self.class_indexing)

    def _load(self):
        paths, labels = [], []
        for name, label in sorted(self.get_class_indexing().items()):
            folder = os.path.join(self.dataset_dir, name)
            for entry in sorted(os.scandir(folder), key=lambda e: e.name):
                if entry.is_file() and (self.extensions is None or
                                        os.path.splitext(entry.name)[1].lower() in self.extensions):
                    paths.append(entry.path)
                    labels.append(label)
        return _E.image_files_source(paths, labels, self.decode)


def _file_list(api, dataset_files):
    """A glob pattern or a list of paths -> the files, each checked to exist."""
    if isinstance(dataset_files, (str, os.PathLike)):
        pattern = os.fspath(dataset_files)
        files = sorted(glob.glob(pattern))
        if not files:
            raise ValueError(f"{api}: no file matches '{pattern}'")
        return files
    if not isinstance(dataset_files, (list, tuple)) or not dataset_files:
        raise TypeError(f"{api}: 'dataset_files' must be a path, a glob pattern or a non-empty list of paths, "
                        f"but got {dataset_files!r}")
    return [_existing(api, os.fspath(f)) for f in dataset_files]


class _BlockSampler(Sampler):
    """Shuffle.FILES / Shuffle.INFILE (with optional sharding) over the files' rows."""

    def __init__(self, owner, mode, num_shards, shard_id, num_samples):
        super().__init__(num_samples)
        self.owner, self.mode = owner, mode
        self.num_shards, self.shard_id = num_shards or 1, shard_id or 0

    def _build(self, seed, labels=None):
        sizes = self.owner._row_source_and_sizes()[1]
        return _E.block_sampler(sizes, self.mode == Shuffle.FILES, self.mode == Shuffle.INFILE, self.num_shards,
                                self.shard_id, self._n(), seed)


class _TextSource(_FileSource):
    def __init__(self, api, dataset_files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache):
        self.dataset_files = _file_list(api, dataset_files)
        self._where = f"dataset_files={self.dataset_files}"
        self._loaded = None
        if shuffle is None or shuffle is True:
            shuffle = Shuffle.GLOBAL
        if shuffle is False or shuffle == Shuffle.GLOBAL:
            super().__init__(api, None, shuffle == Shuffle.GLOBAL, num_samples, num_shards, shard_id,
                             num_parallel_workers, cache)
        elif isinstance(shuffle, Shuffle):
            super().__init__(api, _BlockSampler(self, shuffle, num_shards, shard_id, num_samples), None,
                             None, None, None, num_parallel_workers, cache)
        else:
            raise TypeError(f"{api}: 'shuffle' must be a bool or a Shuffle, but got {shuffle!r}")

    def _row_source_and_sizes(self):
        if self._loaded is None:
            self._loaded = self._load_with_sizes()
        return self._loaded

    def _load(self):
        return self._row_source_and_sizes()[0]


class TextFileDataset(_TextSource):
    """One row per line of the files. Rows: text (a str array)."""

    column_names = ("text",)

    def __init__(self, dataset_files, num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        super().__init__("TextFileDataset", dataset_files, num_samples, num_parallel_workers, shuffle, num_shards,
                         shard_id, cache)

    def _load_with_sizes(self):
        return _E.text_file_source(self.dataset_files)


class CSVDataset(_TextSource):
    """One row per CSV record. ``column_defaults`` gives each column's type by its default value (int ->
    int32, float -> float32, str -> text); without it every column is text. Without ``column_names``,
    the first record of each file is its header."""

    def __init__(self, dataset_files, field_delim=",", column_defaults=None, column_names=None, num_samples=None,
                 num_parallel_workers=None, shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None):
        api = "CSVDataset"
        files = _file_list(api, dataset_files)
        if not isinstance(field_delim, str) or len(field_delim) != 1 or field_delim in '"\r\n':
            raise ValueError(f"{api}: 'field_delim' must be one character other than a quote or a line break, "
                             f"but got {field_delim!r}")
        self.field_delim = field_delim
        self.header = column_names is None
        names = _column_list(api, "column_names", column_names) or self._read_header(files[0], field_delim)
        if len(set(names)) != len(names):
            raise ValueError(f"{api}: column names have duplicates: {names}")
        if column_defaults is not None and len(column_defaults) != len(names):
            raise ValueError(f"{api}: {len(column_defaults)} column_defaults for {len(names)} columns {names}")
        self.column_names = tuple(names)
        self.column_defaults = list(column_defaults) if column_defaults is not None else [None] * len(names)
        super().__init__(api, files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)

    @staticmethod
    def _read_header(path, delim):
        import csv

        with open(path, newline="", encoding="utf-8") as f:
            header = next(csv.reader(f, delimiter=delim), None)
        if not header:
            raise ValueError(f"CSVDataset: '{path}' is empty, so it has no header to name the columns; "
                             "give column_names")
        return header

    def _load_with_sizes(self):
        return _E.csv_source(self.dataset_files, self.field_delim, self.column_defaults, self.header)
