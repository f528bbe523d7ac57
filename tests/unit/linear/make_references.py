#!/usr/bin/python3
"""Prints the reference numbers pasted into tests/unit/linear/test_{ridge,logistic}.cpp.

Run with Debian's python3 (python3-sklearn 1.2.1, numpy 1.24.2):
    /usr/bin/python3 tests/unit/linear/make_references.py
scikit-learn gives the anchor models' answers; Newton's method on the same objective gives
the exact optima (scikit-learn's lbfgs stops early on its relative-decrease test).
"""
import os
import numpy as np
import sklearn
from sklearn.linear_model import LogisticRegression, Ridge

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../fixtures/reference")


def load(path):
    a = np.loadtxt(os.path.join(DATA, path), delimiter=",", skiprows=1)
    return a[:, 1:], a[:, 0]


def show(label, values):
    print(label + ":\n    " + ", ".join(repr(float(v)) for v in np.ravel(values)))


def newton_multinomial(X, y, C=1.0, class_weight=None, steps=60):
    """min ½Σ_k|w_k|² + C Σ_i c_{y_i} (logsumexp(z_i) - z_{i,y_i}), intercepts unpenalised;
    k = 2 uses the binary form (one weight vector). Returns rows [w_k, b_k] and |grad|."""
    n, d = X.shape
    k = int(y.max()) + 1
    Xa = np.hstack([X, np.ones((n, 1))])
    c = C * np.array([(class_weight or {}).get(int(t), 1.0) for t in y])
    mask = np.eye(d + 1)
    mask[d, d] = 0
    if k == 2:
        s_y = 2 * y - 1
        w = np.zeros(d + 1)
        for _ in range(steps):
            t = s_y * (Xa @ w)
            p = 1 / (1 + np.exp(t))
            g = mask @ w - Xa.T @ (c * s_y * p)
            H = Xa.T @ (Xa * (c * p * (1 - p))[:, None]) + mask
            w = w - np.linalg.solve(H, g)
        t = s_y * (Xa @ w)
        g = mask @ w - Xa.T @ (c * s_y / (1 + np.exp(t)))
        return w[None, :], np.linalg.norm(g)
    Y = np.eye(k)[y.astype(int)]

    def grad_hess(w):
        W = w.reshape(k, d + 1)
        Z = Xa @ W.T
        E = np.exp(Z - Z.max(1, keepdims=True))
        P = E / E.sum(1, keepdims=True)
        G = (c[:, None] * (P - Y)).T @ Xa + W @ mask
        H = np.zeros((k * (d + 1), k * (d + 1)))
        for a in range(k):
            for b in range(k):
                dab = c * P[:, a] * ((a == b) - P[:, b])
                H[a * (d + 1):(a + 1) * (d + 1), b * (d + 1):(b + 1) * (d + 1)] = \
                    Xa.T @ (Xa * dab[:, None]) + (mask if a == b else 0)
        return G.ravel(), H

    w = np.zeros(k * (d + 1))
    for _ in range(steps):
        g, H = grad_hess(w)
        w = w - np.linalg.lstsq(H, g, rcond=None)[0]  # H is singular along the intercept shift
    g, _ = grad_hess(w)
    W = w.reshape(k, d + 1).copy()
    W[:, d] -= W[:, d].mean()
    return W, np.linalg.norm(g)


print("scikit-learn", sklearn.__version__, "numpy", np.__version__)

X, y = load("diabetes/train.csv")
r = Ridge(alpha=1.0).fit(X, y)
show("diabetes Ridge(alpha=1.0) coef_", r.coef_)
show("  intercept_", r.intercept_)
sw = 1.0 + (np.arange(len(y)) % 3)
r = Ridge(alpha=10.0).fit(X, y, sample_weight=sw)
show("diabetes Ridge(alpha=10.0), sample_weight = 1 + arange(n) % 3: coef_", r.coef_)
show("  intercept_", r.intercept_)

for path, cw in [("breast_cancer/train.scaled.csv", None), ("breast_cancer/train.scaled.csv", "balanced"),
                 ("iris/train.csv", None), ("iris/train.csv", {0: 2.0, 2: 0.5})]:
    X, y = load(path)
    m = LogisticRegression(C=1.0, tol=1e-10, max_iter=10000, class_weight=cw).fit(X, y)
    show(f"{path} LogisticRegression(C=1.0, tol=1e-10, max_iter=10000, class_weight={cw!r}): [coef_ | intercept_]",
         np.hstack([m.coef_, m.intercept_[:, None]]))
    if cw == "balanced":
        continue  # the exact optimum is not pasted for this one
    W, gnorm = newton_multinomial(X, y, class_weight=cw)
    show(f"  exact optimum (Newton, |grad| = {gnorm:.1e}): [coef | intercept]", W)
    if path.startswith("iris") and cw is None:
        Z = np.hstack([X[:3], np.ones((3, 1))]) @ W.T
        E = np.exp(Z - Z.max(1, keepdims=True))
        show("  its decision values on X[:3]", Z)
        show("  its probabilities on X[:3]", E / E.sum(1, keepdims=True))
