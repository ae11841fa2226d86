"""A smoothing filter written element by element, with a per-step host check."""
import numpy as np

SAMPLES = 16_000_000


def smooth(x, alpha=0.1):
    y = np.empty_like(x)
    y[0] = x[0]
    for n in range(1, len(x)):
        y[n] = alpha * x[n] + (1 - alpha) * y[n - 1]
    return y


def converge(field, tol=1e-6):
    for it in range(1000):
        update = 0.5 * (np.roll(field, 1) + np.roll(field, -1)) - field
        field += update
        if np.abs(update).max().item() < tol:
            break
    return field


def main():
    x = np.random.rand(SAMPLES)
    print(smooth(x)[::1000].tolist())
    print(converge(x)[:10])


if __name__ == "__main__":
    main()
