#!/usr/bin/python3
"""The Python layer's own cost (issue 47): the same fit and predictions through
kestrel.Classifier and through the C interface from C (bench/python/capi_timing.c), on the
same generated rows, in one run.

    overhead.py BUILD_DIR [ROWS] [COLS] [REPEATS]

Generates ROWS x COLS (default 100,000 x 50) float64 features with a binary label (seed 7)
and a test set of 20,000 rows, compiles capi_timing.c against BUILD_DIR's libkestrel.so.0,
and per model times, as medians of REPEATS (default 5) run interleaved (the C program once, then
the same in Python, per repeat): the fit (arrays in, model out), the prediction of the test
set (the median of 5 calls after a first that warms up), and one predict call on 10 rows (the mean over 2,000 calls).
Prints a Markdown table: C seconds, Python seconds, the Python layer's share
((Python - C) / C) and, for the 10-row call, the added milliseconds. The goals: at most 5 %
on the fit and the prediction, at most 0.1 ms a call.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SMALL_CALLS = 2000
PREDICT_CALLS = 5  # as capi_timing.c's kPredictCalls
THREADS = 2
MODELS = [("logistic", {"C": 1.0}), ("gbdt", {"n_estimators": 30, "max_depth": 6})]


def generated(rows, cols, seed=7):
    rng = np.random.RandomState(seed)
    X = rng.standard_normal((rows, cols))
    w = rng.standard_normal(cols)
    y = (X @ w + 0.5 * rng.standard_normal(rows) > 0).astype(np.int64)
    return X, y


def write_rows(path, X, y):
    with open(path, "wb") as f:
        np.array([X.shape[0], X.shape[1]], dtype=np.int64).tofile(f)
        np.ascontiguousarray(X, dtype=np.float64).tofile(f)
        np.asarray(y, dtype=np.float64).tofile(f)


def compile_timer(build, out):
    lib = os.path.join(build, "lib")
    subprocess.run(["cc", "-O2", "-std=c99", "-D_POSIX_C_SOURCE=199309L", "-I", os.path.join(REPO, "lib", "include"),
                    os.path.join(HERE, "capi_timing.c"), "-o", out, "-L", lib, "-l:libkestrel.so.0",
                    "-Wl,-rpath," + lib], check=True)


def c_times(timer, data_dir, model, params):
    args = [timer, data_dir, model, str(THREADS), "1", str(SMALL_CALLS)]
    args += [f"{k}={v}" for k, v in params.items()]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return {k: float(v) for k, v in (line.split() for line in out.splitlines())}


def python_times(model, params, train, test):
    import kestrel
    X, y = train
    Xt, _ = test
    est = kestrel.Classifier(model, n_jobs=THREADS, **params)
    t = time.perf_counter()
    est.fit(X, y)
    fit_s = time.perf_counter() - t
    est.predict(Xt)  # warms up, as capi_timing.c's first call
    calls = []
    for _ in range(PREDICT_CALLS):
        t = time.perf_counter()
        est.predict(Xt)
        calls.append(time.perf_counter() - t)
    predict_s = statistics.median(calls)
    small = np.ascontiguousarray(Xt[:10])
    t = time.perf_counter()
    for _ in range(SMALL_CALLS):
        est.predict(small)
    small_ms = 1e3 * (time.perf_counter() - t) / SMALL_CALLS
    return {"fit": fit_s, "predict": predict_s, "small_call_ms": small_ms}


def medians(runs):
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def main():
    build = os.path.abspath(sys.argv[1])
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    cols = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    repeats = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    os.environ.setdefault("KESTREL_LIBRARY", os.path.join(build, "lib", "libkestrel.so.0"))
    sys.path.insert(0, os.path.join(REPO, "python"))
    X, y = generated(rows + 20_000, cols)
    train, test = (X[:rows], y[:rows]), (X[rows:], y[rows:])
    print(f"{rows} x {cols} training rows, 20,000 test rows; {THREADS} threads; medians of {repeats}; "
          f"load average before: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print()
    print("| model | step | C s | Python s | Python layer |")
    print("|---|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        write_rows(os.path.join(tmp, "train.bin"), *train)
        write_rows(os.path.join(tmp, "test.bin"), *test)
        timer = os.path.join(tmp, "capi_timing")
        compile_timer(build, timer)
        for model, params in MODELS:
            # Interleaved, C then Python in each repeat, so that other work on the machine
            # falls on both alike.
            c_runs, p_runs = [], []
            for _ in range(repeats):
                c_runs.append(c_times(timer, tmp, model, params))
                p_runs.append(python_times(model, params, train, test))
            c, p = medians(c_runs), medians(p_runs)
            for step in ("fit", "predict"):
                print(f"| {model} | {step} | {c[step]:.4f} | {p[step]:.4f} | "
                      f"{100 * (p[step] - c[step]) / c[step]:+.1f} % |", flush=True)
            added = p["small_call_ms"] - c["small_call_ms"]
            print(f"| {model} | predict 10 rows (ms a call) | {c['small_call_ms']:.4f} | {p['small_call_ms']:.4f} | "
                  f"{added:+.4f} ms |", flush=True)
    print()
    print(f"load average after: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
