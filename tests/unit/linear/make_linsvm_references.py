#!/usr/bin/python3
"""Prints the LIBLINEAR reference numbers pasted into tests/unit/linear/linear_svm_solvers_test.cpp
(-s 2, -s 4, -s 5) and logistic_tron_test.cpp (-s 0).

Run with Debian's python3 (numpy 1.24.2) and liblinear-tools 2.3.0 (/usr/bin/liblinear-train):
    /usr/bin/python3 tests/unit/linear/make_linsvm_references.py
For each run: the primal objective recomputed from LIBLINEAR's model file, its printed
"Objective value", and its test-set predictions (labels as written in the file).
"""
import os
import re
import subprocess
import tempfile
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, "../../fixtures/reference")
DATA = os.path.join(HERE, "data")


def read_libsvm(path, d):
    ys, rows = [], []
    for line in open(path):
        t = line.split()
        ys.append(int(float(t[0])))
        rows.append({int(a) - 1: float(b) for a, b in (x.split(":") for x in t[1:])})
    X = np.zeros((len(rows), d))
    for i, r in enumerate(rows):
        for j, v in r.items():
            if j < d:
                X[i, j] = v
    return X, np.array(ys)


def liblinear(args, train, test):
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, "m")
        out = subprocess.run(["liblinear-train"] + args + [train, model], capture_output=True, text=True,
                             check=True).stdout
        printed = re.findall(r"Objective value = (\S+)", out)
        if "reaching max number of iterations" in out:
            print("    (LIBLINEAR stopped at its iteration cap)")
        text = open(model).read().split("\n")
        nr_class = int(next(l for l in text if l.startswith("nr_class")).split()[1])
        labels = [int(x) for x in next(l for l in text if l.startswith("label")).split()[1:]]
        bias = float(next(l for l in text if l.startswith("bias")).split()[1])
        W = np.array([[float(v) for v in l.split()] for l in text[text.index("w") + 1:] if l.strip()])
        pred = os.path.join(tmp, "p")
        subprocess.run(["liblinear-predict", test, model, pred], capture_output=True, check=True)
        predictions = [int(float(x)) for x in open(pred).read().split()]
    return printed, nr_class, labels, bias, W, predictions


def binary(name, train, test, s, C, B, weights={}, eps=1e-6):
    args = ["-s", str(s), "-c", repr(C), "-e", repr(eps), "-B", repr(B)]
    for lab, wt in weights.items():
        args += ["-w%d" % lab, repr(wt)]
    printed, _, labels, bias, W, pred = liblinear(args, train, test)
    w = W[:, 0]
    X, y01 = read_libsvm(train, len(w) - (1 if bias > 0 else 0))
    y = np.where(y01 == labels[0], 1.0, -1.0)  # LIBLINEAR's +1 is its first label
    Xa = np.hstack([X, np.full((len(X), 1), bias)]) if bias > 0 else X
    c = C * np.array([weights.get(int(t), 1.0) for t in y01])
    z = y * (Xa @ w)
    if s == 0:
        obj = 0.5 * w @ w + np.sum(c * np.log1p(np.exp(-z)))
    elif s == 2:
        obj = 0.5 * w @ w + np.sum(c * np.maximum(0, 1 - z) ** 2)
    else:  # 5
        obj = np.abs(w).sum() + np.sum(c * np.maximum(0, 1 - z) ** 2)
    print("%s: liblinear-train %s" % (name, " ".join(args)))
    print("    objective %r (printed %s)  non-zeros %d" % (obj, printed[-1] if printed else "-", np.count_nonzero(w)))
    print("    test predictions: " + "".join(str(x) for x in pred))


def crammer_singer(name, train, test, C, B, eps=1e-6):
    args = ["-s", "4", "-c", repr(C), "-e", repr(eps), "-B", repr(B)]
    printed, k, labels, bias, W, pred = liblinear(args, train, test)
    X, yl = read_libsvm(train, W.shape[0] - (1 if bias > 0 else 0))
    Xa = np.hstack([X, np.full((len(X), 1), bias)]) if bias > 0 else X
    Z = Xa @ W
    col = np.array([labels.index(int(t)) for t in yl])
    margin = Z - Z[np.arange(len(col)), col][:, None] + 1.0
    margin[np.arange(len(col)), col] = 0.0
    obj = 0.5 * np.sum(W * W) + C * np.sum(margin.max(axis=1))
    print("%s: liblinear-train %s" % (name, " ".join(args)))
    print("    primal objective %r   printed dual %s" % (obj, printed[-1]))
    print("    test predictions: " + " ".join(str(x) for x in pred))


out = subprocess.run(["dpkg-query", "-W", "liblinear-tools"], capture_output=True, text=True).stdout.strip()
print("LIBLINEAR:", out, " numpy", np.__version__)
hs_tr, hs_te = os.path.join(REF, "heart_scale/train.libsvm"), os.path.join(REF, "heart_scale/test.libsvm")
sp_tr, sp_te = os.path.join(DATA, "sparse_binary.train.libsvm"), os.path.join(DATA, "sparse_binary.test.libsvm")
# -s 5 at C = 4 with the bias stops at LIBLINEAR's 1000-iteration cap short of the optimum,
# so the sparse -s 5 fixture with bias uses C = 2 (converged in 729 iterations).
for s in (2, 5):
    binary("heart_scale", hs_tr, hs_te, s, 1.0, 1)
    binary("heart_scale", hs_tr, hs_te, s, 0.5, 1, {1: 2.0})
    binary("sparse_binary", sp_tr, sp_te, s, 4.0 if s == 2 else 2.0, 1)
    binary("sparse_binary", sp_tr, sp_te, s, 1.0, -1)
binary("heart_scale", hs_tr, hs_te, 0, 1.0, -1)
binary("sparse_binary", sp_tr, sp_te, 0, 4.0, -1)
ir_tr, ir_te = os.path.join(REF, "iris/train.scaled.libsvm"), os.path.join(REF, "iris/test.scaled.libsvm")
wi_tr, wi_te = os.path.join(REF, "wine/train.scaled.libsvm"), os.path.join(REF, "wine/test.scaled.libsvm")
crammer_singer("iris", ir_tr, ir_te, 1.0, 1)
crammer_singer("iris", ir_tr, ir_te, 10.0, -1)
crammer_singer("wine", wi_tr, wi_te, 0.5, 1)
