#!/usr/bin/python3
"""Writes tests/unit/boosting/data/xgb_softmax_fixture.csv: the features of xgb_fixture.csv, a
3-class label cut from a noisy score, and XGBoost's multi:softprob margins on the rows, the
reference of gbdt_test.cpp ("softmax agrees with XGBoost multi:softprob").

Debian 12 python3-xgboost 1.7.4, numpy 1.24. Integer features with 10 distinct values each,
so both tools put every value in its own bin and search the same splits.
    /usr/bin/python3 tests/unit/boosting/make_xgboost_softmax_reference.py
"""
import os

import numpy as np
import xgboost as xgb

here = os.path.dirname(os.path.abspath(__file__))
fixture = np.loadtxt(os.path.join(here, "data", "xgb_fixture.csv"), delimiter=",", skiprows=1)
X = fixture[:, :6]
rng = np.random.default_rng(20261126)
score = X[:, 0] - 0.7 * X[:, 1] + 0.5 * X[:, 2] * (X[:, 3] > 4) + rng.logistic(0, 1.5, X.shape[0])
y = np.digitize(score, np.quantile(score, [1 / 3, 2 / 3])).astype(np.float64)

params = dict(tree_method="hist", max_depth=3, eta=0.3, max_bin=255, min_child_weight=1, nthread=1,
              base_score=0.5, objective="multi:softprob", num_class=3, **{"lambda": 1.0})
booster = xgb.train(params, xgb.DMatrix(X, label=y), 10)
margin = booster.predict(xgb.DMatrix(X), output_margin=True)

out = os.path.join(here, "data", "xgb_softmax_fixture.csv")
with open(out, "w") as fh:
    fh.write(",".join([f"x{j}" for j in range(6)] + ["y", "xgb_margin0", "xgb_margin1", "xgb_margin2"]) + "\n")
    for i in range(X.shape[0]):
        fh.write(",".join([f"{v:g}" for v in X[i]] + [f"{y[i]:g}"] + [repr(float(m)) for m in margin[i]]) + "\n")
print("xgboost", xgb.__version__, "->", out)
