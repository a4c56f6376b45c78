"""sprout.dataset.text: text transforms and vocabularies (``mindspore.dataset.text``), in Python on the
pipeline's text columns (NumPy str arrays)."""
from sprout.dataset.text.utils import (JiebaMode, NormalizeForm, SentencePieceModel, SPieceTokenizerLoadType,
                                       SPieceTokenizerOutType, Vocab, to_bytes, to_str)
from sprout.dataset.text.tokenizers import (BasicTokenizer, BertTokenizer, PythonTokenizer, RegexTokenizer,
                                            UnicodeCharTokenizer, UnicodeScriptTokenizer, WhitespaceTokenizer,
                                            WordpieceTokenizer)
from sprout.dataset.text.transforms import (AddToken, CaseFold, FilterWikipediaXML, Lookup, Ngram, NormalizeUTF8,
                                            RegexReplace, SlidingWindow, ToNumber, Truncate, TruncateSequencePair)

__all__ = ["JiebaMode", "NormalizeForm", "SentencePieceModel", "SPieceTokenizerLoadType", "SPieceTokenizerOutType",
           "Vocab", "to_bytes", "to_str", "BasicTokenizer", "BertTokenizer", "PythonTokenizer", "RegexTokenizer",
           "UnicodeCharTokenizer", "UnicodeScriptTokenizer", "WhitespaceTokenizer", "WordpieceTokenizer",
           "AddToken", "CaseFold", "FilterWikipediaXML", "Lookup", "Ngram", "NormalizeUTF8", "RegexReplace",
           "SlidingWindow", "ToNumber", "Truncate", "TruncateSequencePair"]
from sprout.dataset.text.vectors import CharNGram, FastText, GloVe, ToVectors, Vectors
from sprout.dataset.text.jieba_tokenizer import JiebaTokenizer
from sprout.dataset.text.sentencepiece_ops import SentencePieceTokenizer, SentencePieceVocab

__all__ += ["CharNGram", "FastText", "GloVe", "ToVectors", "Vectors", "JiebaTokenizer", "SentencePieceTokenizer",
            "SentencePieceVocab"]
