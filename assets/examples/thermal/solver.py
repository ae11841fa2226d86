"""Explicit heat diffusion on a square plate, written as whole-array NumPy.

Every update is a slice expression over the interior of the grid, so the
same code runs unchanged on one GPU or many.
"""
import numpy as np

GRID = 4096          # cells along each edge of the plate
ALPHA = 0.24         # diffusion number; must stay below 0.25 for stability


def initial_plate(edge_temp=100.0):
    """A cold plate whose four edges are held at `edge_temp`."""
    plate = np.zeros((GRID, GRID))
    plate[0, :] = edge_temp
    plate[-1, :] = edge_temp
    plate[:, 0] = edge_temp
    plate[:, -1] = edge_temp
    return plate


def diffuse(src, dst):
    """One explicit step from `src` into the preallocated `dst`."""
    dst[1:-1, 1:-1] = src[1:-1, 1:-1] + ALPHA * (
        src[:-2, 1:-1] + src[2:, 1:-1] + src[1:-1, :-2] + src[1:-1, 2:]
        - 4.0 * src[1:-1, 1:-1]
    )
    return dst


def change_between(a, b, scratch):
    """Root-mean-square change between two plates, without a host round trip."""
    np.subtract(a, b, out=scratch)
    return np.sqrt(np.mean(scratch * scratch))


def clamp_hot_spots(plate, limit):
    """Cap cells above `limit`; the mask stays on the device."""
    hot = plate > limit
    plate[hot] = limit
    return np.where(plate < 0.0, 0.0, plate)


def run(steps, check_every=100, tol=1e-4):
    """Advance the plate `steps` times; check convergence only now and then."""
    current = initial_plate()
    following = current.copy()
    scratch = np.empty_like(current)
    change = np.inf
    for step in range(steps):
        diffuse(current, following)
        current, following = following, current
        if (step + 1) % check_every == 0:
            change = change_between(current, following, scratch)
    return current, change
