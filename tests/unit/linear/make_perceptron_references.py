#!/usr/bin/python3
"""Prints the scikit-learn reference numbers pasted into tests/unit/linear/perceptron_test.cpp.

Run with Debian's python3 (python3-sklearn 1.2.1, numpy 1.24.2):
    /usr/bin/python3 tests/unit/linear/make_perceptron_references.py
scikit-learn's Perceptron is SGD on max(0, -y·z) with a constant step eta0: on a row with
y·z <= 0 it adds eta0·c_y·y·x to w and eta0·c_y·y to the intercept (dense data), which is
Rosenblatt's rule. shuffle=False visits the rows in file order, like kestrel's shuffle=0.
"""
import os
import numpy as np
import sklearn
from sklearn.linear_model import Perceptron

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../fixtures/reference")


def load(path):
    a = np.loadtxt(os.path.join(DATA, path), delimiter=",", skiprows=1)
    return a[:, 1:], a[:, 0]


def show(label, values):
    print(label + ":\n    " + ", ".join(repr(float(v)) for v in np.ravel(values)))


print("scikit-learn", sklearn.__version__, "numpy", np.__version__)
X, y = load("heart_scale/train.csv")
for kw in ({"max_iter": 3}, {"max_iter": 3, "eta0": 0.5, "class_weight": {1: 2.0}}):
    m = Perceptron(shuffle=False, tol=None, **kw).fit(X, y)
    show("Perceptron(shuffle=False, tol=None, %s).fit(X, y) coef_ then intercept_" % kw,
         list(m.coef_[0]) + list(m.intercept_))

# The stopping rule with scikit-learn's defaults (tol=1e-3, n_iter_no_change=5), rows in file
# order: the number of epochs it ran (kestrel's epochs() with shuffle=0), and the weights.
for kw in ({}, {"n_iter_no_change": 2}):
    m = Perceptron(shuffle=False, **kw).fit(X, y)
    print("Perceptron(shuffle=False, %s).fit(X, y).n_iter_: %d; coef_ then intercept_:" % (kw, m.n_iter_))
    show("   ", list(m.coef_[0]) + list(m.intercept_))
