"""Original probe analysis, ported line by line from a C program.

Kept as a reminder of what does not scale: per-element Python loops,
scalar round trips to the host and Python builtins on arrays.
"""
import numpy as np


def smooth_probe(signal: np.ndarray):
    """Three-point moving average, one element at a time."""
    out = np.zeros_like(signal)
    for i in range(1, len(signal) - 1):
        out[i] = (signal[i - 1] + signal[i] + signal[i + 1]) / 3.0
    return out


def _classify(value):
    return 1.0 if value > 0.5 else 0.0


classify_all = np.vectorize(_classify)


def peak_of_rows(grid: np.ndarray):
    """Largest value of each row, using the builtin max."""
    peaks = []
    for row in grid:
        peaks.append(max(row))
    return peaks


def settle(field, tol):
    """Relax until the largest update is small, checking on every sweep."""
    for sweep in range(10_000):
        update = 0.5 * (np.roll(field, 1) + np.roll(field, -1)) - field
        field += update
        if np.abs(update).max().item() < tol:
            break
    return field


def every_other(samples: np.ndarray):
    """Decimate by two and hand back a Fortran-ordered copy."""
    thinned = samples[::2]
    return np.array(thinned, order="F")
