"""SentencePieceVocab (a SentencePiece model trained on files or a dataset column) and SentencePieceTokenizer,
on the ``sentencepiece`` package (a dependency installed by requirements-dev.txt)."""
import io
import os

import numpy as np

from sprout.dataset.transforms.transforms import TensorOperation
from sprout.dataset.text._strings import as_text, check_int, check_str, str_array
from sprout.dataset.text.utils import SentencePieceModel, SPieceTokenizerOutType


def _import_sentencepiece():
    try:
        import sentencepiece
    except ImportError:
        raise ImportError("SentencePiece: needs the 'sentencepiece' package (pip install sentencepiece; the Makefile "
                          "installs it from requirements-dev.txt)") from None
    return sentencepiece


def _check_train_args(api, vocab_size, character_coverage, model_type, params):
    check_int(api, "vocab_size", vocab_size, 1, 2**31 - 1)
    if isinstance(character_coverage, bool) or not isinstance(character_coverage, (int, float)) \
            or not 0.98 <= character_coverage <= 1.0:
        raise ValueError(f"{api}: 'character_coverage' must be a float in [0.98, 1.0], but got {character_coverage!r}")
    if not isinstance(model_type, SentencePieceModel):
        raise TypeError(f"{api}: 'model_type' must be a SentencePieceModel, but got {model_type!r}")
    if not isinstance(params, dict):
        raise TypeError(f"{api}: 'params' must be a dict, but got {type(params).__name__}")


class SentencePieceVocab:
    """A trained SentencePiece model (its serialized bytes)."""

    def __init__(self, model=None):
        self._model = model

    @classmethod
    def _train(cls, api, sentences, vocab_size, character_coverage, model_type, params):
        _check_train_args(api, vocab_size, character_coverage, model_type, params)
        spm = _import_sentencepiece()
        out = io.BytesIO()
        options = dict(vocab_size=vocab_size, character_coverage=float(character_coverage),
                       model_type=model_type.name.lower(), minloglevel=2)
        options.update(params)
        try:
            spm.SentencePieceTrainer.train(sentence_iterator=iter(sentences), model_writer=out, **options)
        except RuntimeError as e:
            raise ValueError(f"{api}: SentencePiece training failed: {e}") from None
        return cls(out.getvalue())

    @classmethod
    def from_file(cls, file_path, vocab_size, character_coverage, model_type, params):
        """Trains on the lines of the files in ``file_path`` (a list of paths)."""
        api = "SentencePieceVocab.from_file"
        if not isinstance(file_path, (list, tuple)) or not all(isinstance(p, str) for p in file_path):
            raise TypeError(f"{api}: 'file_path' must be a list of file paths, but got {file_path!r}")
        lines = []
        for path in file_path:
            if not os.path.isfile(path):
                raise ValueError(f"{api}: {path!r} is not a readable file")
            with open(path, encoding="utf-8") as f:
                lines.extend(line.rstrip("\r\n") for line in f)
        return cls._train(api, lines, vocab_size, character_coverage, model_type, params)

    @classmethod
    def from_dataset(cls, dataset, col_names, vocab_size, character_coverage, model_type, params):
        """Trains on the strings of column ``col_names[0]`` of ``dataset``."""
        api = "SentencePieceVocab.from_dataset"
        if isinstance(col_names, str):
            col_names = [col_names]
        if not isinstance(col_names, (list, tuple)) or not all(isinstance(c, str) for c in col_names):
            raise TypeError(f"{api}: 'col_names' must be a list of column names, but got {col_names!r}")
        lines = []
        for row in dataset.create_dict_iterator(num_epochs=1, output_numpy=True):
            names = list(col_names) or list(row)
            if names[0] not in row:
                raise ValueError(f"{api}: column {names[0]!r} is not in the dataset's columns {list(row)}")
            lines.extend(as_text(api, row[names[0]]).ravel().tolist())
        return cls._train(api, lines, vocab_size, character_coverage, model_type, params)

    @classmethod
    def save_model(cls, vocab, path, filename):
        """Writes the model to ``path/filename`` (a file SentencePieceTokenizer can load)."""
        api = "SentencePieceVocab.save_model"
        if not isinstance(vocab, SentencePieceVocab):
            raise TypeError(f"{api}: 'vocab' must be a SentencePieceVocab, but got {type(vocab).__name__}")
        check_str(api, "path", path)
        check_str(api, "filename", filename)
        if not os.path.isdir(path):
            raise ValueError(f"{api}: 'path' {path!r} is not a directory")
        with open(os.path.join(path, filename), "wb") as f:
            f.write(vocab._model)


class SentencePieceTokenizer(TensorOperation):
    """Tokenizes strings with a SentencePiece model (a SentencePieceVocab or a model file path) into pieces
    (``SPieceTokenizerOutType.STRING``) or their ids (``INT``, int32)."""

    def __init__(self, mode, out_type):
        api = "SentencePieceTokenizer"
        if not isinstance(out_type, SPieceTokenizerOutType):
            raise TypeError(f"{api}: 'out_type' must be a SPieceTokenizerOutType, but got {out_type!r}")
        spm = _import_sentencepiece()
        if isinstance(mode, SentencePieceVocab):
            self._processor = spm.SentencePieceProcessor(model_proto=mode._model)
        elif isinstance(mode, str):
            if not os.path.isfile(mode):
                raise ValueError(f"{api}: model file {mode!r} is not a readable file")
            self._processor = spm.SentencePieceProcessor(model_file=mode)
        else:
            raise TypeError(f"{api}: 'mode' must be a SentencePieceVocab or a model file path, "
                            f"but got {type(mode).__name__}")
        self.mode, self.out_type = mode, out_type

    def _apply(self, *columns):
        if len(columns) != 1:
            raise ValueError(f"SentencePieceTokenizer: takes one column, but got {len(columns)}")
        text = str(as_text("SentencePieceTokenizer", columns[0], rank=(0,)))
        if self.out_type == SPieceTokenizerOutType.STRING:
            return str_array(self._processor.encode(text, out_type=str))
        return np.array(self._processor.encode(text, out_type=int), dtype=np.int32)
