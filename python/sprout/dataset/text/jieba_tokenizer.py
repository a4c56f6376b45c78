"""JiebaTokenizer: Chinese word segmentation with a dictionary file (``mp_path``: cppjieba's
``jieba.dict.utf8``, lines "word frequency [tag]") and an HMM model file (``hmm_path``: cppjieba's
``hmm_model.utf8``: start, transition and emission log-probabilities of the states B, E, M, S).
The dictionary search and its maximum-probability route are the ``jieba`` package's (a dependency
installed by requirements-dev.txt); the HMM is read from ``hmm_path`` and decoded here (Viterbi)."""
import math
import os
import re

from sprout.dataset.text._strings import check_bool, check_str
from sprout.dataset.text.tokenizers import _Tokenizer
from sprout.dataset.text.utils import JiebaMode

_STATES = "BEMS"
_PREVIOUS = {"B": "ES", "M": "MB", "S": "SE", "E": "BM"}
_MIN = -3.14e100
_HAN = re.compile(r"([\u4E00-\u9FD5a-zA-Z0-9+#&\._%\-]+)")
_SKIP = re.compile(r"(\r\n|\s)")
_HMM_HAN = re.compile(r"([\u4E00-\u9FD5]+)")
_HMM_SKIP = re.compile(r"([a-zA-Z0-9]+(?:\.\d+)?%?)")


def _import_jieba():
    try:
        import jieba
    except ImportError:
        raise ImportError("JiebaTokenizer: needs the 'jieba' package (pip install jieba; the Makefile installs "
                          "it from requirements-dev.txt)") from None
    jieba.setLogLevel(60)
    return jieba


def _read_hmm(path):
    lines = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                lines.append(line)
    if len(lines) != 9:
        raise ValueError(f"JiebaTokenizer: 'hmm_path' {path} is not a cppjieba HMM model: expected 9 lines "
                         f"(start, 4 transition rows, 4 emission rows), got {len(lines)}")
    start = dict(zip(_STATES, (float(v) for v in lines[0].split())))
    trans = {s: dict(zip(_STATES, (float(v) for v in lines[1 + i].split()))) for i, s in enumerate(_STATES)}
    emit = {}
    for i, s in enumerate(_STATES):
        table = {}
        for item in lines[5 + i].split(","):
            ch, _, prob = item.rpartition(":")
            if ch:
                table[ch] = float(prob)
        emit[s] = table
    return start, trans, emit


class JiebaTokenizer(_Tokenizer):
    """Segments Chinese text into words: ``JiebaMode.MP`` by the dictionary's most probable route,
    ``JiebaMode.HMM`` by the HMM alone, ``JiebaMode.MIX`` (default) by the route with runs of unknown single
    characters re-segmented by the HMM."""

    def __init__(self, hmm_path, mp_path, mode=JiebaMode.MIX, with_offsets=False):
        api = "JiebaTokenizer"
        super().__init__(with_offsets)
        for name, path in (("hmm_path", hmm_path), ("mp_path", mp_path)):
            check_str(api, name, path)
            if not os.path.isfile(path):
                raise ValueError(f"{api}: '{name}' {path!r} is not a readable file")
        if not isinstance(mode, JiebaMode):
            raise TypeError(f"{api}: 'mode' must be a JiebaMode, but got {mode!r}")
        jieba = _import_jieba()
        self.mode = mode
        self._hmm = _read_hmm(hmm_path)
        self._jieba = jieba.Tokenizer(dictionary=os.path.abspath(mp_path))
        self._jieba.initialize()

    def add_word(self, word, freq=None):
        """Adds ``word`` to the dictionary (with ``freq``, or a frequency that keeps it whole)."""
        check_str("JiebaTokenizer.add_word", "word", word)
        if freq is not None and (isinstance(freq, bool) or not isinstance(freq, int) or freq < 0):
            raise ValueError(f"JiebaTokenizer.add_word: 'freq' must be a non-negative int, but got {freq!r}")
        self._jieba.add_word(word, freq)

    def add_dict(self, user_dict):
        """Adds words from a dict {word: freq or None} or a file of lines "word [freq]"."""
        if isinstance(user_dict, str):
            if not os.path.isfile(user_dict):
                raise ValueError(f"JiebaTokenizer.add_dict: 'user_dict' {user_dict!r} is not a readable file")
            with open(user_dict, encoding="utf-8") as f:
                for line_no, line in enumerate(f, 1):
                    fields = line.split()
                    if not fields:
                        continue
                    if len(fields) > 2 or (len(fields) == 2 and not fields[1].isdigit()):
                        raise ValueError(f"JiebaTokenizer.add_dict: line {line_no} of {user_dict} must be "
                                         f"'word [freq]', got {line.strip()!r}")
                    self.add_word(fields[0], int(fields[1]) if len(fields) == 2 else None)
        elif isinstance(user_dict, dict):
            for word, freq in user_dict.items():
                self.add_word(word, freq)
        else:
            raise TypeError(f"JiebaTokenizer.add_dict: 'user_dict' must be a dict or a file path, "
                            f"but got {type(user_dict).__name__}")

    # ---- segmentation ----

    def _viterbi(self, text):
        start, trans, emit = self._hmm
        v = [{s: start[s] + emit[s].get(text[0], _MIN) for s in _STATES}]
        path = {s: [s] for s in _STATES}
        for ch in text[1:]:
            v.append({})
            new_path = {}
            for s in _STATES:
                e = emit[s].get(ch, _MIN)
                prob, prev = max((v[-2][p] + trans[p].get(s, _MIN) + e, p) for p in _PREVIOUS[s])
                v[-1][s] = prob
                new_path[s] = path[prev] + [s]
            path = new_path
        _, last = max((v[-1][s], s) for s in "ES")
        words, begin = [], 0
        for i, state in enumerate(path[last]):
            if state in "ES":
                words.append(text[begin:i + 1])
                begin = i + 1
            elif state == "B":
                begin = i
        if begin < len(text):
            words.append(text[begin:])
        return words

    def _hmm_cut(self, text):
        words = []
        for block in _HMM_HAN.split(text):
            if not block:
                continue
            if _HMM_HAN.fullmatch(block):
                words.extend(self._viterbi(block))
            else:
                words.extend(p for p in _HMM_SKIP.split(block) if p)
        return words

    def _route_cut(self, block, use_hmm):
        dag = self._jieba.get_DAG(block)
        route = {}
        self._jieba.calc(block, dag, route)
        words, buf, i = [], "", 0
        freq = self._jieba.FREQ

        def flush():
            if len(buf) == 1 or not use_hmm:
                words.extend(buf if not use_hmm else [buf])
            elif not freq.get(buf):
                words.extend(self._hmm_cut(buf))
            else:
                words.extend(buf)
        while i < len(block):
            j = route[i][1] + 1
            word = block[i:j]
            if j - i == 1:
                buf += word
            else:
                if buf:
                    flush()
                    buf = ""
                words.append(word)
            i = j
        if buf:
            flush()
        return words

    def _words(self, text):
        if self.mode == JiebaMode.HMM:
            return self._hmm_cut(text)
        words = []
        for block in _HAN.split(text):
            if not block:
                continue
            if _HAN.fullmatch(block):
                words.extend(self._route_cut(block, self.mode == JiebaMode.MIX))
            else:
                for part in _SKIP.split(block):
                    if _SKIP.fullmatch(part):
                        words.append(part)
                    elif part:
                        words.extend(part)
        return words

    def _spans(self, text):
        spans, pos = [], 0
        for word in self._words(text):
            if word:
                spans.append((pos, pos + len(word)))
                pos += len(word)
        return spans
