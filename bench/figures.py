"""How the benches print latencies: p50/p99 and the ratio to a baseline in the same run."""

from __future__ import annotations

import statistics


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def describe(label: str, samples: list[float], baseline: list[float] | None = None,
             baseline_name: str = "baseline") -> str:
    """`label  p50 x ms   p99 y ms   xN of baseline` (samples in seconds)."""
    text = (f"{label:<7} p50 {percentile(samples, .5) * 1000:7.2f} ms   "
            f"p99 {percentile(samples, .99) * 1000:7.2f} ms")
    if baseline:
        ratio = statistics.median(samples) / statistics.median(baseline)
        text += f"   x{ratio:.2f} of {baseline_name}"
    return text
