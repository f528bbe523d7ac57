#!/usr/bin/python3
"""Writes tests/unit/boosting/data/xgb_scale_pos_weight.csv: XGBoost's binary:logistic margins
with scale_pos_weight on the features and binary label of xgb_fixture.csv (written by
make_xgboost_reference.py), the reference of gbdt_objectives_test.cpp ("scale_pos_weight
agrees with XGBoost").

Debian 12 python3-xgboost 1.7.4, numpy 1.24:
    /usr/bin/python3 tests/unit/boosting/make_xgboost_scale_pos_weight_reference.py
XGBoost settings: tree_method=hist, max_depth=3, eta=0.3, lambda=1, min_child_weight=1,
max_bin=255, base_score=0.5, nthread=1, 20 rounds; scale_pos_weight 3 and 0.25 (one column
each). kestrel: loss=logistic learning_rate=0.3 max_depth=3 base_score=0.5 and the same
scale_pos_weight.
"""
import os

import numpy as np
import xgboost as xgb

here = os.path.dirname(os.path.abspath(__file__))
table = np.loadtxt(os.path.join(here, "data", "xgb_fixture.csv"), delimiter=",", skiprows=1)
X, y = table[:, :6], table[:, 7]
common = dict(objective="binary:logistic", tree_method="hist", max_depth=3, eta=0.3, max_bin=255,
              min_child_weight=1, nthread=1, base_score=0.5, **{"lambda": 1.0})
columns = {}
for s in (3.0, 0.25):
    booster = xgb.train(dict(common, scale_pos_weight=s), xgb.DMatrix(X, label=y), 20)
    columns[s] = booster.predict(xgb.DMatrix(X), output_margin=True)

out = os.path.join(here, "data", "xgb_scale_pos_weight.csv")
with open(out, "w") as fh:
    fh.write("margin_spw3,margin_spw0.25\n")
    for a, b in zip(columns[3.0], columns[0.25]):
        fh.write(f"{float(a)!r},{float(b)!r}\n")
print("xgboost", xgb.__version__, "numpy", np.__version__, "->", out)
