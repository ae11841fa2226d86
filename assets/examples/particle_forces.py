"""Pairwise particle forces: correct, but written with patterns that need a refactor first."""
import numpy as np

N_PARTICLES = 8_000_000


def accumulate(positions, steps):
    energy_log = np.empty(0)
    for step in range(steps):
        forces = np.zeros_like(positions)  # a fresh buffer every step
        forces = forces - 0.01 * positions
        energy_log = np.append(energy_log, np.sum(forces * forces))
        positions = positions + forces
    return positions, energy_log


def main():
    rng = np.random.default_rng(7)
    pos = rng.standard_normal((N_PARTICLES, 3))
    pos, log = accumulate(pos, 100)
    print(log[-1])


if __name__ == "__main__":
    main()
