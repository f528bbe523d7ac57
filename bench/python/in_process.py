#!/usr/bin/python3
"""kestrel's Python estimators beside scikit-learn's and XGBoost's in one process (issue 47).

    in_process.py DATA_DIR BUILD_DIR [REPEATS] [ONLY]

DATA_DIR holds train.csv and test.csv (label first, numeric features; the shared letter set:
16,000 x 16, 26 classes). Per row of the table, fit on train and predict test, each timed
REPEATS times (default 5) in this one process (ONLY: just the rows whose kestrel model is one of
these comma-separated names, and no layer rows); the medians, and kestrel's median over the
anchor's as a ratio. Every estimator gets 2 threads. A last pair of rows is the layer's own
cost: kestrel.Classifier's fit against kestrel-train's whole process on the same file and
parameters (the command reads the CSV itself; the estimator is handed numpy arrays), and
the time of one predict call on one row (a web service's request) for kestrel and
scikit-learn. Test accuracy is printed so that the settings are seen to be comparable.
"""
import os
import statistics
import subprocess
import sys
import time

import numpy as np


def load(path):
    a = np.loadtxt(path, delimiter=",", skiprows=1)
    return a[:, 1:], a[:, 0].astype(int)


def timed(fn, repeats):
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


ONLY = set(sys.argv[4].split(",")) if len(sys.argv) > 4 else None


def row(name, kestrel_est, anchor_name, anchor_est, data, repeats):
    if ONLY is not None and kestrel_est.model not in ONLY:
        return
    Xtr, ytr, Xte, yte = data
    results = []
    for est in (kestrel_est, anchor_est):
        fit_s, _ = timed(lambda: est.fit(Xtr, ytr), repeats)
        pred_s, p = timed(lambda: est.predict(Xte), repeats)
        results.append((fit_s, pred_s, float(np.mean(p == yte))))
    (kf, kp, ka), (af, ap, aa) = results
    print(f"| {name} vs {anchor_name} | {kf:.3f} / {af:.3f} = {kf / af:.2f}x | {kp:.4f} / {ap:.4f} = {kp / ap:.2f}x "
          f"| {ka:.4f} / {aa:.4f} |", flush=True)


def main():
    data_dir, build = sys.argv[1], sys.argv[2]
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    import kestrel
    import xgboost
    from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    Xtr, ytr = load(os.path.join(data_dir, "train.csv"))
    Xte, yte = load(os.path.join(data_dir, "test.csv"))
    data = (Xtr, ytr, Xte, yte)
    print(f"{len(Xtr)} x {Xtr.shape[1]} training rows, {len(Xte)} test rows; medians of {repeats}, 2 threads")
    print("| kestrel vs anchor | fit seconds (ratio) | predict seconds (ratio) | test accuracy |")
    print("|---|---|---|---|")
    row("gbdt 100 rounds, depth 6, eta 0.1", kestrel.Classifier("gbdt", n_estimators=100, max_depth=6,
                                                                learning_rate=0.1, n_jobs=2),
        "XGBClassifier hist", xgboost.XGBClassifier(n_estimators=100, max_depth=6, learning_rate=0.1,
                                                    tree_method="hist", n_jobs=2), data, repeats)
    row("gbdt 100 rounds, depth 6, eta 0.1", kestrel.Classifier("gbdt", n_estimators=100, max_depth=6,
                                                                learning_rate=0.1, n_jobs=2),
        "HistGradientBoostingClassifier", HistGradientBoostingClassifier(max_iter=100, max_depth=6,
                                                                         learning_rate=0.1, early_stopping=False),
        data, repeats)
    row("forest 100 trees", kestrel.Classifier("forest", n_estimators=100, n_jobs=2),
        "RandomForestClassifier", RandomForestClassifier(n_estimators=100, n_jobs=2), data, repeats)
    row("logistic C=1, standardized", kestrel.Classifier("logistic", C=1.0, scale="standard", n_jobs=2),
        "LogisticRegression lbfgs", make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=1000)),
        data, repeats)
    # RBF SVC at LIBSVM's defaults (C=1, gamma=1/features), one-vs-one over the classes.
    row("svc rbf C=1 gamma=1/features, standardized", kestrel.Classifier("svc", C=1.0, gamma="auto",
                                                                          scale="standard", n_jobs=2),
        "SVC rbf", make_pipeline(StandardScaler(), SVC(C=1.0, gamma="auto")), data, repeats)

    if ONLY is not None:
        return
    # The layer: the estimator's fit against kestrel-train's process on the file.
    est = kestrel.Classifier("gbdt", n_estimators=100, max_depth=6, learning_rate=0.1, n_jobs=2)
    fit_s, _ = timed(lambda: est.fit(Xtr, ytr), repeats)
    cmd = [os.path.join(build, "apps", "kestrel-train"), "-q", "-m", "gbdt", "-p", "n_estimators=100", "-p",
           "max_depth=6", "-p", "learning_rate=0.1", "--threads", "2", os.path.join(data_dir, "train.csv"), "-o",
           os.devnull]
    cmd_s, _ = timed(lambda: subprocess.run(cmd, check=True), repeats)
    print(f"\nkestrel.Classifier(gbdt).fit on arrays {fit_s:.3f} s, kestrel-train on the CSV {cmd_s:.3f} s: "
          f"{fit_s / cmd_s:.2f}x")
    one = Xte[:1]
    sk = HistGradientBoostingClassifier(max_iter=100, max_depth=6, learning_rate=0.1, early_stopping=False).fit(Xtr, ytr)
    k1, _ = timed(lambda: [est.predict(one) for _ in range(100)], repeats)
    s1, _ = timed(lambda: [sk.predict(one) for _ in range(100)], repeats)
    print(f"one-row predict: kestrel {k1 * 10:.3f} ms a call, HistGradientBoosting {s1 * 10:.3f} ms: {k1 / s1:.2f}x")


if __name__ == "__main__":
    main()
