# Reference values for tests/unit/calibration/calibration_test.cpp: scikit-learn 1.2.1's
# sigmoid and isotonic calibrators (calibration.py: _sigmoid_calibration,
# IsotonicRegression(out_of_bounds="clip"), _CalibratedClassifier.predict_proba) on fixed
# scores. Run: /usr/bin/python3 tests/unit/calibration/make_calibration_references.py
import numpy as np
import sklearn
from sklearn.calibration import _sigmoid_calibration, _CalibratedClassifier
from sklearn.isotonic import IsotonicRegression
from scipy.optimize import minimize
from scipy.special import expit, xlogy

print("scikit-learn", sklearn.__version__)
np.set_printoptions(precision=17)
rng = np.random.RandomState(18)
# Binary: scores rounded to 0.1 so that ties occur; labels noisy in the score.
s = np.round(rng.normal(size=30), 1)
y = (s + rng.normal(scale=0.8, size=30) > 0.2).astype(int)
w = np.round(rng.uniform(0.5, 2.0, size=30), 2)
print("scores", ", ".join(repr(float(v)) for v in s))
print("labels", ", ".join(str(v) for v in y))
print("weights", ", ".join(repr(float(v)) for v in w))
a, b = _sigmoid_calibration(s, y)
print("sigmoid a b %.17g %.17g" % (a, b))
a, b = _sigmoid_calibration(s, y, w)
print("weighted sigmoid a b %.17g %.17g" % (a, b))
queries = np.array([-3.0, -1.05, -0.3, 0.0, 0.25, 0.7, 1.33, 4.0])
print("weighted sigmoid at", ", ".join("%.17g" % v for v in expit(-(a * queries + b))))
# scikit-learn's fmin_bfgs stops at a gradient below 1e-5 (gtol); the exact minimiser of the
# same objective, for how far that leaves it: scipy BFGS with gtol=1e-13 (kestrel's Newton
# iterates stop at the same 1e-5 but converge quadratically, so land on it).
def exact(sw):
    prior0, prior1 = sw[y <= 0].sum(), sw[y > 0].sum()
    T = np.where(y > 0, (prior1 + 1) / (prior1 + 2), 1 / (prior0 + 2))
    P = lambda AB: expit(-(AB[0] * s + AB[1]))
    f = lambda AB: (sw * -(xlogy(T, P(AB)) + xlogy(1 - T, 1 - P(AB)))).sum()
    g = lambda AB: (lambda d: np.array([d @ s, d.sum()]))(sw * (T - P(AB)))
    r = minimize(f, [0, np.log((prior0 + 1) / (prior1 + 1))], jac=g, method="BFGS", options={"gtol": 1e-13})
    return r.x
print("exact sigmoid a b %.17g %.17g" % tuple(exact(np.ones(30))))
print("exact weighted sigmoid a b %.17g %.17g" % tuple(exact(w)))
iso = IsotonicRegression(out_of_bounds="clip").fit(s, y)
print("isotonic x", ", ".join(repr(float(v)) for v in iso.X_thresholds_))
print("isotonic y", ", ".join("%.17g" % v for v in iso.y_thresholds_))
print("isotonic at", ", ".join("%.17g" % v for v in iso.predict(queries)))
iso = IsotonicRegression(out_of_bounds="clip").fit(s, y, w)
print("weighted isotonic x", ", ".join(repr(float(v)) for v in iso.X_thresholds_))
print("weighted isotonic y", ", ".join("%.17g" % v for v in iso.y_thresholds_))

# Three classes: one-vs-rest score columns, then normalised rows (predict_proba with a
# stand-in classifier whose decision_function returns the given scores).
class Scores:
    classes_ = np.array([0, 1, 2])
    def __init__(self, d): self.d = d
    def decision_function(self, X): return self.d[np.asarray(X, dtype=int).ravel()]
n = 15
d = np.round(rng.normal(size=(n, 3)), 2)
yk = np.array([0, 1, 2] * 5)
d[np.arange(n), yk] += 1.0
print("multiclass scores", ", ".join(repr(float(v)) for v in d.ravel()))
print("multiclass labels", ", ".join(str(v) for v in yk))
from sklearn.calibration import _fit_calibrator
for method in ["sigmoid", "isotonic"]:
    cal = _fit_calibrator(Scores(d), d, yk, np.array([0, 1, 2]), method)
    p = cal.predict_proba(np.arange(n).reshape(-1, 1))
    print(method, "rows 0, 1, 2:", ", ".join("%.17g" % v for v in p[:3].ravel()))
    if method == "sigmoid":
        print("  a b per class", [(float("%.17g" % c.a_), float("%.17g" % c.b_)) for c in cal.calibrators])
