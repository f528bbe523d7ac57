#!/usr/bin/python3
"""Prints the scikit-learn reference numbers pasted into tests/unit/linear/elastic_net_test.cpp.

Run with Debian's python3 (python3-sklearn 1.2.1, numpy 1.24.2):
    /usr/bin/python3 tests/unit/linear/make_lasso_references.py
scikit-learn's Lasso / ElasticNet minimise (1/(2n))||y - Xw - b||² + alpha·l1_ratio·||w||₁
+ alpha·(1-l1_ratio)/2·||w||², glmnet's objective with lambda = alpha and glmnet's alpha =
l1_ratio. Both solved to tol=1e-13 (scikit-learn's duality-gap rule) so that they are exact
to well below the 1e-6 the tests ask.
"""
import os
import numpy as np
import sklearn
from sklearn.linear_model import ElasticNet, Lasso

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../fixtures/reference")


def load(path):
    a = np.loadtxt(os.path.join(DATA, path), delimiter=",", skiprows=1)
    return a[:, 1:], a[:, 0]


def show(label, values):
    print(label + ":\n    " + ", ".join(repr(float(v)) for v in np.ravel(values)))


print("scikit-learn", sklearn.__version__, "numpy", np.__version__)
X, y = load("diabetes/train.csv")
n = len(y)
Xc, yc = X - X.mean(0), y - y.mean()
for l1_ratio in (1.0, 0.5):
    lmax = np.abs(Xc.T @ yc).max() / (n * l1_ratio)
    show("l1_ratio %r: lambda_max" % l1_ratio, [lmax])
    for lam in (50.0, 1.0, 0.01):
        cls = Lasso(alpha=lam) if l1_ratio == 1.0 else ElasticNet(alpha=lam, l1_ratio=l1_ratio)
        m = cls.set_params(tol=1e-13, max_iter=10**7).fit(X, y)
        show("%s(alpha=%r%s, tol=1e-13, max_iter=10**7).fit(X, y) coef_ then intercept_" %
             (type(cls).__name__, lam, "" if l1_ratio == 1.0 else ", l1_ratio=%r" % l1_ratio),
             list(m.coef_) + [m.intercept_])
