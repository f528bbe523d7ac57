#!/usr/bin/python3
"""Helpers of bench/exchange/xgboost_predict.sh (Debian's xgboost 1.7.4).

    xgboost_predict.py gen DIR ROWS TREES DEPTH   synthetic train/test CSV (label first, 10 features,
                                                  5% missing), an XGBoost model DIR/model.json
    xgboost_predict.py predict MODEL CSV OUT THREADS   the Python user's whole process: read the
                                                  CSV, predict, write one prediction a line
"""
import sys

import numpy as np


def gen(work, rows, trees, depth):
    import xgboost as xgb
    rng = np.random.default_rng(7)
    X = rng.normal(size=(rows + 20000, 10))
    y = X[:, 0] * 2 + np.sin(X[:, 1] * 3) + X[:, 2] * X[:, 3] + rng.normal(scale=0.3, size=len(X))
    X[rng.random(X.shape) < 0.05] = np.nan
    train, test = slice(0, 20000), slice(20000, None)
    names = [f"f{j}" for j in range(10)]
    for part, rows_ in (("train", train), ("test", test)):
        with open(f"{work}/{part}.csv", "w") as f:
            f.write("label," + ",".join(names) + "\n")
            for yi, xi in zip(y[rows_], X[rows_]):
                f.write(f"{yi!r}," + ",".join("" if np.isnan(v) else repr(v) for v in xi) + "\n")
    d = xgb.DMatrix(X[train], y[train], feature_names=names)
    bst = xgb.train({"tree_method": "hist", "max_depth": depth, "eta": 0.1, "nthread": 2}, d, trees)
    bst.save_model(f"{work}/model.json")


def predict(model, csv, out, threads):
    import pandas as pd
    import xgboost as xgb
    bst = xgb.Booster(model_file=model)
    bst.set_param({"nthread": threads})
    df = pd.read_csv(csv)
    p = bst.predict(xgb.DMatrix(df.drop(columns="label"), nthread=threads))
    np.savetxt(out, p, fmt="%.9g")


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    else:
        predict(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
