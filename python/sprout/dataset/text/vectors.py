"""Pre-trained word vectors read from local text files (``Vectors``, ``GloVe``, ``FastText``,
``CharNGram``) and ``ToVectors``, which maps tokens to their vectors. A file has one token per line followed
by its values, separated by spaces; a first line of two fields (count, dimension: fastText's header) is
skipped. The first vector of a repeated token wins, as in MindSpore."""
import os

import numpy as np

from sprout.dataset.transforms.transforms import TensorOperation
from sprout.dataset.text._strings import as_text, check_bool, check_int, check_str


class Vectors:
    """Token -> vector table, loaded with ``from_file(file_path, max_vectors=None)``."""

    _api = "Vectors"

    def __init__(self, table, dim):
        self._table, self.dim = table, dim

    @classmethod
    def _check_path(cls, file_path):
        pass

    @classmethod
    def from_file(cls, file_path, max_vectors=None):
        api = f"{cls._api}.from_file"
        check_str(api, "file_path", file_path)
        if max_vectors is not None:
            check_int(api, "max_vectors", max_vectors, 0, 2**31 - 1)
        if not os.path.isfile(file_path):
            raise ValueError(f"{api}: 'file_path' {file_path!r} is not a readable file")
        cls._check_path(file_path)
        table, dim, count = {}, None, 0
        with open(file_path, encoding="utf-8") as f:
            for line_no, line in enumerate(f, 1):
                line = line.rstrip("\r\n")
                fields = line.split(" ")
                if dim is None and len(fields) == 2:  # a header: "count dimension"
                    continue
                if max_vectors is not None and max_vectors > 0 and count >= max_vectors:
                    break
                values = line.split(" ", 1)[1].split() if " " in line else []
                if dim is None:
                    dim = len(fields) - 1
                if len(values) <= 1:
                    raise ValueError(f"{api}: line {line_no} of {file_path}: token {fields[0]!r} has a "
                                     f"{len(values)}-dimensional vector; vectors need at least 2 values")
                if len(values) != dim:
                    raise ValueError(f"{api}: line {line_no} of {file_path}: all vectors must have the same number "
                                     f"of dimensions, but got {len(values)} while expecting {dim}")
                count += 1
                if fields[0] not in table:
                    table[fields[0]] = np.array([float(v) for v in values], dtype=np.float32)
        if dim is None:
            raise ValueError(f"{api}: file {file_path} has no vectors")
        return cls(table, dim)

    def _lookup(self, token, unk, lower_case_backup):
        # MindSpore looks up only the lower-case token when lower_case_backup is set (not the original first).
        vec = self._table.get(token.lower() if lower_case_backup else token)
        return unk if vec is None else vec

    def __len__(self):
        return len(self._table)

    def __repr__(self):
        return f"{type(self).__name__}({len(self._table)} tokens, dim={self.dim})"


class GloVe(Vectors):
    """GloVe vectors; the file must be named ``glove.6B.<dimension>d.txt``, as MindSpore requires."""

    _api = "GloVe"

    @classmethod
    def _check_path(cls, file_path):
        parts = os.path.basename(file_path).split(".")
        if len(parts) < 4 or parts[0] != "glove" or parts[1] != "6B" or parts[-1] != "txt":
            raise ValueError(f"GloVe.from_file: expected a file named 'glove.6B.*.txt', but got {file_path!r}")


class FastText(Vectors):
    """fastText vectors; the file name must end in ``.vec``, as MindSpore requires."""

    _api = "FastText"

    @classmethod
    def _check_path(cls, file_path):
        if not file_path.endswith(".vec"):
            raise ValueError(f"FastText.from_file: expected a '*.vec' file, but got {file_path!r}")


class CharNGram(Vectors):
    """Character n-gram vectors (keys ``2gram-ab``, ``3gram-#BEGIN#ab`` ...): a token's vector is the mean of
    the vectors of its 2-, 3- and 4-grams, with ``#BEGIN#``/``#END#`` marking its ends."""

    _api = "CharNGram"

    def _lookup(self, token, unk, lower_case_backup):
        if lower_case_backup:
            token = token.lower()
        chars = ["#BEGIN#"] + list(token) + ["#END#"]
        found = [self._table[key] for n in (2, 3, 4) for i in range(len(chars) - n + 1)
                 if (key := f"{n}gram-{''.join(chars[i:i + n])}") in self._table]
        return np.mean(found, axis=0).astype(np.float32) if found else unk


class ToVectors(TensorOperation):
    """Tokens -> their vectors in ``vectors`` (float32: shape (n, dim) for n tokens, (dim,) for one token, as
    MindSpore's); a token not found gets ``unk_init`` (zeros by default); ``lower_case_backup`` looks the token
    up in lower case."""

    def __init__(self, vectors, unk_init=None, lower_case_backup=False):
        api = "ToVectors"
        if not isinstance(vectors, Vectors):
            raise TypeError(f"{api}: 'vectors' must be a Vectors, GloVe, FastText or CharNGram, "
                            f"but got {type(vectors).__name__}")
        if unk_init is not None:
            if not isinstance(unk_init, (list, tuple)):
                raise TypeError(f"{api}: 'unk_init' must be a sequence of numbers, but got {type(unk_init).__name__}")
            for v in unk_init:
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    raise TypeError(f"{api}: 'unk_init' must hold int or float, but got {v!r}")
        self.vectors, self.unk_init = vectors, unk_init
        self.lower_case_backup = check_bool(api, "lower_case_backup", lower_case_backup)

    def _apply(self, *columns):
        if len(columns) != 1:
            raise ValueError(f"ToVectors: takes one column, but got {len(columns)}")
        tokens = as_text("ToVectors", columns[0], rank=(0, 1))
        dim = self.vectors.dim
        if self.unk_init and len(self.unk_init) != dim:
            raise ValueError(f"ToVectors: 'unk_init' must have the vectors' length {dim}, but has {len(self.unk_init)}")
        unk = np.array(self.unk_init, dtype=np.float32) if self.unk_init else np.zeros(dim, dtype=np.float32)
        rows = [self.vectors._lookup(t, unk, self.lower_case_backup) for t in tokens.reshape(-1).tolist()]
        out = np.stack(rows).astype(np.float32) if rows else np.zeros((0, dim), dtype=np.float32)
        return out[0] if out.shape[0] == 1 else out
