#!/usr/bin/python3
"""Writes tests/unit/linear/data/sparse_binary.{train,test}.libsvm and prints the LIBLINEAR
reference numbers pasted into tests/unit/linear/linear_svm_test.cpp and linear_svr_test.cpp.

Run with Debian's python3 (numpy 1.24.2) and liblinear-tools 2.3.0 (/usr/bin/liblinear-train):
    /usr/bin/python3 tests/unit/linear/make_svm_references.py
For each run: LIBLINEAR's printed dual "Objective value", the primal objective recomputed
from its model file, and its test-set predictions (as 0/1 labels).
"""
import os
import re
import subprocess
import tempfile
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, "../../fixtures/reference")
OUT = os.path.join(HERE, "data")


def write_sparse_fixture():
    # 240 + 80 rows, 400 features, 3..12 non-zeros per row (tf-idf-like values in (0, 1]),
    # labels from a sparse true weight vector with 5% flipped.
    rng = np.random.default_rng(2026)
    d = 400
    w_true = np.zeros(d)
    support = rng.choice(d, 60, replace=False)
    w_true[support] = rng.normal(size=60)
    rows, labels = [], []
    for _ in range(320):
        k = rng.integers(3, 13)
        idx = np.sort(rng.choice(d, k, replace=False))
        val = np.round(rng.uniform(0.05, 1.0, size=k), 3)
        z = val @ w_true[idx]
        y = int(z > 0)
        if rng.uniform() < 0.05:
            y = 1 - y
        rows.append((idx, val))
        labels.append(y)
    os.makedirs(OUT, exist_ok=True)
    for name, part in (("train", range(0, 240)), ("test", range(240, 320))):
        with open(os.path.join(OUT, "sparse_binary.%s.libsvm" % name), "w") as f:
            for i in part:
                idx, val = rows[i]
                f.write(str(labels[i]) + "".join(" %d:%s" % (j + 1, repr(float(v))) for j, v in zip(idx, val)) + "\n")


def read_libsvm(path, d=None):
    ys, rows = [], []
    for line in open(path):
        t = line.split()
        ys.append(int(float(t[0])))
        rows.append({int(a) - 1: float(b) for a, b in (x.split(":") for x in t[1:])})
    d = d or max(max(r) for r in rows if r) + 1
    X = np.zeros((len(rows), d))
    for i, r in enumerate(rows):
        for j, v in r.items():
            X[i, j] = v
    return X, np.array(ys)


def liblinear(args, train, test, d):
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, "m")
        out = subprocess.run(["liblinear-train"] + args + [train, model], capture_output=True,
                             text=True, check=True).stdout
        dual = float(re.findall(r"Objective value = (\S+)", out)[-1])
        text = open(model).read().split("\n")
        labels = [int(x) for x in text[text.index(next(l for l in text if l.startswith("label")))].split()[1:]]
        bias = float(next(l for l in text if l.startswith("bias")).split()[1])
        w = np.array([float(l) for l in text[text.index("w") + 1:] if l.strip()])
        pred = os.path.join(tmp, "p")
        subprocess.run(["liblinear-predict", test, model, pred], capture_output=True, check=True)
        predictions = [int(float(x)) for x in open(pred).read().split()]
    return dual, labels, bias, w, predictions


def primal(X, y01, labels, bias, w, C, weights, squared):
    y = np.where(y01 == labels[0], 1.0, -1.0)  # LIBLINEAR's +1 is its first label
    Xa = np.hstack([X, np.full((len(X), 1), bias)]) if bias > 0 else X
    m = np.maximum(0, 1 - y * (Xa @ w))
    c = C * np.array([weights.get(int(t), 1.0) for t in y01])
    return 0.5 * w @ w + np.sum(c * (m * m if squared else m))


def run(name, train, test, s, C, eps, B, weights={}):
    Xtr, ytr = read_libsvm(train)
    d = Xtr.shape[1]
    args = ["-s", str(s), "-c", repr(C), "-e", repr(eps), "-B", repr(B)]
    for lab, wt in weights.items():
        args += ["-w%d" % lab, repr(wt)]
    dual, labels, bias, w, pred = liblinear(args, train, test, d)
    Xtr, ytr = read_libsvm(train, len(w) - (1 if bias > 0 else 0))
    p = primal(Xtr, ytr, labels, bias, w, C, weights, s == 1)
    print("%s: liblinear-train %s" % (name, " ".join(args)))
    print("    dual objective %r   primal objective %r" % (dual, p))
    print("    test predictions: " + "".join(str(x) for x in pred))


write_sparse_fixture()
out = subprocess.run(["dpkg-query", "-W", "liblinear-tools"], capture_output=True, text=True).stdout.strip()
print("LIBLINEAR:", out, " numpy", np.__version__)
hs_tr, hs_te = os.path.join(REF, "heart_scale/train.libsvm"), os.path.join(REF, "heart_scale/test.libsvm")
sp_tr, sp_te = os.path.join(OUT, "sparse_binary.train.libsvm"), os.path.join(OUT, "sparse_binary.test.libsvm")
for s in (1, 3):
    run("heart_scale", hs_tr, hs_te, s, 1.0, 1e-6, 1)
    run("heart_scale", hs_tr, hs_te, s, 0.5, 1e-6, 1, {1: 2.0})
    run("sparse_binary", sp_tr, sp_te, s, 4.0, 1e-6, 1)
    run("sparse_binary", sp_tr, sp_te, s, 1.0, 1e-6, -1)


def svr_primal(X, y, w, bias, C, p, squared):
    Xa = np.hstack([X, np.full((len(X), 1), bias)])
    m = np.maximum(0, np.abs(y - Xa @ w) - p)
    return 0.5 * w @ w + C * np.sum(m * m if squared else m)


def read_regression(path, d):
    X, _ = read_libsvm(path, d)
    return X, np.array([float(l.split()[0]) for l in open(path)])


dia = os.path.join(REF, "diabetes/train.scaled.libsvm")
for s, C, p in ((11, 1.0, 5.0), (12, 1.0, 5.0), (13, 1.0, 5.0), (13, 10.0, 1.0), (12, 0.1, 0.0)):
    args = ["-s", str(s), "-c", repr(C), "-p", repr(p), "-e", "1e-06", "-B", "1"]
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, "m")
        out = subprocess.run(["liblinear-train"] + args + [dia, model], capture_output=True, text=True, check=True).stdout
        text = open(model).read().split("\n")
        w = np.array([float(l) for l in text[text.index("w") + 1:] if l.strip()])
    X, y = read_regression(dia, len(w) - 1)
    print("diabetes (train.scaled.libsvm): liblinear-train %s" % " ".join(args))
    print("    primal objective %r" % svr_primal(X, y, w, 1.0, C, p, s != 13))
    print("    w: " + ", ".join(repr(float(v)) for v in w))


# L1-regularised logistic regression, -s 6, without bias (kestrel never penalises its intercept).
def l1_logistic(name, train, test, C):
    args = ["-s", "6", "-c", repr(C), "-e", "1e-06", "-B", "-1"]
    dual, labels, bias, w, pred = liblinear(args, train, test, 0)
    X, y01 = read_libsvm(train, len(w))
    y = np.where(y01 == labels[0], 1.0, -1.0)
    obj = np.abs(w).sum() + C * np.sum(np.log1p(np.exp(-y * (X @ w))))
    print("%s: liblinear-train %s" % (name, " ".join(args)))
    print("    objective %r   non-zeros %d" % (obj, np.count_nonzero(w)))
    print("    test predictions: " + "".join(str(x) for x in pred))


l1_logistic("heart_scale", hs_tr, hs_te, 1.0)
l1_logistic("sparse_binary", sp_tr, sp_te, 4.0)
