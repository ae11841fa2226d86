"""Explicit heat diffusion on a square plate: whole-array stencil updates and reductions."""
import numpy as np

GRID = 4096  # cells per side: 16.8 M elements per field


def make_plate(n=GRID):
    u = np.zeros((n, n))
    u[0, :] = 100.0  # a hot edge
    return u


def jacobi_step(u, out, alpha=0.24):
    out[1:-1, 1:-1] = u[1:-1, 1:-1] + alpha * (
        u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4.0 * u[1:-1, 1:-1]
    )
    return out


def total_heat(u):
    return np.sum(u) / u.size


def run(steps=500):
    u = make_plate()
    nxt = u.copy()
    for _ in range(steps):
        jacobi_step(u, nxt)
        u, nxt = nxt, u
    return total_heat(u)


if __name__ == "__main__":
    print(f"mean temperature: {float(run()):.3f}")
