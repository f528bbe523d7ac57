#!/usr/bin/python3
"""The data of stream_bench.sh: DIR/train.csv (20,000 rows) and DIR/score.csv (340,000 rows,
about 60 MB: under kestrel-predict's 64 MB whole-file limit), 20 numeric features and a binary
label, fixed seed."""
import sys

import numpy as np

work = sys.argv[1]
rng = np.random.default_rng(23)
for name, n in (("train", 20000), ("score", 340000)):
    X = rng.normal(size=(n, 20)).round(5)
    y = (X[:, 0] + X[:, 1] * X[:, 2] - 0.5 * X[:, 3] ** 2 + rng.normal(0, 0.5, n) > 0).astype(int)
    header = "y," + ",".join(f"x{j}" for j in range(20))
    np.savetxt(f"{work}/{name}.csv", np.column_stack([y, X]), delimiter=",", header=header, comments="",
               fmt=["%d"] + ["%.5f"] * 20)
