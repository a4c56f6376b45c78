"""Text corpora as MindSpore 2.10 reads them: the CSV text-classification sets (AG News, Amazon Reviews,
DBpedia, Sogou News, Yahoo Answers, Yelp Reviews: quoted CSV without a header, every column a string)
and the line corpora (Penn Treebank, WikiText, EnWik9: one row per line).

Like TextFileDataset and CSVDataset, ``shuffle`` is a bool or a Shuffle (GLOBAL rows, FILES, INFILE), and
without shuffling the files are read one after the other (MindSpore does so with one worker; with more
it interleaves their rows).
"""
import os

import numpy as np

from sprout.dataset.datasets import _E, _window
from sprout.dataset.file_sources import Shuffle, _TextSource, _check_dir, _check_usage, _existing


class _CorpusSource(_TextSource):
    """A corpus of fixed files in ``dataset_dir``, chosen by ``usage``."""

    _api = None
    _files = {}  # usage -> file names, in MindSpore's order

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = _check_dir(self._api, dataset_dir)
        self.usage = _check_usage(self._api, usage, tuple(self._files))
        files = [_existing(self._api, os.path.join(self.dataset_dir, f)) for f in self._files[self.usage]]
        super().__init__(self._api, files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)


class _CsvCorpus(_CorpusSource):
    _files = {"train": ["train.csv"], "test": ["test.csv"], "all": ["test.csv", "train.csv"]}

    def _load_with_sizes(self):
        return _E.csv_source(self.dataset_files, ",", [None] * len(self.column_names), False)


class AGNewsDataset(_CsvCorpus):
    """AG News (train.csv, test.csv). Rows: index, title, description (str)."""

    _api, column_names = "AGNewsDataset", ("index", "title", "description")


class AmazonReviewDataset(_CsvCorpus):
    """Amazon Review Polarity or Full (train.csv, test.csv). Rows: label, title, content (str)."""

    _api, column_names = "AmazonReviewDataset", ("label", "title", "content")


class DBpediaDataset(_CsvCorpus):
    """DBpedia ontology classification (train.csv, test.csv). Rows: class, title, content (str)."""

    _api, column_names = "DBpediaDataset", ("class", "title", "content")


class YahooAnswersDataset(_CsvCorpus):
    """Yahoo! Answers (train.csv, test.csv). Rows: class, title, content, answer (str)."""

    _api, column_names = "YahooAnswersDataset", ("class", "title", "content", "answer")


class SogouNewsDataset(_CsvCorpus):
    """Sogou News (train.csv, test.csv; 'all' reads train first). Rows: index, title, content (str)."""

    _api, column_names = "SogouNewsDataset", ("index", "title", "content")
    _files = {"train": ["train.csv"], "test": ["test.csv"], "all": ["train.csv", "test.csv"]}

    def __init__(self, dataset_dir, usage=None, num_samples=None, shuffle=Shuffle.GLOBAL, num_shards=None,
                 shard_id=None, num_parallel_workers=None, cache=None):
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)


class YelpReviewDataset(_CsvCorpus):
    """Yelp Review Polarity or Full (train.csv, test.csv; 'all' reads train first). Rows: label, text (str)."""

    _api, column_names = "YelpReviewDataset", ("label", "text")
    _files = {"train": ["train.csv"], "test": ["test.csv"], "all": ["train.csv", "test.csv"]}

    def __init__(self, dataset_dir, usage=None, num_samples=None, shuffle=Shuffle.GLOBAL, num_shards=None,
                 shard_id=None, num_parallel_workers=None, cache=None):
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)


class _LineCorpus(_CorpusSource):
    """One row per line; blank lines are skipped unless ``_keep_blank`` (MindSpore's rule per corpus).
    The lines are read in Python once per Dataset and served by the engine's random-access source."""

    column_names = ("text",)
    _keep_blank = False

    def _load_with_sizes(self):
        lines, sizes = [], []
        for path in self.dataset_files:
            with open(path, encoding="utf-8") as f:
                kept = [line.rstrip("\r\n") for line in f]
            kept = [(np.asarray(line),) for line in kept if self._keep_blank or line]
            lines.extend(kept)
            sizes.append(len(kept))
        return lines, sizes

    def _build_node(self, ctx):
        lines = self._row_source()
        node = _E.random_access_source(lines, len(lines), list(self.column_names), self._engine_sampler(ctx),
                                       self.workers, _window(self.workers))
        return self._capped(node)


class PennTreebankDataset(_LineCorpus):
    """Penn Treebank (ptb.{train,test,valid}.txt; 'all' in sorted name order). Rows: text (str), blank lines
    skipped."""

    _api = "PennTreebankDataset"
    _files = {"train": ["ptb.train.txt"], "test": ["ptb.test.txt"], "valid": ["ptb.valid.txt"],
              "all": ["ptb.test.txt", "ptb.train.txt", "ptb.valid.txt"]}


class WikiTextDataset(_LineCorpus):
    """WikiText-2/103 (wiki.{train,test,valid}.tokens; 'all' in sorted name order). Rows: text (str), blank
    lines skipped."""

    _api = "WikiTextDataset"
    _files = {"train": ["wiki.train.tokens"], "test": ["wiki.test.tokens"], "valid": ["wiki.valid.tokens"],
              "all": ["wiki.test.tokens", "wiki.train.tokens", "wiki.valid.tokens"]}


class EnWik9Dataset(_LineCorpus):
    """EnWik9 (the file enwik9). Rows: text (str), one per line, blank lines included. Shuffles by default."""

    _api, _keep_blank = "EnWik9Dataset", True
    _files = {"all": ["enwik9"]}

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=True, num_shards=None,
                 shard_id=None, cache=None):
        super().__init__(dataset_dir, None, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)
