"""Median and spread of a list of samples."""
from __future__ import annotations

import statistics
from dataclasses import dataclass


@dataclass
class Summary:
    n: int
    median: float
    q1: float
    q3: float
    min: float
    max: float

    def overlaps(self, other: "Summary") -> bool:
        """Whether the interquartile ranges overlap: then the difference of
        the medians is not worth a claim."""
        return self.q1 <= other.q3 and other.q1 <= self.q3


def summarize(values: list[float]) -> Summary:
    if not values:
        raise ValueError("no samples")
    vals = sorted(values)
    if len(vals) >= 2:
        q1, _, q3 = statistics.quantiles(vals, n=4, method="inclusive")
    else:
        q1 = q3 = vals[0]
    return Summary(len(vals), statistics.median(vals), q1, q3, vals[0], vals[-1])
