"""Shared pieces of the text transforms: argument checks, str-array inputs, UTF-8 byte offsets, and the
Unicode properties (general categories, white space, scripts) that MindSpore takes from ICU and Python's
``re`` lacks."""
import functools
import numbers
import re
import sys
import unicodedata

import numpy as np

from sprout import _C


def check_bool(api, name, value):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{api}: '{name}' must be a bool, but got {type(value).__name__} ({value!r})")
    return bool(value)


def check_str(api, name, value):
    if not isinstance(value, str):
        raise TypeError(f"{api}: '{name}' must be a str, but got {type(value).__name__} ({value!r})")
    return value


def check_int(api, name, value, low=None, high=None):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{api}: '{name}' must be an int, but got {type(value).__name__} ({value!r})")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"[{low}, {high if high is not None else 'inf'}]"
        raise ValueError(f"{api}: '{name}' must be in {bounds}, but got {value}")
    return int(value)


def np_dtype(api, data_type, allowed_kinds):
    """A sprout dtype (ms.int32) -> a NumPy dtype whose kind is in ``allowed_kinds`` ("b", "i", "u", "f")."""
    if not isinstance(data_type, _C.DType):
        raise TypeError(f"{api}: 'data_type' must be a sprout dtype (e.g. mindspore.int32), but got {data_type!r}")
    name = str(data_type).lower()
    try:
        dtype = np.dtype("bool" if name == "bool" else name)
    except TypeError:
        raise TypeError(f"{api}: 'data_type' {data_type} has no NumPy form") from None
    if dtype.kind not in allowed_kinds:
        raise TypeError(f"{api}: 'data_type' must be a numeric dtype, but got {data_type}")
    return dtype


def as_text(api, x, rank=None):
    """A column as a NumPy str array (bytes decoded as UTF-8); ``rank``: the ranks accepted (a tuple)."""
    array = np.asarray(x)
    if array.dtype.kind == "S":
        array = np.char.decode(array, "utf-8")
    if array.dtype.kind != "U":
        raise TypeError(f"{api}: expected a str column, but got dtype {array.dtype}")
    if rank is not None and array.ndim not in rank:
        wanted = " or ".join(str(r) for r in rank)
        raise ValueError(f"{api}: expected a str array of rank {wanted}, but got shape {array.shape}")
    return array


def str_array(values, shape=None):
    """A list of str -> a NumPy str array (``np.array`` of an empty list would be float64)."""
    out = np.array(list(values), dtype=np.str_) if values else np.array([], dtype=np.str_)
    return out if shape is None else out.reshape(shape)


def byte_offsets(text):
    """offsets[i]: where character i of ``text`` starts in its UTF-8 encoding (MindSpore's offsets are bytes)."""
    out = [0] * (len(text) + 1)
    total = 0
    for i, ch in enumerate(text):
        o = ord(ch)
        total += 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
        out[i + 1] = total
    return out


# ---- Unicode properties ----

# ICU's White_Space property (u_isUWhiteSpace); str.isspace also counts \x1c-\x1f, which ICU does not.
WHITE_SPACE = frozenset("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000"
                        + "".join(chr(c) for c in range(0x2000, 0x200B)))


@functools.lru_cache(maxsize=None)
def category_class(category):
    """The body of a regex character class matching the general category ``category`` ("P", "Mn", "L" ...),
    built once from unicodedata: Python's ``re`` has no ``\\p{...}``."""
    ranges, start, prev = [], None, None
    for cp in range(sys.maxunicode + 1):
        if unicodedata.category(chr(cp)).startswith(category):
            if start is None:
                start = cp
            prev = cp
        elif start is not None:
            ranges.append((start, prev))
            start = None
    if start is not None:
        ranges.append((start, prev))
    if not ranges:
        raise ValueError(f"unknown Unicode general category {category!r}")
    return "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)


_PROPERTY = re.compile(r"\\([pP])\{(\^?)([A-Za-z_]+)\}")
_CATEGORIES = {"L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Ps",
               "Pe", "Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk", "So", "Z", "Zs", "Zl", "Zp", "C", "Cc", "Cf", "Cs", "Co",
               "Cn"}
_CATEGORY_ALIASES = {"Letter": "L", "Punctuation": "P", "Number": "N", "Symbol": "S", "Mark": "M",
                     "Separator": "Z", "Other": "C", "Control": "Cc", "Format": "Cf"}


def compile_icu(api, name, pattern):
    """An ICU regular expression (MindSpore's dialect) as a Python one: ``\\p{X}`` / ``\\P{X}`` of a general
    category become character classes; ICU's ``\\x{hhhh}`` becomes a code point. Other syntax is shared."""
    check_str(api, name, pattern)

    def prop(m):
        cat = _CATEGORY_ALIASES.get(m.group(3), m.group(3))
        if cat not in _CATEGORIES:
            raise ValueError(f"{api}: '{name}' uses \\{m.group(1)}{{{m.group(3)}}}; only Unicode general "
                             f"categories (L, Lu, P, Mn, Nd, Z, Cc ...) are supported, got pattern {pattern!r}")
        negate = (m.group(1) == "P") != (m.group(2) == "^")
        inside = _inside_class(pattern, m.start())
        body = category_class(cat)
        if inside:  # already within [...]: a negated property cannot be spliced in as ranges
            if negate:
                raise ValueError(f"{api}: '{name}': a negated property inside [...] is not supported ({pattern!r})")
            return body
        return f"[{'^' if negate else ''}{body}]"

    translated = re.sub(r"\\x\{([0-9A-Fa-f]+)\}", lambda m: "\\U%08x" % int(m.group(1), 16), pattern)
    translated = _PROPERTY.sub(prop, translated)
    try:
        return re.compile(translated)
    except re.error as e:
        raise ValueError(f"{api}: '{name}' is not a valid regular expression ({e}): {pattern!r}") from None


def _inside_class(pattern, pos):
    depth, i = 0, 0
    while i < pos:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            depth += 1
        elif c == "]" and depth:
            depth -= 1
        i += 1
    return depth > 0


def icu_replacement(api, replace):
    """ICU's replacement syntax (``$1``, ``${name}``, ``\\`` escapes the next character) as a function of a match."""
    check_str(api, "replace", replace)
    parts, i = [], 0
    literal = []
    while i < len(replace):
        c = replace[i]
        if c == "\\" and i + 1 < len(replace):
            literal.append(replace[i + 1])
            i += 2
        elif c == "$" and i + 1 < len(replace) and (replace[i + 1].isdigit() or replace[i + 1] == "{"):
            if literal:
                parts.append("".join(literal))
                literal = []
            if replace[i + 1] == "{":
                end = replace.index("}", i)
                parts.append(("group", replace[i + 2:end]))
                i = end + 1
            else:
                j = i + 1
                while j < len(replace) and replace[j].isdigit():
                    j += 1
                parts.append(("group", int(replace[i + 1:j])))
                i = j
        else:
            literal.append(c)
            i += 1
    if literal:
        parts.append("".join(literal))

    def expand(match):
        return "".join(p if isinstance(p, str) else (match.group(p[1]) or "") for p in parts)
    return expand


def icu_trim(text):
    """UnicodeString::trim: drops leading and trailing characters <= U+0020 and white space."""
    return text.strip("".join(chr(c) for c in range(0x21)) + "".join(WHITE_SPACE))


# ICU's script of a character, approximated from its Unicode name (Python has no Script property): letters
# and marks of a script are named after it ("GREEK SMALL LETTER ALPHA", "CJK UNIFIED IDEOGRAPH-4E2D");
# punctuation, symbols, separators and European digits are Common; combining marks are Inherited.
_COMMON_WORDS = {"DIGIT", "SUPERSCRIPT", "SUBSCRIPT", "VULGAR", "MODIFIER", "KATAKANA-HIRAGANA", "ROMAN",
                 "CIRCLED", "PARENTHESIZED", "FULLWIDTH", "HALFWIDTH"}
_SCRIPT_ALIASES = {"CJK": "HAN", "IDEOGRAPHIC": "HAN", "KANGXI": "HAN", "ARABIC-INDIC": "ARABIC"}


@functools.lru_cache(maxsize=4096)
def script_of(ch):
    cat = unicodedata.category(ch)
    if cat in ("Mn", "Me"):
        return "INHERITED"
    if cat[0] in "PSZC" or (cat == "Nd" and ("0" <= ch <= "9")):
        return "COMMON"
    name = unicodedata.name(ch, "")
    if not name:
        return "UNKNOWN"
    words = name.split()
    if words[0] in ("FULLWIDTH", "HALFWIDTH") and len(words) > 1:
        words = words[1:]
    first = words[0]
    if first in _COMMON_WORDS:
        return "COMMON"
    return _SCRIPT_ALIASES.get(first, first)


def is_cjk(ch):
    """The CJK ideograph blocks BERT's basic tokenizer splits one character at a time."""
    cp = ord(ch)
    return any(a <= cp <= b for a, b in _CJK_RANGES)


_CJK_RANGES = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F), (0x2B740, 0x2B81F),
               (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))
