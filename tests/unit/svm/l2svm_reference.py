#!/usr/bin/python3
"""Reference for l2svm_test.cpp: the L2-SVM (squared hinge) dual is the hard-margin
(C = infinity) dual with kernel K + I/C, so LIBSVM 3.24 (python3-libsvm 3.24+ds-6) trained
on that precomputed kernel (-t 4) with a huge C gives the same solution. Decision values on
test rows use the plain kernel (the I/C term is only on the training diagonal).
Data: heart_scale train/test; rbf gamma = 1/13; C = 1 (plain) and class weight 1:3 case.
Run: /usr/bin/python3 tests/unit/svm/l2svm_reference.py"""
import numpy as np
from svmutil import svm_problem, svm_parameter, svm_train, svm_predict, svm_read_problem

R = "tests/fixtures/reference/heart_scale/"
ytr, xtr = svm_read_problem(R + "train.libsvm")
yte, xte = svm_read_problem(R + "test.libsvm")
def dense(x, d=13):
    m = np.zeros((len(x), d))
    for i, r in enumerate(x):
        for k, v in r.items():
            m[i, k - 1] = v
    return m
Xtr, Xte = dense(xtr), dense(xte)
g = 1 / 13
def rbf(A, B):
    d = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * A @ B.T
    return np.exp(-g * d)
Ktr, Kte = rbf(Xtr, Xtr), rbf(Xte, Xtr)
for C, w1 in [(1.0, 1.0), (0.5, 3.0)]:
    cost = np.array([C * (w1 if y == 1 else 1.0) for y in ytr])
    Kbar = Ktr + np.diag(1 / cost)
    rows = [{0: i + 1, **{j + 1: Kbar[i, j] for j in range(len(ytr))}} for i in range(len(ytr))]
    m = svm_train(svm_problem(ytr, rows, isKernel=True), svm_parameter("-t 4 -c 1e12 -e 1e-8 -q"))
    te = [{0: 1, **{j + 1: Kte[i, j] for j in range(len(ytr))}} for i in range(len(yte))]
    _, _, dec = svm_predict(yte, te, m, "-q")
    print("C", C, "weight of class 1", w1, "labels", m.get_labels(), "nSV", m.get_nr_sv(), "rho", "%.17g" % m.rho[0])
    print("  sv (1-based):", sorted(m.get_sv_indices()))
    print("  dec[0:8]:", ", ".join("%.17g" % d[0] for d in dec[:8]))
