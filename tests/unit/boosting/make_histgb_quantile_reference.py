#!/usr/bin/python3
"""Writes tests/unit/boosting/data/histgb_quantile_fixture.csv, the reference of
gbdt_objectives_test.cpp ("quantile agrees with scikit-learn's HistGradientBoosting").

XGBoost 1.7 (Debian 12's python3-xgboost) has no quantile objective (reg:quantileerror
came in 2.0), so the anchor for loss=quantile is scikit-learn 1.2.1's
HistGradientBoostingRegressor(loss="quantile"). The two are not bit-for-bit the same
algorithm: without sample weights scikit-learn's baseline and leaf values are
np.percentile's linearly interpolated quantile, where kestrel takes the order statistic
that minimises the pinball loss (docs/models/gbdt.md). So the test compares what a user
sees: held-out pinball loss, coverage, and how far the predictions are apart.

2000 rows (1500 train, 500 test) of 4 integer features (10 values each, so both tools put
every value in its own bin), a heteroscedastic label; for alpha 0.1 and 0.9 HistGB's test
predictions after 60 rounds, learning_rate 0.1, max_depth 4, l2_regularization 1,
min_samples_leaf 20, max_leaf_nodes None, early_stopping off (kestrel: n_estimators 60,
learning_rate 0.1, max_depth 4, lambda 1, min_child_weight 20).

Debian 12 python3-sklearn 1.2.1, numpy 1.24; seed 20261127.
    /usr/bin/python3 tests/unit/boosting/make_histgb_quantile_reference.py
"""
import os

import numpy as np
import sklearn
from sklearn.ensemble import HistGradientBoostingRegressor

rng = np.random.default_rng(20261127)
n, n_train = 2000, 1500
X = rng.integers(0, 10, size=(n, 4)).astype(np.float64)
y = 0.5 * X[:, 0] - 0.3 * X[:, 1] + (0.5 + 0.2 * X[:, 2]) * rng.normal(size=n)
y = np.round(y, 4)

preds = {}
for alpha in (0.1, 0.9):
    m = HistGradientBoostingRegressor(loss="quantile", quantile=alpha, max_iter=60, learning_rate=0.1, max_depth=4,
                                      l2_regularization=1.0, min_samples_leaf=20, max_leaf_nodes=None,
                                      early_stopping=False, random_state=0)
    m.fit(X[:n_train], y[:n_train])
    preds[alpha] = m.predict(X)

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "data", "histgb_quantile_fixture.csv")
with open(out, "w") as fh:
    fh.write("x0,x1,x2,x3,y,train,histgb_q10,histgb_q90\n")
    for i in range(n):
        cells = [f"{v:g}" for v in X[i]] + [repr(float(y[i])), "1" if i < n_train else "0"]
        cells += [repr(float(preds[a][i])) for a in (0.1, 0.9)]
        fh.write(",".join(cells) + "\n")
print("scikit-learn", sklearn.__version__, "numpy", np.__version__, "->", out)
