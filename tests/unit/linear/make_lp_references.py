#!/usr/bin/python3
"""Prints the reference numbers pasted into tests/unit/linear/quantile_test.cpp,
huber_test.cpp and lp_svm_test.cpp.

Run with Debian's python3 (python3-sklearn 1.2.1, scipy 1.10.1, numpy 1.24.2):
    /usr/bin/python3 tests/unit/linear/make_lp_references.py
- quantile / lad: sklearn.linear_model.QuantileRegressor(quantile=q, alpha=a, solver='highs')
  on diabetes/train.scaled.csv; the LP optimum is checked unique by re-solving with
  'highs-ipm' (max coefficient difference printed).
- huber: sklearn's own objective (sklearn.linear_model._huber._huber_loss_and_gradient)
  minimised by scipy's L-BFGS-B with the bounds HuberRegressor uses, to tight tolerances
  (gtol 1e-11, ftol 0) so the reference is the optimum, not a stopping point;
  HuberRegressor(tol=1e-10, max_iter=10000) agrees to the printed difference.
- lp_svm: the primal 1-norm SVM LP (w = p - m, b free, slack xi) on heart_scale/train.csv
  solved by scipy.optimize.linprog(method='highs'); labels 0/1 -> -1/+1.
"""
import os
import numpy as np
from scipy import optimize, sparse
from sklearn.linear_model import QuantileRegressor, HuberRegressor
from sklearn.linear_model._huber import _huber_loss_and_gradient

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, "../../fixtures/reference")


def read_csv(rel):
    a = np.loadtxt(os.path.join(REF, rel), delimiter=",", skiprows=1)
    return a[:, 1:], a[:, 0]


def fmt(v):
    return "{" + ", ".join(repr(float(x)) for x in v) + "}"


def pinball(r, q):
    return np.where(r >= 0, q * r, (q - 1) * r)


def quantile_refs():
    X, y = read_csv("diabetes/train.scaled.csv")
    print("// quantile: {q, alpha, fit_intercept, objective, intercept, coef}")
    for q, alpha, fi in [(0.5, 0.0, True), (0.9, 0.0, True), (0.5, 0.01, True), (0.9, 0.03, True), (0.5, 0.1, True), (0.9, 1.0, True), (0.25, 0.0, False)]:
        m = QuantileRegressor(quantile=q, alpha=alpha, fit_intercept=fi, solver="highs").fit(X, y)
        m2 = QuantileRegressor(quantile=q, alpha=alpha, fit_intercept=fi, solver="highs-ipm").fit(X, y)
        diff = max(np.abs(m.coef_ - m2.coef_).max(), abs(m.intercept_ - m2.intercept_))
        r = y - X @ m.coef_ - m.intercept_
        obj = pinball(r, q).mean() + alpha * np.abs(m.coef_).sum()
        print("// highs vs highs-ipm max difference %.2e" % diff)
        print("{%r, %r, %s, %r, %r, %s}," % (q, alpha, "true" if fi else "false", obj, float(m.intercept_), fmt(m.coef_)))


def huber_refs():
    X, y = read_csv("diabetes/train.scaled.csv")
    print("// huber: {epsilon, alpha, fit_intercept, intercept, scale, coef}")
    for eps, alpha, fi in [(1.35, 1e-4, True), (1.1, 1.0, True), (2.0, 0.01, False)]:
        p0 = np.zeros(X.shape[1] + (2 if fi else 1))
        p0[-1] = 1
        bounds = np.tile([-np.inf, np.inf], (p0.shape[0], 1))
        bounds[-1][0] = np.finfo(np.float64).eps * 10
        res = optimize.minimize(_huber_loss_and_gradient, p0, method="L-BFGS-B", jac=True,
                                args=(X, y, eps, alpha, np.ones(len(y))), bounds=bounds,
                                options={"maxiter": 100000, "gtol": 1e-11, "ftol": 0.0, "maxcor": 10})
        p = res.x
        g = _huber_loss_and_gradient(p, X, y, eps, alpha, np.ones(len(y)))[1]
        print("// projected gradient max %.2e" % np.abs(g[:-1]).max())
        h = HuberRegressor(epsilon=eps, alpha=alpha, fit_intercept=fi, tol=1e-10, max_iter=10000).fit(X, y)
        diff = np.abs(h.coef_ - p[:X.shape[1]]).max()
        print("// %s; HuberRegressor(tol=1e-10) max coef difference %.2e" % (res.message, diff))
        print("{%r, %r, %s, %r, %r, %s}," % (eps, alpha, "true" if fi else "false", float(p[-2]) if fi else 0.0,
                                             float(p[-1]), fmt(p[:X.shape[1]])))


def lp_svm_refs():
    X, y01 = read_csv("heart_scale/train.csv")
    y = np.where(y01 > 0.5, 1.0, -1.0)
    n, d = X.shape
    print("// lp_svm: {C, objective, intercept, coef}")
    for C in [1.0, 0.2, 0.05]:
        # variables (p [d], m [d], b, xi [n]); y_i (x_i(p - m) + b) + xi_i >= 1
        c = np.concatenate([np.ones(2 * d), [0.0], C * np.ones(n)])
        Yx = y[:, None] * X
        A = np.hstack([Yx, -Yx, y[:, None], np.eye(n)])
        bounds = [(0, None)] * (2 * d) + [(None, None)] + [(0, None)] * n
        res = optimize.linprog(c, A_ub=-A, b_ub=-np.ones(n), bounds=bounds, method="highs")
        w = res.x[:d] - res.x[d:2 * d]
        print("{%r, %r, %r, %s}," % (C, res.fun, float(res.x[2 * d]), fmt(w)))


quantile_refs()
huber_refs()
lp_svm_refs()
