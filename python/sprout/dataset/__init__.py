"""sprout.dataset: data pipelines with the ``mindspore.dataset`` API, executed by Sprout's C++
engine (src/data): worker threads, bounded queues, prefetch, deterministic order for a seed."""
from sprout.dataset import audio, config, text, transforms, vision
from sprout.dataset.datasets import Dataset
from sprout.dataset.iterators import DictIterator, TupleIterator
from sprout.dataset.samplers import (DistributedSampler, PKSampler, RandomSampler, Sampler, SequentialSampler,
                                     SubsetRandomSampler, SubsetSampler, WeightedRandomSampler)
from sprout.dataset.sources import GeneratorDataset, NumpySlicesDataset
from sprout.dataset.mindrecord_source import MindDataset
from sprout.dataset.file_sources import (CSVDataset, Cifar100Dataset, Cifar10Dataset, ImageFolderDataset,
                                         MnistDataset, Shuffle, TextFileDataset)
from sprout.dataset.mnist_sources import (EMnistDataset, FashionMnistDataset, KMnistDataset, QMnistDataset,
                                          SemeionDataset, USPSDataset)
from sprout.dataset.stl10_source import STL10Dataset
from sprout.dataset.coco_source import CocoDataset
from sprout.dataset.voc_source import VOCDataset
from sprout.dataset.image_list_sources import CelebADataset, ManifestDataset
from sprout.dataset.schema import Schema
from sprout.dataset.generated_sources import FakeImageDataset, PaddedDataset, RandomDataset
from sprout.dataset.text_corpus_sources import (AGNewsDataset, AmazonReviewDataset, DBpediaDataset, EnWik9Dataset,
                                                PennTreebankDataset, SogouNewsDataset, WikiTextDataset,
                                                YahooAnswersDataset, YelpReviewDataset)



def zip(datasets):  # noqa: A001 - MindSpore's name
    """Zips a tuple of datasets into one whose rows join theirs (``mindspore.dataset.zip``)."""
    if not isinstance(datasets, (list, tuple)) or len(datasets) < 2:
        raise TypeError(f"zip: 'datasets' must be a tuple of at least two datasets, but got {datasets!r}")
    return datasets[0].zip(list(datasets[1:]))


__all__ = [
    "audio", "config", "text", "transforms", "vision", "zip", "Dataset", "DictIterator", "TupleIterator",
    "Sampler", "SequentialSampler", "RandomSampler", "DistributedSampler", "SubsetSampler", "SubsetRandomSampler",
    "WeightedRandomSampler", "PKSampler",
    "GeneratorDataset", "NumpySlicesDataset", "MnistDataset", "Cifar10Dataset", "Cifar100Dataset",
    "ImageFolderDataset", "TextFileDataset", "CSVDataset", "Shuffle", "MindDataset",
    "FashionMnistDataset", "KMnistDataset", "EMnistDataset", "QMnistDataset", "USPSDataset", "SemeionDataset",
    "STL10Dataset", "CocoDataset", "VOCDataset", "CelebADataset", "ManifestDataset",
    "Schema", "RandomDataset", "FakeImageDataset", "PaddedDataset",
    "AGNewsDataset", "AmazonReviewDataset", "DBpediaDataset", "SogouNewsDataset", "YahooAnswersDataset",
    "YelpReviewDataset", "PennTreebankDataset", "WikiTextDataset", "EnWik9Dataset",
]
