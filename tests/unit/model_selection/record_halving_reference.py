#!/usr/bin/python3
"""Reference for search_test.cpp: the rounds of scikit-learn's successive halving
(HalvingGridSearchCV: factor 3, resource n_samples, min_resources 'exhaust') on the
90-row noise-free linear fixture, over 9 ridge alphas. Debian python3-sklearn 1.2.1:
    /usr/bin/python3 tests/unit/model_selection/record_halving_reference.py
"""
import numpy as np
import sklearn
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.linear_model import Ridge
from sklearn.model_selection import HalvingGridSearchCV, KFold

n = 90
X = np.array([[i % 7, (i * 3) % 5 - 2] for i in range(n)], dtype=float)
y = 2 * X[:, 0] - X[:, 1] + 0.5
alphas = [10.0 ** e for e in range(-6, 3)]
s = HalvingGridSearchCV(Ridge(), {"alpha": alphas}, cv=KFold(5, shuffle=True, random_state=0),
                        scoring="r2", random_state=0).fit(X, y)
print("sklearn", sklearn.__version__)
print("n_resources_", s.n_resources_, "n_candidates_", s.n_candidates_, "best", s.best_params_)
