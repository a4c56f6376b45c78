"""``mindspore.dataset.text.utils``: the enums of the text transforms, Vocab, and str/bytes conversion."""
import collections
import enum
import os

import numpy as np

from sprout.dataset.text._strings import as_text, check_bool, check_int, check_str


class JiebaMode(enum.IntEnum):
    MIX = 0
    MP = 1
    HMM = 2


class NormalizeForm(enum.IntEnum):
    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


class SentencePieceModel(enum.IntEnum):
    UNIGRAM = 0
    BPE = 1
    CHAR = 2
    WORD = 3


class SPieceTokenizerOutType(enum.IntEnum):
    STRING = 0
    INT = 1


class SPieceTokenizerLoadType(enum.IntEnum):
    FILE = 0
    MODEL = 1


def to_str(array, encoding="utf8"):
    """A NumPy array of bytes -> the array of str, each element decoded with ``encoding``."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"to_str: 'array' must be a NumPy array, but got {type(array).__name__}")
    if array.dtype.kind == "U":  # Sprout's pipeline already hands text columns out as str
        return array.copy()
    return np.char.decode(array, encoding)


def to_bytes(array, encoding="utf8"):
    """A NumPy array of str -> the array of bytes, each element encoded with ``encoding``."""
    if not isinstance(array, np.ndarray):
        raise ValueError(f"to_bytes: 'array' must be a NumPy array, but got {type(array).__name__}")
    return np.char.encode(array, encoding)


def _check_special_tokens(api, special_tokens):
    if special_tokens is None:
        return []
    if not isinstance(special_tokens, (list, tuple)) or not all(isinstance(t, str) for t in special_tokens):
        raise TypeError(f"{api}: 'special_tokens' must be a list of str, but got {special_tokens!r}")
    if len(set(special_tokens)) != len(special_tokens):
        raise ValueError(f"{api}: 'special_tokens' has duplicate elements: {special_tokens}")
    return list(special_tokens)


class Vocab:
    """A table of tokens and their ids. Build it with ``from_list``, ``from_dict``, ``from_file`` or
    ``from_dataset``; ``Lookup`` and the WordPiece tokenizers read it."""

    def __init__(self):
        self._ids = {}

    @classmethod
    def _from_words(cls, api, words, special_tokens, special_first):
        special_tokens = _check_special_tokens(api, special_tokens)
        check_bool(api, "special_first", special_first)
        clash = set(words) & set(special_tokens)
        if clash:
            raise ValueError(f"{api}: special_tokens and the words share {sorted(clash)}")
        ordered = special_tokens + list(words) if special_first else list(words) + special_tokens
        vocab = cls()
        vocab._ids = {w: i for i, w in enumerate(ordered)}
        return vocab

    @classmethod
    def from_list(cls, word_list, special_tokens=None, special_first=True):
        """Ids in list order (after ``special_tokens`` when ``special_first``, else before them)."""
        api = "Vocab.from_list"
        if not isinstance(word_list, (list, tuple)) or not all(isinstance(w, str) for w in word_list):
            raise TypeError(f"{api}: 'word_list' must be a list of str, but got {word_list!r}")
        seen = set()
        for w in word_list:
            if w in seen:
                raise ValueError(f"{api}: 'word_list' contains duplicate word: {w}")
            seen.add(w)
        return cls._from_words(api, word_list, special_tokens, special_first)

    @classmethod
    def from_dict(cls, word_dict):
        """Tokens with the ids given (non-negative ints)."""
        api = "Vocab.from_dict"
        if not isinstance(word_dict, dict):
            raise TypeError(f"{api}: 'word_dict' must be a dict of str to int, but got {type(word_dict).__name__}")
        for w, i in word_dict.items():
            check_str(api, "word_dict key", w)
            check_int(api, f"word_dict[{w!r}]", i, 0, 2**31 - 1)
        vocab = cls()
        vocab._ids = {w: int(i) for w, i in word_dict.items()}
        return vocab

    @classmethod
    def from_file(cls, file_path, delimiter="", vocab_size=None, special_tokens=None, special_first=True):
        """One token per line: the part of the line before ``delimiter`` (the whole line when it is "");
        the first ``vocab_size`` lines."""
        api = "Vocab.from_file"
        check_str(api, "file_path", file_path)
        check_str(api, "delimiter", delimiter)
        if vocab_size is not None:
            check_int(api, "vocab_size", vocab_size, 1)
        if not os.path.isfile(file_path):
            raise ValueError(f"{api}: 'file_path' {file_path!r} is not a readable file")
        words, seen = [], set()
        with open(file_path, encoding="utf-8") as f:
            for line_no, line in enumerate(f, 1):
                if vocab_size is not None and len(words) >= vocab_size:
                    break
                line = line.rstrip("\r\n")
                word = line.split(delimiter, 1)[0] if delimiter else line
                word = word.strip()
                if not word:
                    continue
                if word in seen:
                    raise ValueError(f"{api}: word {word!r} on line {line_no} of {file_path} is a duplicate")
                seen.add(word)
                words.append(word)
        return cls._from_words(api, words, special_tokens, special_first)

    @classmethod
    def from_dataset(cls, dataset, columns=None, freq_range=None, top_k=None, special_tokens=None,
                     special_first=True):
        """Every token of ``columns`` in ``dataset``, most frequent first (ties in alphabetical order), keeping
        those whose count is in ``freq_range`` (inclusive) and then the ``top_k`` most frequent."""
        api = "Vocab.from_dataset"
        if isinstance(columns, str):
            columns = [columns]
        if columns is not None and (not isinstance(columns, (list, tuple))
                                    or not all(isinstance(c, str) for c in columns)):
            raise TypeError(f"{api}: 'columns' must be a str or a list of str, but got {columns!r}")
        low, high = 0, None
        if freq_range is not None:
            if not isinstance(freq_range, tuple) or len(freq_range) != 2:
                raise TypeError(f"{api}: 'freq_range' must be a tuple (min_frequency, max_frequency), "
                                f"but got {freq_range!r}")
            low = 0 if freq_range[0] is None else check_int(api, "freq_range[0]", freq_range[0], 0)
            high = None if freq_range[1] is None else check_int(api, "freq_range[1]", freq_range[1], 0)
        if top_k is not None:
            check_int(api, "top_k", top_k, 1)
        counts = collections.Counter()
        for row in dataset.create_dict_iterator(num_epochs=1, output_numpy=True):
            names = columns if columns is not None else list(row)
            for name in names:
                if name not in row:
                    raise ValueError(f"{api}: column {name!r} is not in the dataset's columns {list(row)}")
                counts.update(as_text(api, row[name]).ravel().tolist())
        kept = [(w, n) for w, n in counts.items() if n >= low and (high is None or n <= high)]
        kept.sort(key=lambda wn: (-wn[1], wn[0]))
        if top_k is not None:
            kept = kept[:top_k]
        special_tokens = _check_special_tokens(api, special_tokens)
        words = [w for w, _ in kept if w not in special_tokens]
        return cls._from_words(api, words, special_tokens, special_first)

    def vocab(self):
        """The {token: id} table."""
        return dict(self._ids)

    def tokens_to_ids(self, tokens):
        """Ids of a token or a list of tokens (-1 for a token not in the vocabulary)."""
        if isinstance(tokens, np.ndarray):
            tokens = tokens.tolist()
        if isinstance(tokens, str):
            return self._ids.get(tokens, -1)
        if not isinstance(tokens, (list, tuple)) or not all(isinstance(t, str) for t in tokens):
            raise TypeError(f"Vocab.tokens_to_ids: 'tokens' must be a str or a list of str, but got {tokens!r}")
        return [self._ids.get(t, -1) for t in tokens]

    def ids_to_tokens(self, ids):
        """Tokens of an id or a list of ids ("" for an id not in the vocabulary)."""
        if isinstance(ids, np.ndarray):
            ids = ids.tolist()
        words = {i: w for w, i in self._ids.items()}
        if isinstance(ids, int) and not isinstance(ids, bool):
            check_int("Vocab.ids_to_tokens", "ids", ids, 0)
            return words.get(ids, "")
        if not isinstance(ids, (list, tuple)) or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
            raise TypeError(f"Vocab.ids_to_tokens: 'ids' must be an int or a list of int, but got {ids!r}")
        for i in ids:
            check_int("Vocab.ids_to_tokens", "ids", i, 0)
        return [words.get(i, "") for i in ids]

    def _lookup(self, token):
        return self._ids.get(token)

    def __len__(self):
        return len(self._ids)

    def __repr__(self):
        return f"Vocab({len(self._ids)} tokens)"
