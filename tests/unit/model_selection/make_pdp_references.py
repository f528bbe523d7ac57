#!/usr/bin/python3
"""Reference figures for the partial dependence tests (partial_dependence_test.cpp).

Run with Debian's python3-sklearn 1.2.1 / numpy 1.24.2:
    /usr/bin/python3 tests/unit/model_selection/make_pdp_references.py
It writes data/pdp_fixture.csv (label y, columns a, b, c) and prints the figures copied
into the test: scikit-learn's grid for each column (inspection._partial_dependence's
_grid_from_X, which partial_dependence uses) and partial_dependence(kind="both",
method="brute") of a LinearRegression on the fixture, which kestrel's least_squares fits
to the same coefficients.
"""
import os
import numpy as np
from sklearn.linear_model import LinearRegression
from sklearn.inspection import partial_dependence
from sklearn.inspection._partial_dependence import _grid_from_X

HERE = os.path.dirname(__file__)
rng = np.random.RandomState(7)
n = 40
a = np.round(rng.normal(size=n) * 3, 3)            # 40 distinct values
b = np.round(rng.uniform(-1, 1, size=n), 2)
c = rng.randint(0, 5, size=n).astype(float)         # 5 distinct values
y = np.round(2 * a - b + 0.5 * c + 0.1 * rng.normal(size=n), 4)
X = np.column_stack([a, b, c])
with open(os.path.join(HERE, "data", "pdp_fixture.csv"), "w") as f:
    f.write("y,a,b,c\n")
    for i in range(n):
        f.write("%r,%r,%r,%r\n" % (y[i], a[i], b[i], c[i]))

np.set_printoptions(precision=17)
for res in (10, 100):
    for j, name in enumerate("abc"):
        _, values = _grid_from_X(X[:, [j]], (0.05, 0.95), [False], res)
        print("grid res=%d %s:" % (res, name), ", ".join(repr(v) for v in values[0]))

m = LinearRegression().fit(X, y)
print("coef", repr(m.coef_), "intercept", repr(m.intercept_))
pd = partial_dependence(m, X, [0], kind="both", grid_resolution=10, method="brute")
print("pd a average:", ", ".join(repr(v) for v in pd["average"][0]))
print("pd a ice row 1:", ", ".join(repr(v) for v in pd["individual"][0][0]))
print("pd a ice row 40:", ", ".join(repr(v) for v in pd["individual"][0][39]))
pd = partial_dependence(m, X, [2], kind="average", grid_resolution=100, method="brute")
print("pd c values:", ", ".join(repr(v) for v in pd["values"][0]))
print("pd c average:", ", ".join(repr(v) for v in pd["average"][0]))
