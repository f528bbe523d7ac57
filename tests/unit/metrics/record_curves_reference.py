#!/usr/bin/python3
"""Records the reference values of tests/unit/metrics/curves_test.cpp.

Run with Debian 12's /usr/bin/python3 (python3-sklearn 1.2.1, numpy 1.24.2):
    /usr/bin/python3 tests/unit/metrics/record_curves_reference.py
and paste its output into the test. Scores are rounded so that the C++ literals are the
exact inputs, with ties, so that drop_intermediate and tied thresholds are exercised.
"""
import numpy as np
import sklearn
from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score, roc_curve


def lit(a):
    return "{" + ", ".join(repr(float(v)) for v in a) + "}"


rng = np.random.RandomState(11)
y = rng.randint(0, 2, 30)
score = np.round(rng.normal(0, 1, 30) + 0.8 * y, 1)
print("// sklearn", sklearn.__version__, "numpy", np.__version__)
print("y =", lit(y))
print("score =", lit(score))
fpr, tpr, thr = roc_curve(y, score)
print("roc fpr =", lit(fpr)); print("roc tpr =", lit(tpr)); print("roc thr =", lit(thr))
fpr, tpr, thr = roc_curve(y, score, drop_intermediate=False)
print("roc(all) fpr =", lit(fpr)); print("roc(all) tpr =", lit(tpr)); print("roc(all) thr =", lit(thr))
p, r, t = precision_recall_curve(y, score)
print("pr precision =", lit(p)); print("pr recall =", lit(r)); print("pr thr =", lit(t))
print("auc =", repr(roc_auc_score(y, score)), "ap =", repr(average_precision_score(y, score)))

# Three classes, probabilities in steps of 0.05.
y3 = rng.randint(0, 3, 18)
raw = rng.dirichlet([1, 1, 1], 18) + 0.6 * np.eye(3)[y3]
P = np.round(raw / raw.sum(1, keepdims=True) * 20) / 20
P[:, 2] = np.round(1 - P[:, 0] - P[:, 1], 2)
print("y3 =", lit(y3))
for c in range(3):
    print("P[:,%d] =" % c, lit(P[:, c]))
for c in range(3):
    yc = (y3 == c).astype(int)
    fpr, tpr, thr = roc_curve(yc, P[:, c])
    print("class", c, "fpr =", lit(fpr)); print("class", c, "tpr =", lit(tpr))
    p, r, t = precision_recall_curve(yc, P[:, c])
    print("class", c, "precision =", lit(p)); print("class", c, "recall =", lit(r))
    print("class", c, "auc =", repr(roc_auc_score(yc, P[:, c])), "ap =", repr(average_precision_score(yc, P[:, c])))
