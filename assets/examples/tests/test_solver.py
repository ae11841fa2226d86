"""Golden check: one diffusion step against a hand-computed NumPy result."""
import numpy as np

from thermal import solver


def test_single_step_matches_reference():
    src = np.zeros((5, 5))
    src[2, 2] = 1.0
    dst = np.zeros_like(src)
    solver.diffuse(src, dst)
    expected = np.zeros((5, 5))
    expected[2, 2] = 1.0 - 4.0 * solver.ALPHA
    expected[1, 2] = expected[3, 2] = expected[2, 1] = expected[2, 3] = solver.ALPHA
    np.testing.assert_allclose(dst, expected, rtol=1e-12)
