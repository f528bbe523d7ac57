#!/usr/bin/python3
"""Reference values for cv_schemes_test.cpp: cross_val_score on schemes whose splits are
deterministic, so kestrel's folds coincide with scikit-learn's (LeaveOneOut, GroupKFold with
distinct group sizes, a fixed train/validation pair). Run with Debian's python3-sklearn 1.2.1:
    /usr/bin/python3 tests/unit/model_selection/record_cv_schemes_reference.py
"""
import math

import numpy as np
import sklearn
from sklearn.linear_model import Ridge
from sklearn.model_selection import GroupKFold, LeaveOneOut, PredefinedSplit, cross_val_score

n = 15
X = np.array([[i % 5, ((i * 7) % 11) / 3.0] for i in range(n)])
y = np.array([1.5 * X[i, 0] - 0.7 * X[i, 1] + math.sin(i) for i in range(n)])
groups = np.repeat(np.arange(5), np.arange(1, 6))  # group g has g + 1 rows, in row order

print("sklearn", sklearn.__version__)
m = Ridge(alpha=1.0)
loo = cross_val_score(m, X, y, cv=LeaveOneOut(), scoring="neg_mean_squared_error")
print("loo mse per fold", repr(list(-loo)), "mean", repr(float(-loo.mean())))
g = cross_val_score(m, X, y, cv=GroupKFold(3), groups=groups, scoring="r2")
print("group kfold r2", repr(list(g)))
for f, (tr, te) in enumerate(GroupKFold(3).split(X, y, groups)):
    print("group fold", f, "test rows", list(te))
# rows 0..9 train, 10..14 validation
split = PredefinedSplit([-1] * 10 + [0] * 5)
v = cross_val_score(m, X, y, cv=split, scoring="r2")
print("validation r2", repr(float(v[0])))
