#!/usr/bin/python3
"""Prints the scikit-learn reference numbers pasted into tests/unit/linear/least_squares_test.cpp.

Run with Debian's python3 (python3-sklearn 1.2.1, numpy 1.24.2):
    /usr/bin/python3 tests/unit/linear/make_least_squares_references.py
"""
import os
import numpy as np
import sklearn
from sklearn.linear_model import LinearRegression

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../fixtures/reference")


def load(path):
    a = np.loadtxt(os.path.join(DATA, path), delimiter=",", skiprows=1)
    return a[:, 1:], a[:, 0]


def show(label, values):
    print(label + ":\n    " + ", ".join(repr(float(v)) for v in np.ravel(values)))


print("scikit-learn", sklearn.__version__, "numpy", np.__version__)
X, y = load("diabetes/train.csv")
m = LinearRegression().fit(X, y)
show("LinearRegression().fit(X, y) coef_ then intercept_", list(m.coef_) + [m.intercept_])
# Rank deficient: column 3 twice and a zero column; scipy's lstsq (gelsd, SVD) gives the
# minimum-norm solution, so the duplicated coefficient is split in two equal halves.
Xr = np.hstack([X, X[:, [2]], np.zeros((len(y), 1))])
m = LinearRegression().fit(Xr, y)
show("LinearRegression().fit([X, X[:, 2], 0], y) coef_ then intercept_", list(m.coef_) + [m.intercept_])
