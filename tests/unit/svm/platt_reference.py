#!/usr/bin/python3
"""Reference for platt_test.cpp: LIBSVM 3.24's sigmoid_train (svm.cpp, lines 1714-1823),
transcribed line for line into Python (float64, same operation order), run on the
hand fixture of the test. Run: /usr/bin/python3 tests/unit/svm/platt_reference.py"""
from math import exp, log

def sigmoid_train(dec, labels):
    prior1 = sum(1 for y in labels if y > 0)
    prior0 = len(labels) - prior1
    max_iter, min_step, sigma, eps = 100, 1e-10, 1e-12, 1e-5
    hi, lo = (prior1 + 1.0) / (prior1 + 2.0), 1 / (prior0 + 2.0)
    t = [hi if y > 0 else lo for y in labels]
    A, B = 0.0, log((prior0 + 1.0) / (prior1 + 1.0))
    def f(A, B):
        s = 0.0
        for d, ti in zip(dec, t):
            fApB = d * A + B
            s += ti * fApB + log(1 + exp(-fApB)) if fApB >= 0 else (ti - 1) * fApB + log(1 + exp(fApB))
        return s
    fval = f(A, B)
    it = 0
    while it < max_iter:
        h11 = h22 = sigma; h21 = g1 = g2 = 0.0
        for d, ti in zip(dec, t):
            fApB = d * A + B
            if fApB >= 0:
                p = exp(-fApB) / (1.0 + exp(-fApB)); q = 1.0 / (1.0 + exp(-fApB))
            else:
                p = 1.0 / (1.0 + exp(fApB)); q = exp(fApB) / (1.0 + exp(fApB))
            d2 = p * q
            h11 += d * d * d2; h22 += d2; h21 += d * d2
            d1 = ti - p
            g1 += d * d1; g2 += d1
        if abs(g1) < eps and abs(g2) < eps:
            break
        det = h11 * h22 - h21 * h21
        dA = -(h22 * g1 - h21 * g2) / det
        dB = -(-h21 * g1 + h11 * g2) / det
        gd = g1 * dA + g2 * dB
        step = 1.0
        while step >= min_step:
            nA, nB = A + step * dA, B + step * dB
            nf = f(nA, nB)
            if nf < fval + 0.0001 * step * gd:
                A, B, fval = nA, nB, nf
                break
            step /= 2.0
        if step < min_step:
            break
        it += 1
    return A, B, it

dec = [2.1, 1.3, 0.4, -0.2, -1.1, -1.7, 0.8, -0.6, 1.5, -2.3]
lab = [1, 1, 1, -1, -1, -1, -1, 1, 1, -1]
print("%.17g %.17g %d" % sigmoid_train(dec, lab))
# Separable: the regularised targets keep A, B finite.
print("%.17g %.17g %d" % sigmoid_train([3.0, 2.0, 1.0, -1.0, -2.0], [1, 1, 1, -1, -1]))
