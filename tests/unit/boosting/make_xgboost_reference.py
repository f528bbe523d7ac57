#!/usr/bin/python3
"""Writes tests/unit/boosting/data/xgb_fixture.csv: a small fixture and XGBoost's predictions
on it, the reference of gbdt_test.cpp ("agrees with XGBoost hist").

Debian 12 python3-xgboost 1.7.4, numpy 1.24. Integer features with 10 distinct values each,
so both tools put every value in its own bin and search the same splits.
    /usr/bin/python3 tests/unit/boosting/make_xgboost_reference.py
"""
import os

import numpy as np
import xgboost as xgb

rng = np.random.default_rng(20261121)
n, d = 300, 6
X = rng.integers(0, 10, size=(n, d)).astype(np.float64)
y_reg = X[:, 0] + 2.0 * X[:, 1] * (X[:, 2] > 4) - 0.5 * X[:, 3] + rng.normal(0, 1.0, n)
score = X[:, 0] - X[:, 1] + 0.8 * X[:, 4] * (X[:, 5] > 3) - 2.0 + rng.logistic(0, 1.0, n)
y_bin = (score > 0).astype(np.float64)

common = dict(tree_method="hist", max_depth=3, eta=0.3, max_bin=255, min_child_weight=1, nthread=1,
              base_score=0.5, **{"lambda": 1.0})
reg = xgb.train(dict(common, objective="reg:squarederror"), xgb.DMatrix(X, label=y_reg), 20)
clf = xgb.train(dict(common, objective="binary:logistic"), xgb.DMatrix(X, label=y_bin), 20)
p_reg = reg.predict(xgb.DMatrix(X))
m_bin = clf.predict(xgb.DMatrix(X), output_margin=True)

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "xgb_fixture.csv")
with open(out, "w") as fh:
    fh.write(",".join([f"x{j}" for j in range(d)] + ["y_reg", "y_bin", "xgb_reg", "xgb_margin"]) + "\n")
    for i in range(n):
        vals = [f"{v:g}" for v in X[i]] + [repr(float(y_reg[i])), f"{y_bin[i]:g}",
                                           repr(float(p_reg[i])), repr(float(m_bin[i]))]
        fh.write(",".join(vals) + "\n")
print("xgboost", xgb.__version__, "->", out)
