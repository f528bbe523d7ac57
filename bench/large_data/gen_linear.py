#!/usr/bin/python3
"""Generated rows for the linear stream benches (docs/large-data.md):

    gen_linear.py ROWS FEATURES clf|reg FILE SEED

Features standard normal, a label from a fixed linear score (weights evenly spaced in
[-1, 1]) plus logistic noise: classification its sign (0/1), regression the score. numpy's
default_rng(SEED), written in blocks of 200,000 rows so that the generator never holds the
file.
"""
import sys

import numpy as np

n, d, task, path, seed = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
rng = np.random.default_rng(seed)
w = np.linspace(-1, 1, d)
with open(path, "w") as f:
    f.write("label," + ",".join(f"x{j}" for j in range(d)) + "\n")
    for start in range(0, n, 200000):
        m = min(200000, n - start)
        X = rng.standard_normal((m, d))
        s = X @ w + rng.logistic(size=m)
        y = s if task == "reg" else (s > 0).astype(int)
        np.savetxt(f, np.column_stack([y, X]), delimiter=",", fmt=["%.6g" if task == "reg" else "%d"] + ["%.6g"] * d)
