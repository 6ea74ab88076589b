"""Shared helpers of the bench scripts: timing statistics and one-line reports."""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def percentile(sorted_values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of already sorted values, nearest rank."""
    return sorted_values[min(len(sorted_values) - 1, round(q * (len(sorted_values) - 1)))]


class Stats:
    """Per-call times in milliseconds."""

    def __init__(self, times_ms: list[float]) -> None:
        self.times = sorted(times_ms)
        self.median = statistics.median(self.times)
        self.p99 = percentile(self.times, 0.99)
        self.mean = statistics.fmean(self.times)

    def __str__(self) -> str:
        return f"median {self.median:8.3f} ms   p99 {self.p99:8.3f} ms   (n={len(self.times)})"


def time_calls(fn: Callable[[], object], runs: int, warmup: int = 3) -> Stats:
    """Call ``fn`` ``runs`` times (after a warm-up) and time each call."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return Stats(times)


def verdict(holds: bool) -> str:
    """'holds' / 'MISSED' for a goal line."""
    return "holds" if holds else "MISSED"
