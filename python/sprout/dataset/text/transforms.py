"""Text transforms of ``mindspore.dataset.text`` other than the tokenizers: vocabulary lookup, n-grams,
windows, number parsing, truncation, special tokens, case folding, normalization, regex replacement and
the Wikipedia XML filter. They run on NumPy str arrays (the pipeline's text columns)."""
import numbers
import re
import unicodedata

import numpy as np

from sprout.dataset.transforms.transforms import TensorOperation
from sprout.dataset.text._strings import (as_text, check_bool, check_int, check_str, compile_icu, icu_replacement,
                                          icu_trim, np_dtype, str_array)
from sprout.dataset.text.tokenizers import _case_fold, _check_vocab, _one
from sprout.dataset.text.utils import NormalizeForm


class Lookup(TensorOperation):
    """Each token -> its id in ``vocab`` as ``data_type``; a token not in it -> the id of ``unknown_token``
    (an error when that is None)."""

    def __init__(self, vocab, unknown_token=None, data_type=None):
        from sprout import int32
        api = "Lookup"
        self.vocab = _check_vocab(api, vocab)
        if unknown_token is not None:
            check_str(api, "unknown_token", unknown_token)
            if vocab._lookup(unknown_token) is None:
                raise ValueError(f"{api}: 'unknown_token' {unknown_token!r} is not in the vocab")
        self.unknown_token = unknown_token
        self.data_type = np_dtype(api, int32 if data_type is None else data_type, "biuf")

    def _apply(self, *columns):
        tokens = as_text("Lookup", _one("Lookup", columns))
        unknown = None if self.unknown_token is None else self.vocab._lookup(self.unknown_token)
        ids = []
        for token in tokens.ravel().tolist():
            i = self.vocab._lookup(token)
            if i is None:
                if unknown is None:
                    raise ValueError(f"Lookup: token {token!r} is not in the vocab and no unknown_token is given")
                i = unknown
            ids.append(i)
        return np.array(ids, dtype=self.data_type).reshape(tokens.shape)


def _check_pad(api, name, pad):
    if (not isinstance(pad, tuple) or len(pad) != 2 or not isinstance(pad[0], str)
            or isinstance(pad[1], bool) or not isinstance(pad[1], numbers.Integral)):
        raise TypeError(f"{api}: '{name}' must be a tuple (str, int), but got {pad!r}")
    check_int(api, f"{name}[1]", pad[1], 0)
    return pad[0], int(pad[1])


class Ngram(TensorOperation):
    """The n-grams of a 1-D str array for each n of ``n``, joined by ``separator``, with up to n-1 of
    ``left_pad``/``right_pad`` tokens ((token, width)) added at the ends; an n longer than the padded
    sequence gives one empty string."""

    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator=" "):
        api = "Ngram"
        ns = [n] if isinstance(n, numbers.Integral) and not isinstance(n, bool) else n
        if not isinstance(ns, (list, tuple)) or not ns:
            raise TypeError(f"{api}: 'n' must be an int or a non-empty list of int, but got {n!r}")
        self.n = [check_int(api, "n", k, 1) for k in ns]
        self.left_pad = _check_pad(api, "left_pad", left_pad)
        self.right_pad = _check_pad(api, "right_pad", right_pad)
        self.separator = check_str(api, "separator", separator)

    def _apply(self, *columns):
        tokens = as_text("Ngram", _one("Ngram", columns), rank=(1,)).tolist()
        out = []
        for n in self.n:
            padded = ([self.left_pad[0]] * min(self.left_pad[1], n - 1) + tokens
                      + [self.right_pad[0]] * min(self.right_pad[1], n - 1))
            if len(padded) < n:
                out.append("")
                continue
            out.extend(self.separator.join(padded[i:i + n]) for i in range(len(padded) - n + 1))
        return str_array(out)


class SlidingWindow(TensorOperation):
    """Windows of ``width`` consecutive elements of a 1-D array, one per row: shape (n - width + 1, width)
    (empty when the array has fewer than ``width`` elements)."""

    def __init__(self, width, axis=0):
        self.width = check_int("SlidingWindow", "width", width, 1)
        self.axis = check_int("SlidingWindow", "axis", axis)

    def _apply(self, *columns):
        x = np.asarray(_one("SlidingWindow", columns))
        if x.ndim != 1:
            raise ValueError(f"SlidingWindow: supports 1-D input only, but got shape {x.shape}")
        if self.axis not in (0, -1):
            raise ValueError(f"SlidingWindow: 'axis' must be 0 or -1 for 1-D input, but got {self.axis}")
        if x.shape[0] < self.width:
            return x[:0].copy()
        return np.ascontiguousarray(np.lib.stride_tricks.sliding_window_view(x, self.width))


_INT_PREFIX = re.compile(r"\s*[+-]?\d+")
_FLOAT_PREFIX = re.compile(r"\s*[+-]?(?:inf(?:inity)?|nan|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)", re.I)


class ToNumber(TensorOperation):
    """Parses each string as a number of ``data_type`` (its leading number, as C's strtol/strtod read it);
    a string that is no number or out of the dtype's range is an error."""

    def __init__(self, data_type):
        self.data_type = np_dtype("ToNumber", data_type, "iuf")

    def _apply(self, *columns):
        text = as_text("ToNumber", _one("ToNumber", columns))
        dt = self.data_type
        values = [self._parse(s, dt) for s in text.ravel().tolist()]
        return np.array(values, dtype=dt).reshape(text.shape)

    @staticmethod
    def _parse(s, dt):
        if dt.kind in "iu":
            m = _INT_PREFIX.match(s)
            if m is None:
                raise ValueError(f"ToNumber: string input {s!r} is not a valid {dt} number")
            value, info = int(m.group()), np.iinfo(dt)
            if not info.min <= value <= info.max:
                raise ValueError(f"ToNumber: string input {s} will be out of bounds if cast to {dt}. "
                                 f"The valid range is: [{info.min}, {info.max}]")
            return value
        m = _FLOAT_PREFIX.match(s)
        if m is None:
            raise ValueError(f"ToNumber: string input {s!r} is not a valid {dt} number")
        value, info = float(m.group()), np.finfo(dt)
        if np.isfinite(value) and abs(value) > info.max or (np.isinf(value) and "inf" not in m.group().lower()):
            raise ValueError(f"ToNumber: string input {s} will be out of bounds if cast to {dt}. "
                             f"The valid range is: [{-info.max}, {info.max}]")
        return value


class Truncate(TensorOperation):
    """Keeps the first ``max_seq_len`` elements along the last axis of a 1-D or 2-D array."""

    def __init__(self, max_seq_len):
        self.max_seq_len = check_int("Truncate", "max_seq_len", max_seq_len, 1, 2**31 - 1)

    def _apply(self, *columns):
        x = np.asarray(_one("Truncate", columns))
        if x.ndim not in (1, 2):
            raise ValueError(f"Truncate: expected a 1-D or 2-D array, but got shape {x.shape}")
        return np.ascontiguousarray(x[..., :self.max_seq_len])


class TruncateSequencePair(TensorOperation):
    """Shortens two 1-D arrays until their lengths add up to at most ``max_length``, one element at a time
    from the end of the longer one (the second on a tie)."""

    def __init__(self, max_length):
        self.max_length = check_int("TruncateSequencePair", "max_length", max_length, 0, 2**31 - 1)

    def _apply(self, *columns):
        if len(columns) != 2:
            raise ValueError(f"TruncateSequencePair: takes two columns, but got {len(columns)}")
        a, b = (np.asarray(c) for c in columns)
        for x in (a, b):
            if x.ndim != 1:
                raise ValueError(f"TruncateSequencePair: expected 1-D arrays, but got shape {x.shape}")
        la, lb = len(a), len(b)
        while la + lb > self.max_length:
            if la > lb:
                la -= 1
            else:
                lb -= 1
        return a[:la].copy(), b[:lb].copy()


class AddToken(TensorOperation):
    """Adds ``token`` at the beginning (``begin``) or end of a 1-D str array, or of each row of a 2-D one."""

    def __init__(self, token, begin=True):
        self.token = check_str("AddToken", "token", token)
        self.begin = check_bool("AddToken", "begin", begin)

    def _apply(self, *columns):
        x = as_text("AddToken", _one("AddToken", columns), rank=(1, 2))
        pad = np.full(x.shape[:-1] + (1,), self.token)
        return np.concatenate([pad, x] if self.begin else [x, pad], axis=-1)


class CaseFold(TensorOperation):
    """Unicode case folding of every string (ICU's NFKC_Casefold: "ß" -> "ss", "①" -> "1")."""

    def _apply(self, *columns):
        x = as_text("CaseFold", _one("CaseFold", columns))
        return str_array([_case_fold(s) for s in x.ravel().tolist()], x.shape)


class NormalizeUTF8(TensorOperation):
    """Unicode normalization of every string to ``normalize_form``."""

    def __init__(self, normalize_form=NormalizeForm.NFKC):
        if not isinstance(normalize_form, NormalizeForm):
            raise TypeError(f"NormalizeUTF8: 'normalize_form' must be a NormalizeForm, but got {normalize_form!r}")
        self.normalize_form = normalize_form

    def _apply(self, *columns):
        x = as_text("NormalizeUTF8", _one("NormalizeUTF8", columns))
        if self.normalize_form == NormalizeForm.NONE:
            return x.copy()
        form = self.normalize_form.name
        return str_array([unicodedata.normalize(form, s) for s in x.ravel().tolist()], x.shape)


class RegexReplace(TensorOperation):
    """Replaces matches of ``pattern`` (ICU syntax) with ``replace`` (ICU's: ``$1`` is a group) in every
    string: all of them, or the first when ``replace_all`` is False."""

    def __init__(self, pattern, replace, replace_all=True):
        self.pattern = compile_icu("RegexReplace", "pattern", pattern)
        self.replace = icu_replacement("RegexReplace", replace)
        self.replace_all = check_bool("RegexReplace", "replace_all", replace_all)

    def _apply(self, *columns):
        x = as_text("RegexReplace", _one("RegexReplace", columns))
        count = 0 if self.replace_all else 1
        return str_array([self.pattern.sub(self.replace, s, count=count) for s in x.ravel().tolist()], x.shape)


# MindSpore's filter (fastText's wikifil.pl rules) keeps its patterns in a std::map, so they run in the
# order of their text, not in the order written; that order decides the result ("[" is removed before the
# link rules see it), and is kept here. Its table maps "R" to "" where "r" was meant; kept too.
_WIKI_RULES = {r"<.*>": "", r"&amp;": "&", "&lt;": "<", "&gt;": ">", r"<ef[^<]*<\/ef>": "", "<[^>]*>": "",
               r"\[http:[^] ]*": "[", r"\|thumb": "", r"\|left": "", r"\|right": "", r"\|\d+px": "",
               r"\[\[image:[^\[\]]*\|": "", r"\[\[category:([^|\]]*)[^]]*\]\]": "[[$1]]",
               r"\[\[[a-z\-]*:[^\]]*\]\]": "", r"\[\[[^\|\]]*\|": "[[", r"\{\{[^\}]*\}\}": "", r"\{[^\}]*\}": "",
               r"\[": "", r"\]": "", "&[^;]*;": " ",
               **{c: ("" if c == "R" else c.lower()) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
               **{d: f" {w} " for d, w in zip("0123456789", ("zero", "one", "two", "three", "four", "five", "six",
                                                             "seven", "eight", "nine"))},
               r"[^a-z\n]+": " ", r"\n ": "", r"\s+": " ", r"\n\s*\n": r"\n"}
_WIKI_COMPILED = None


class FilterWikipediaXML(TensorOperation):
    """Wikipedia XML dump text -> lower-case letters and spaces (digits spelled out; markup, links' targets,
    templates and references dropped); a redirect page becomes ""."""

    def _apply(self, *columns):
        global _WIKI_COMPILED
        if _WIKI_COMPILED is None:
            _WIKI_COMPILED = [(re.compile(p), icu_replacement("FilterWikipediaXML", r))
                              for p, r in sorted(_WIKI_RULES.items())]
        x = as_text("FilterWikipediaXML", _one("FilterWikipediaXML", columns))
        return str_array([self._filter(s) for s in x.ravel().tolist()], x.shape)

    @staticmethod
    def _filter(text):
        if "#redirect" in text or "#REDIRECT" in text:
            return ""
        for pattern, replace in _WIKI_COMPILED:
            text = icu_trim(pattern.sub(replace, text))
        return text
