#!/usr/bin/python3
"""Writes tests/unit/boosting/data/xgb_loglink_fixture.csv: 300 rows of 4 integer features
(10 values each, so kestrel and XGBoost put every value in its own bin and search the same
splits), a Poisson count, a Gamma and a Tweedie (compound Poisson-Gamma, with zeros) label
drawn from the same log-mean, and XGBoost's margins (log of the prediction) after 10 rounds
of count:poisson, reg:gamma and reg:tweedie (tweedie_variance_power 1.5); the reference of
gbdt_objectives_test.cpp ("log-link losses agree with XGBoost").

Debian 12 python3-xgboost 1.7.4, numpy 1.24; seed 20261126.
    /usr/bin/python3 tests/unit/boosting/make_xgboost_loglink_reference.py
XGBoost settings: tree_method=hist, max_depth=3, eta=0.3, lambda=1, min_child_weight=1,
max_bin=255, base_score=0.5 (output space: margin log 0.5), nthread=1; count:poisson with
its default max_delta_step 0.7. kestrel: learning_rate=0.3 max_depth=3 base_score=0.5
(max_delta_step=auto is the same 0.7 for poisson, 0 otherwise).
"""
import os

import numpy as np
import xgboost as xgb

rng = np.random.default_rng(20261126)
n = 300
X = rng.integers(0, 10, size=(n, 4)).astype(np.float64)
eta = -0.5 + 0.15 * X[:, 0] - 0.1 * X[:, 1] + 0.3 * (X[:, 2] > 5)
mu = np.exp(eta)
y_poisson = rng.poisson(mu).astype(np.float64)
y_gamma = rng.gamma(2.0, mu / 2.0)
# Tweedie with power 1.5: N ~ Poisson, each claim Gamma; zero when N = 0.
counts = rng.poisson(0.8 * mu)
y_tweedie = np.array([rng.gamma(2.0, 0.6, size=c).sum() for c in counts])

common = dict(tree_method="hist", max_depth=3, eta=0.3, min_child_weight=1, max_bin=255, nthread=1, base_score=0.5,
              **{"lambda": 1.0})
margins = {}
for name, y, extra in [("poisson", y_poisson, dict(objective="count:poisson")),
                       ("gamma", y_gamma, dict(objective="reg:gamma")),
                       ("tweedie", y_tweedie, dict(objective="reg:tweedie", tweedie_variance_power=1.5))]:
    booster = xgb.train(dict(common, **extra), xgb.DMatrix(X, label=y), 10)
    margins[name] = booster.predict(xgb.DMatrix(X), output_margin=True)

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "data", "xgb_loglink_fixture.csv")
with open(out, "w") as fh:
    fh.write("x0,x1,x2,x3,y_poisson,y_gamma,y_tweedie,xgb_poisson,xgb_gamma,xgb_tweedie\n")
    for i in range(n):
        cells = [f"{v:g}" for v in X[i]] + [repr(float(v)) for v in (y_poisson[i], y_gamma[i], y_tweedie[i])]
        cells += [repr(float(margins[k][i])) for k in ("poisson", "gamma", "tweedie")]
        fh.write(",".join(cells) + "\n")
print("xgboost", xgb.__version__, "numpy", np.__version__, "->", out)
