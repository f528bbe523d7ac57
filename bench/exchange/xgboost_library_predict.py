#!/usr/bin/python3
"""Imported XGBoost models through the libraries (issue 48): in one Python process, the same
XGBoost 1.7 JSON model scored on the same float64 array (NaN as missing) by

- kestrel: `kestrel.load_model(FILE).predict(X)` (the C interface under the Python package:
  a dataset from the array, the tree walk, the output array);
- XGBoost: `Booster.inplace_predict(X)` (no DMatrix) and `Booster.predict(DMatrix(X))`.

    xgboost_library_predict.py BUILD_DIR [ROWS=200000] [TREES=200] [DEPTH=6] [THREADS=2] [REPS=7]

The model and rows are xgboost_predict.py's (`gen`). Each library is called once to warm up,
then REPS times interleaved; the medians and their ratio are printed as Markdown, and the
predictions are checked to agree (XGBoost adds its float32 leaves in float32, kestrel in
double: within 1e-5 of the largest prediction).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def seconds(call):
    t = time.perf_counter()
    out = call()
    return time.perf_counter() - t, out


def main():
    build = os.path.abspath(sys.argv[1])
    rows, trees, depth, threads, reps = (int(a) for a in (sys.argv[2:] + ["200000", "200", "6", "2", "7"][len(sys.argv) - 2:])[:5])
    os.environ.setdefault("KESTREL_LIBRARY", os.path.join(build, "lib", "libkestrel.so.0"))
    sys.path.insert(0, os.path.join(REPO, "python"))
    import kestrel
    import pandas as pd
    import xgboost as xgb

    with tempfile.TemporaryDirectory() as work:
        subprocess.run([sys.executable, os.path.join(HERE, "xgboost_predict.py"), "gen", work, str(rows), str(trees),
                        str(depth)], check=True)
        frame = pd.read_csv(os.path.join(work, "test.csv")).drop(columns="label")
        names = list(frame.columns)
        X = frame.to_numpy(dtype=np.float64)
        X = np.ascontiguousarray(X)
        bst = xgb.Booster(model_file=os.path.join(work, "model.json"))
        bst.set_param({"nthread": threads})
        model = kestrel.load_model(os.path.join(work, "model.json"))

    calls = {
        "kestrel load_model(...).predict(X)": lambda: model.predict(X),
        "xgboost Booster.inplace_predict(X)": lambda: bst.inplace_predict(X),
        "xgboost Booster.predict(DMatrix(X))": lambda: bst.predict(xgb.DMatrix(X, nthread=threads, feature_names=names)),
    }
    outputs = {name: call() for name, call in calls.items()}  # warm-up
    k = outputs["kestrel load_model(...).predict(X)"]
    for name, out in outputs.items():
        d = np.max(np.abs(k - out)) / np.abs(out).max()
        assert d < 1e-5, (name, d)
    times = {name: [] for name in calls}
    load_before = " ".join(f"{v:.2f}" for v in os.getloadavg())
    for _ in range(reps):
        for name, call in calls.items():
            times[name].append(seconds(call)[0])
    load_after = " ".join(f"{v:.2f}" for v in os.getloadavg())
    med = {name: statistics.median(t) for name, t in times.items()}
    base = med["kestrel load_model(...).predict(X)"]
    print(f"{X.shape[0]} rows x {X.shape[1]} features (5 % NaN), {trees} trees of depth {depth}, "
          f"{threads} threads, medians of {reps} interleaved calls after one warm-up; "
          f"XGBoost {xgb.__version__}; load average before {load_before}, after {load_after}.")
    print()
    print("| call | median s | kestrel / this |")
    print("|---|---:|---:|")
    for name, m in med.items():
        print(f"| {name} | {m:.4f} | {base / m:.2f}x |")


if __name__ == "__main__":
    main()
