#!/usr/bin/python3
"""Reference figures for the ECOC and permutation-importance tests.

Run with Debian's python3-sklearn 1.2.1 / numpy 1.24.2:
    /usr/bin/python3 tests/unit/model_selection/make_imbalance_references.py
It prints the numbers copied into ecoc_test.cpp and test_permutation_importance.cpp and
writes data/permutation_fixture.csv.
"""
import os
import numpy as np
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.multiclass import OutputCodeClassifier
from sklearn.inspection import permutation_importance

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "reference")
HERE = os.path.dirname(__file__)


def load(name, part):
    a = np.loadtxt(os.path.join(ROOT, name, part + ".scaled.csv"), delimiter=",", skiprows=1)
    return a[:, 1:], a[:, 0]


# ECOC accuracy on the held-out split, averaged over 10 random codes (the code is random).
for name in ["iris", "wine"]:
    Xtr, ytr = load(name, "train")
    Xte, yte = load(name, "test")
    accs = []
    for seed in range(10):
        clf = OutputCodeClassifier(LogisticRegression(C=1.0, max_iter=1000), code_size=1.5, random_state=seed)
        clf.fit(Xtr, ytr)
        accs.append((clf.predict(Xte) == yte).mean())
    print(f"{name}: OutputCodeClassifier(LogisticRegression(C=1), code_size=1.5) mean test accuracy over 10 codes "
          f"{np.mean(accs):.4f} (min {np.min(accs):.4f})")

# Permutation importance of ridge on a fixed linear fixture.
rng = np.random.RandomState(3)
n = 200
X = rng.normal(size=(n, 3))
y = 1.0 + 2.0 * X[:, 0] - 1.0 * X[:, 1] + 0.0 * X[:, 2] + 0.5 * rng.normal(size=n)
with open(os.path.join(HERE, "data", "permutation_fixture.csv"), "w") as f:
    f.write("label,a,b,c\n")
    for i in range(n):
        f.write(",".join(repr(float(v)) for v in [y[i], *X[i]]) + "\n")
model = Ridge(alpha=1.0).fit(X, y)
r = permutation_importance(model, X, y, scoring="r2", n_repeats=200, random_state=0)
print("ridge(alpha=1) coef", model.coef_, "intercept", model.intercept_, "r2", model.score(X, y))
print("permutation_importance r2, 200 repeats: mean", r.importances_mean, "std", r.importances_std)
