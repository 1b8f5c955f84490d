"""How the three compute constants were calibrated (run by hand, not by CI).

Grid search of GEMM_EFF_MAX, GEMM_HALF_DIM and MEM_PASSES over all rows of
assets/validation/calibration_runs.csv at once, minimising the median absolute
error subject to every row within the tolerance. Prints the best few.
"""

import itertools

import numpy as np

from model import compute, validation


def main():
    best = []
    for eff, half, mem in itertools.product(np.arange(0.70, 0.90, 0.01), (16, 24, 32, 48, 64, 96, 128),
                                            (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0)):
        compute.GEMM_EFF_MAX, compute.GEMM_HALF_DIM, compute.MEM_PASSES = eff, half, mem
        s = validation.summary(validation.validate())
        best.append((s["max_abs_error"] > validation.ROW_TOLERANCE, s["median_abs_error"], s["max_abs_error"],
                     round(eff, 2), half, mem))
    best.sort()
    for row in best[:10]:
        print(row)


if __name__ == "__main__":
    main()
