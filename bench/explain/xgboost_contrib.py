#!/usr/bin/python3
"""The XGBoost side of contrib_bench.sh. `gen DIR ROWS`: DIR/train.csv and DIR/test.csv (10
numeric features, a regression target). `time DIR TREES DEPTH THREADS`: trains XGBoost hist on
train.csv with the same trees and depth and prints the median of 3 timings of
predict(pred_contribs=True) on test.csv (XGBoost 1.7.4, /usr/bin/python3)."""
import sys
import time

import numpy as np

cmd, work = sys.argv[1], sys.argv[2]
if cmd == "gen":
    rows = int(sys.argv[3])
    rng = np.random.default_rng(18)
    for name, n in (("train", rows), ("test", rows)):
        X = rng.normal(size=(n, 10))
        y = X[:, 0] + 2 * X[:, 1] * (X[:, 2] > 0) - X[:, 3] ** 2 + rng.normal(0, 0.3, n)
        header = "y," + ",".join(f"x{j}" for j in range(10))
        np.savetxt(f"{work}/{name}.csv", np.column_stack([y, X]), delimiter=",", header=header, comments="", fmt="%.17g")
    sys.exit(0)
import xgboost as xgb

trees, depth, threads = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
tr = np.loadtxt(f"{work}/train.csv", delimiter=",", skiprows=1)
te = np.loadtxt(f"{work}/test.csv", delimiter=",", skiprows=1)
params = dict(tree_method="hist", max_depth=depth, eta=0.1, nthread=threads, objective="reg:squarederror")
booster = xgb.train(params, xgb.DMatrix(tr[:, 1:], label=tr[:, 0]), trees)
dtest = xgb.DMatrix(te[:, 1:])
times = []
for _ in range(3):
    s = time.perf_counter()
    booster.predict(dtest, pred_contribs=True)
    times.append(time.perf_counter() - s)
print(f"{sorted(times)[1]:.3f}")
