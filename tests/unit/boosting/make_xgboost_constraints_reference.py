#!/usr/bin/python3
"""Writes tests/unit/boosting/data/xgb_constraints_fixture.csv: XGBoost's predictions with
monotone and interaction constraints on the features of xgb_fixture.csv (same rows, same
labels), the reference of gbdt_constraints_test.cpp ("agrees with XGBoost hist").

Debian 12 python3-xgboost 1.7.4, numpy 1.24. Integer features with 10 distinct values each,
so both tools put every value in its own bin and search the same splits.
    /usr/bin/python3 tests/unit/boosting/make_xgboost_constraints_reference.py
"""
import os

import numpy as np
import xgboost as xgb

here = os.path.dirname(os.path.abspath(__file__))
table = np.genfromtxt(os.path.join(here, "data", "xgb_fixture.csv"), delimiter=",", skip_header=1)
X, y_reg, y_bin = table[:, :6], table[:, 6], table[:, 7]

common = dict(tree_method="hist", max_depth=3, eta=0.3, max_bin=255, min_child_weight=1, nthread=1,
              base_score=0.5, **{"lambda": 1.0})
# x1 against its true (positive) effect, so that the constraint bites.
mono_reg = xgb.train(dict(common, objective="reg:squarederror", monotone_constraints="(1,-1,0,-1,0,0)"),
                     xgb.DMatrix(X, label=y_reg), 20)
mono_bin = xgb.train(dict(common, objective="binary:logistic", monotone_constraints="(1,-1,0,0,1,0)"),
                     xgb.DMatrix(X, label=y_bin), 20)
inter_reg = xgb.train(dict(common, objective="reg:squarederror", interaction_constraints="[[0,1],[2,3,4]]"),
                      xgb.DMatrix(X, label=y_reg), 20)
D = xgb.DMatrix(X)
cols = [mono_reg.predict(D), mono_bin.predict(D, output_margin=True), inter_reg.predict(D)]

out = os.path.join(here, "data", "xgb_constraints_fixture.csv")
with open(out, "w") as fh:
    fh.write("xgb_mono_reg,xgb_mono_margin,xgb_inter_reg\n")
    for i in range(X.shape[0]):
        fh.write(",".join(repr(float(c[i])) for c in cols) + "\n")
print("xgboost", xgb.__version__, "->", out)
