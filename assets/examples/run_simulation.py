"""Entry script: cool the plate, calibrate the sensors, print a summary."""
import numpy as np

from thermal import sensors, solver


def main():
    plate, change = solver.run(steps=2_000)
    rng = np.random.default_rng(7)
    traces = rng.standard_normal((sensors.N_SENSORS, sensors.TRACE_LEN))
    offsets = np.zeros(sensors.N_SENSORS)
    readings = sensors.calibrate(traces, 0.8, offsets, passes=4)
    readings = sensors.drop_spikes(readings, threshold=3.0)
    print(f"plate mean {float(np.mean(plate)):.3f}, last change {float(change):.2e}")
    print(f"calibrated readings: {readings.shape}")


if __name__ == "__main__":
    main()
