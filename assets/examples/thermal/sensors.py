"""Turns raw sensor traces into calibrated readings.

Works, but grows arrays and rebuilds temporaries inside its loops; each
pattern has a mechanical fix.
"""
import numpy as np

N_SENSORS = 512
TRACE_LEN = 65_536


def calibrate(traces, gain, offsets, passes):
    """Smooth the traces `passes` times, relaxing towards the smoothed copy by `gain`."""
    corrected = np.array(traces)
    for _ in range(passes):
        work = np.zeros((N_SENSORS, TRACE_LEN))
        work[:, 1:-1] = 0.5 * corrected[:, 1:-1] + 0.25 * (corrected[:, :-2] + corrected[:, 2:])
        corrected = corrected + (work - corrected) * gain
    return corrected - offsets[:, None]


def collect_windows(traces, n_windows, width):
    """Gather fixed-width windows from every sensor into one table."""
    table = np.empty((0, width))
    for w in range(n_windows):
        block = traces[:, w * width:(w + 1) * width]
        table = np.vstack([table, block])
    return table


def drop_spikes(readings, threshold):
    """Zero out readings above `threshold`."""
    idx = np.nonzero(readings > threshold)
    readings[idx] = 0.0
    return readings


def frame_energy(flat, frames):
    """Energy per frame of a flat trace buffer."""
    totals = []
    for f in range(frames):
        shaped = flat.reshape(N_SENSORS, TRACE_LEN)
        totals.append(np.sum(shaped[f % N_SENSORS] ** 2))
    return totals
