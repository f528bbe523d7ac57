# Reference values for tests/unit/kernel_methods, recorded with Debian 12's
# python3-sklearn 1.2.1: /usr/bin/python3 tests/unit/kernel_methods/make_references.py
import numpy as np
import sklearn
from sklearn.kernel_ridge import KernelRidge

n, d = 20, 3
X = np.array([[np.sin(1.3 * i + 0.7 * j + 0.1) * (1 + 0.1 * j) for j in range(d)] for i in range(n)])
y = np.array([np.cos(0.9 * i) + 0.5 * X[i, 0] - X[i, 2] ** 2 for i in range(n)])
w = np.array([1.0 + (i % 3) for i in range(n)])
Q = np.array([[0.2, -0.4, 0.9], [-1.0, 0.5, 0.1], [0.7, 0.7, -0.3]])
print("scikit-learn", sklearn.__version__)
for kw in [dict(kernel="rbf", gamma=0.3, alpha=0.5),
           dict(kernel="poly", gamma=0.5, degree=2, coef0=1.0, alpha=0.1),
           dict(kernel="laplacian", gamma=0.4, alpha=0.2)]:
    m = KernelRidge(**kw).fit(X, y)
    print(kw, ", ".join("%.17g" % v for v in m.predict(Q)))
m = KernelRidge(kernel="rbf", gamma=0.3, alpha=0.5).fit(X, y, sample_weight=w)
print("weighted 1 + i % 3", ", ".join("%.17g" % v for v in m.predict(Q)))
