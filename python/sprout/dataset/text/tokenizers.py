"""Tokenizers of ``mindspore.dataset.text``: a scalar string -> a 1-D str array of tokens, or with
``with_offsets=True`` the tokens and their start and limit offsets (uint32, in UTF-8 bytes, as MindSpore's).
Text with no token gives one empty token at [0, 0)."""
import re
import unicodedata

import numpy as np

from sprout.dataset.transforms.transforms import TensorOperation
from sprout.dataset.text._strings import (WHITE_SPACE, as_text, byte_offsets, category_class, check_bool, check_int,
                                          check_str, compile_icu, is_cjk, script_of, str_array)
from sprout.dataset.text.utils import NormalizeForm, Vocab


def _one(api, columns):
    if len(columns) != 1:
        raise ValueError(f"{api}: takes one column, but got {len(columns)}")
    return columns[0]


def _outputs(tokens, starts, limits, with_offsets):
    if not tokens:
        tokens, starts, limits = [""], [0], [0]
    out = str_array(tokens)
    if not with_offsets:
        return out
    return out, np.array(starts, dtype=np.uint32), np.array(limits, dtype=np.uint32)


class _Tokenizer(TensorOperation):
    """A tokenizer of one scalar string; subclasses give ``_spans(text)``: [(start char, end char), ...]."""

    def __init__(self, with_offsets=False):
        self.with_offsets = check_bool(type(self).__name__, "with_offsets", with_offsets)

    def _apply(self, *columns):
        api = type(self).__name__
        text = str(as_text(api, _one(api, columns), rank=(0,)))
        return self._tokenize(text)

    def _tokenize(self, text):
        spans = self._spans(text)
        offsets = byte_offsets(text)
        return _outputs([text[a:b] for a, b in spans], [offsets[a] for a, _ in spans],
                        [offsets[b] for _, b in spans], self.with_offsets)


class WhitespaceTokenizer(_Tokenizer):
    """Splits on ICU white space (spaces, tabs, newlines, U+3000 ...)."""

    def _spans(self, text):
        spans, start = [], None
        for i, ch in enumerate(text):
            if ch in WHITE_SPACE:
                if start is not None:
                    spans.append((start, i))
                    start = None
            elif start is None:
                start = i
        if start is not None:
            spans.append((start, len(text)))
        return spans


class UnicodeCharTokenizer(_Tokenizer):
    """One token per character."""

    def _spans(self, text):
        return [(i, i + 1) for i in range(len(text))]


class UnicodeScriptTokenizer(_Tokenizer):
    """Splits where the Unicode script changes (Latin, Han, Common for digits and punctuation ...) and
    between white space and the rest; white space is dropped unless ``keep_whitespace``. Scripts come from
    character names (Python has no Script property); they agree with ICU's for letters, digits, punctuation."""

    def __init__(self, keep_whitespace=False, with_offsets=False):
        super().__init__(with_offsets)
        self.keep_whitespace = check_bool("UnicodeScriptTokenizer", "keep_whitespace", keep_whitespace)

    def _spans(self, text):
        spans, start = [], 0
        last_script, was_space = None, False
        for i, ch in enumerate(text):
            is_space, script = ch in WHITE_SPACE, script_of(ch)
            if i > start and (script != last_script or is_space != was_space):
                if self.keep_whitespace or not was_space:
                    spans.append((start, i))
                start = i
            last_script, was_space = script, is_space
        if len(text) > start and (self.keep_whitespace or not was_space):
            spans.append((start, len(text)))
        return spans


def _regex_spans(text, delim, keep):
    """Tokens between matches of ``delim``; a match is itself a token when ``keep`` matches all of it."""
    spans, start = [], 0
    for m in delim.finditer(text):
        if m.start() > start:
            spans.append((start, m.start()))
        if m.end() > m.start() and keep is not None and keep.fullmatch(m.group()):
            spans.append((m.start(), m.end()))
        start = m.end()
    if len(text) > start:
        spans.append((start, len(text)))
    return spans


class RegexTokenizer(_Tokenizer):
    """Splits at matches of ``delim_pattern`` (ICU syntax; ``\\p{..}`` of general categories supported);
    a delimiter that ``keep_delim_pattern`` matches whole is kept as a token."""

    def __init__(self, delim_pattern, keep_delim_pattern="", with_offsets=False):
        super().__init__(with_offsets)
        self.delim_pattern = compile_icu("RegexTokenizer", "delim_pattern", delim_pattern)
        keep = compile_icu("RegexTokenizer", "keep_delim_pattern", keep_delim_pattern)
        self.keep_delim_pattern = keep if keep_delim_pattern else None

    def _spans(self, text):
        return _regex_spans(text, self.delim_pattern, self.keep_delim_pattern)


def _normalize(form, text):
    return text if form == NormalizeForm.NONE else unicodedata.normalize(form.name, text)


def _case_fold(text):
    """ICU's NFKC_Casefold, which MindSpore's CaseFold applies: NFKC of the case-folded NFKC text."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


_UNUSED = ("[CLS]", "[SEP]", "[UNK]", "[PAD]", "[MASK]")
_UNUSED_PATTERN = r"\[CLS\]|\[SEP\]|\[UNK\]|\[PAD\]|\[MASK\]|\[unused\d+\]|"


def _common_pattern():
    cjk = "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF),
                                                        (0x2A700, 0x2B73F), (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF),
                                                        (0xF900, 0xFAFF), (0x2F800, 0x2FA1F)))
    return rf"[!-/]|[:-@]|[\[-`]|[{{-~]|[{category_class('P')}]|[{cjk}]"


class BasicTokenizer(_Tokenizer):
    """BERT's basic tokenization: optional case folding with accents stripped (``lower_case``) or a Unicode
    normalization, control characters to spaces, then a split on white space, punctuation and CJK ideographs
    (each its own token). Offsets are in the normalized text, as MindSpore's."""

    def __init__(self, lower_case=False, keep_whitespace=False, normalization_form=NormalizeForm.NONE,
                 preserve_unused_token=True, with_offsets=False):
        api = "BasicTokenizer"
        super().__init__(with_offsets)
        self.lower_case = check_bool(api, "lower_case", lower_case)
        self.keep_whitespace = check_bool(api, "keep_whitespace", keep_whitespace)
        if not isinstance(normalization_form, NormalizeForm):
            raise TypeError(f"{api}: 'normalization_form' must be a NormalizeForm, but got {normalization_form!r}")
        self.normalization_form = normalization_form
        self.preserve_unused_token = check_bool(api, "preserve_unused_token", preserve_unused_token)
        common = _common_pattern()
        delim = r"\s+|" + common
        keep = delim if self.keep_whitespace else common
        if self.preserve_unused_token:
            delim, keep = _UNUSED_PATTERN + delim, _UNUSED_PATTERN + keep
        self._delim, self._keep = re.compile(delim), re.compile(keep)

    def _prepare(self, text):
        if self.lower_case:
            if self.preserve_unused_token:  # [CLS], [UNK] ... keep their case
                pieces = re.split(r"(\[(?:CLS|SEP|UNK|PAD|MASK)\])", text)
                text = "".join(p if p in _UNUSED else _case_fold(p) for p in pieces)
            else:
                text = _case_fold(text)
            text = "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")
        else:
            text = _normalize(self.normalization_form, text)
        return "".join(" " if unicodedata.category(c) in ("Cc", "Cf") else c for c in text)

    def _tokenize(self, text):
        return super()._tokenize(self._prepare(text))

    def _spans(self, text):
        return _regex_spans(text, self._delim, self._keep)


def _check_vocab(api, vocab):
    if not isinstance(vocab, Vocab):
        raise TypeError(f"{api}: 'vocab' must be a text.Vocab, but got {type(vocab).__name__}")
    return vocab


class WordpieceTokenizer(_Tokenizer):
    """Splits each token of a 1-D str array into the longest pieces found in ``vocab`` (later pieces
    prefixed with ``suffix_indicator``); a token that cannot be split, or longer than
    ``max_bytes_per_token`` bytes, becomes ``unknown_token`` (itself when that is "")."""

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100, unknown_token="[UNK]",
                 with_offsets=False):
        api = type(self).__name__
        super().__init__(with_offsets)
        self.vocab = _check_vocab(api, vocab)
        self.suffix_indicator = check_str(api, "suffix_indicator", suffix_indicator)
        self.max_bytes_per_token = check_int(api, "max_bytes_per_token", max_bytes_per_token, 0, 2**31 - 1)
        self.unknown_token = check_str(api, "unknown_token", unknown_token)

    def _apply(self, *columns):
        api = type(self).__name__
        tokens = as_text(api, _one(api, columns), rank=(0, 1)).reshape(-1).tolist()
        return self._pieces(tokens, [0] * len(tokens))

    def _pieces(self, tokens, bases):
        out, starts, limits = [], [], []
        for token, base in zip(tokens, bases):
            for piece, a, b in self._split(token):
                out.append(piece)
                starts.append(base + a)
                limits.append(base + b)
        return _outputs(out, starts, limits, self.with_offsets)

    def _split(self, token):
        """[(piece, start byte, limit byte)] of one token."""
        size = len(token.encode("utf-8"))
        if size > self.max_bytes_per_token:
            if self.unknown_token:
                return [(self.unknown_token, 0, len(self.unknown_token.encode("utf-8")))]
            return [(token, 0, size)]
        offsets = byte_offsets(token)
        pieces, start = [], 0
        while start < len(token):
            for end in range(len(token), start, -1):
                piece = token[start:end] if start == 0 else self.suffix_indicator + token[start:end]
                if self.vocab._lookup(piece) is not None:
                    pieces.append((piece, offsets[start], offsets[end]))
                    start = end
                    break
            else:
                return [(self.unknown_token or token, 0, size)]
        return pieces


class BertTokenizer(WordpieceTokenizer):
    """BasicTokenizer then WordpieceTokenizer, offsets into the normalized text."""

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100, unknown_token="[UNK]",
                 lower_case=False, keep_whitespace=False, normalization_form=NormalizeForm.NONE,
                 preserve_unused_token=True, with_offsets=False):
        super().__init__(vocab, suffix_indicator, max_bytes_per_token, unknown_token, with_offsets)
        self._basic = BasicTokenizer(lower_case, keep_whitespace, normalization_form, preserve_unused_token,
                                     with_offsets=True)

    def _apply(self, *columns):
        api = "BertTokenizer"
        text = str(as_text(api, _one(api, columns), rank=(0,)))
        tokens, starts, _ = self._basic._tokenize(text)
        if tokens.size == 1 and tokens[0] == "":
            return _outputs([], [], [], self.with_offsets)
        return self._pieces(tokens.tolist(), starts.tolist())


class PythonTokenizer:
    """Runs a Python function ``tokenizer(str) -> list of str`` on a scalar string."""

    def __init__(self, tokenizer):
        if not callable(tokenizer):
            raise TypeError(f"PythonTokenizer: 'tokenizer' must be callable, but got {type(tokenizer).__name__}")
        self.tokenizer = tokenizer

    def __call__(self, in_array):
        text = as_text("PythonTokenizer", in_array)
        if text.ndim == 0:
            tokens = self.tokenizer(str(text))
            return str_array(list(tokens))
        tokens = self.tokenizer(text)
        return np.asarray(tokens)

    def __repr__(self):
        return f"PythonTokenizer({self.tokenizer!r})"
