#!/usr/bin/python3
"""Writes tests/unit/boosting/data/xgb_contribs.csv: XGBoost's pred_contribs (TreeSHAP) for the
two models of make_xgboost_reference.py, retrained on its fixture (data/xgb_fixture.csv), the
reference of gbdt_contrib_test.cpp ("agrees with XGBoost pred_contribs").

Debian 12 python3-xgboost 1.7.4, numpy 1.24. The same parameters as make_xgboost_reference.py
(the two tools grow the same trees on these integer features: their predictions agree).
Columns: reg_x0..reg_x5, reg_bias, bin_x0..bin_x5, bin_bias, one row per fixture row.
    /usr/bin/python3 tests/unit/boosting/make_contrib_references.py
"""
import os

import numpy as np
import xgboost as xgb

here = os.path.dirname(os.path.abspath(__file__))
data = np.genfromtxt(os.path.join(here, "data", "xgb_fixture.csv"), delimiter=",", names=True)
d = 6
X = np.column_stack([data[f"x{j}"] for j in range(d)])
y_reg, y_bin = data["y_reg"], data["y_bin"]

common = dict(tree_method="hist", max_depth=3, eta=0.3, max_bin=255, min_child_weight=1, nthread=1,
              base_score=0.5, **{"lambda": 1.0})
reg = xgb.train(dict(common, objective="reg:squarederror"), xgb.DMatrix(X, label=y_reg), 20)
clf = xgb.train(dict(common, objective="binary:logistic"), xgb.DMatrix(X, label=y_bin), 20)
# The retrained models are the fixture's: their predictions are the recorded ones.
assert np.array_equal(reg.predict(xgb.DMatrix(X)).astype(np.float64), data["xgb_reg"])
assert np.array_equal(clf.predict(xgb.DMatrix(X), output_margin=True).astype(np.float64), data["xgb_margin"])
c_reg = reg.predict(xgb.DMatrix(X), pred_contribs=True)
c_bin = clf.predict(xgb.DMatrix(X), pred_contribs=True)

out = os.path.join(here, "data", "xgb_contribs.csv")
with open(out, "w") as fh:
    names = [f"reg_x{j}" for j in range(d)] + ["reg_bias"] + [f"bin_x{j}" for j in range(d)] + ["bin_bias"]
    fh.write(",".join(names) + "\n")
    for i in range(X.shape[0]):
        fh.write(",".join(repr(float(v)) for v in list(c_reg[i]) + list(c_bin[i])) + "\n")
print("xgboost", xgb.__version__, "->", out)
