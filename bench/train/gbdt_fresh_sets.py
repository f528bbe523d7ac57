#!/usr/bin/python3
"""gbdt against XGBoost 1.7's hist on tables no setting was tuned on (issues 47 and 50).

    gbdt_fresh_sets.py BUILD_DIR [RUNS=3] [OUT.md]

Generates four seeded tables with scikit-learn's make_classification / make_regression, in
regimes of their own (seeds 11-14, never used by bench/data/gen.py; label first, 80/20
split, bench/data/generated/fresh_*), then trains each RUNS times with kestrel-train and
with bench/anchors/xgboost_run.py (Debian's xgboost 1.7.4 through its Python package), run
alternately, whole processes: 100 rounds, depth 6, eta 0.1, 255 bins, lambda 1,
min_child_weight 1 (kestrel's min_data_in_leaf=0, the same rule), 2 threads. Prints a
Markdown table of the medians (wall seconds), the ratio kestrel / XGBoost, and each side's
test accuracy or RMSE from its own predict step. The same directories serve
bench/python/in_process.py (train.csv / test.csv, label first).
"""
import os
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "bench", "data", "generated")
XGB = os.path.join(ROOT, "bench", "anchors", "xgboost_run.py")

# name: (kind, generator arguments, rows); kind "multi"/"binary"/"regression"
SETS = {
    "fresh_multi7": ("multi", dict(n_features=9, n_informative=7, n_redundant=2, n_classes=7,
                                   n_clusters_per_class=2, weights=[.5, .2, .1, .08, .06, .04, .02],
                                   random_state=11), 58000),
    "fresh_multi5": ("multi", dict(n_features=40, n_informative=20, n_classes=5, random_state=12), 50000),
    "fresh_binary20": ("binary", dict(n_features=20, n_informative=10, random_state=13), 250000),
    "fresh_reg30": ("regression", dict(n_features=30, n_informative=15, noise=5.0, random_state=14), 125000),
}


def make(name):
    kind, args, rows = SETS[name]
    out = os.path.join(DATA, name)
    if os.path.exists(os.path.join(out, "test.csv")):
        return out
    from sklearn.datasets import make_classification, make_regression
    X, y = (make_regression if kind == "regression" else make_classification)(rows, **args)
    os.makedirs(out, exist_ok=True)
    cut = int(rows * 0.8)
    header = "label," + ",".join(f"f{i}" for i in range(X.shape[1]))
    for part, sl in (("train", slice(0, cut)), ("test", slice(cut, rows))):
        label_fmt = "%.6g" if kind == "regression" else "%d"
        np.savetxt(os.path.join(out, f"{part}.csv"), np.column_stack([y[sl], X[sl]]), delimiter=",", header=header,
                   comments="", fmt=[label_fmt] + ["%.6g"] * X.shape[1])
    return out


def timed(cmd):
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def score(pred_csv, test_csv, kind):
    p = np.loadtxt(pred_csv, delimiter=",", skiprows=1, usecols=0)
    y = np.loadtxt(test_csv, delimiter=",", skiprows=1, usecols=0)
    if kind == "regression":
        return f"RMSE {np.sqrt(np.mean((p - y) ** 2)):.3f}"
    return f"{np.mean(p == y):.4f}"


def main():
    build = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    tmp = os.path.join("/tmp", f"gbdt_fresh_{os.getpid()}")
    os.makedirs(tmp, exist_ok=True)
    train_bin = os.path.join(build, "apps", "kestrel-train")
    predict_bin = os.path.join(build, "apps", "kestrel-predict")
    lines = ["| table | rows x features | classes | kestrel s | XGBoost s | ratio | kestrel test | XGBoost test |",
             "|---|---|---|---:|---:|---:|---|---|"]
    for name, (kind, _, _) in SETS.items():
        d = make(name)
        train, test = os.path.join(d, "train.csv"), os.path.join(d, "test.csv")
        y = np.loadtxt(train, delimiter=",", skiprows=1, usecols=0)
        n_classes = len(np.unique(y)) if kind != "regression" else 0
        objective = {"multi": "multi:softprob", "binary": "binary:logistic", "regression": "reg:squarederror"}[kind]
        k_model, x_model = os.path.join(tmp, "k.json"), os.path.join(tmp, "x.json")
        kcmd = [train_bin, "-q", "-m", "gbdt", "-p", "n_estimators=100", "-p", "max_depth=6", "-p", "learning_rate=0.1",
                "-p", "max_bins=255", "-p", "lambda=1", "-p", "min_data_in_leaf=0", "--threads", "2", train, "-o",
                k_model]
        if kind == "regression":
            kcmd[4:4] = ["--task", "regression"]
        xcmd = ["/usr/bin/python3", XGB, "train", "-p", f"objective={objective}", "-p", "tree_method=hist", "-p",
                "max_depth=6", "-p", "eta=0.1", "-p", "max_bin=255", "-p", "min_child_weight=1", "-p", "lambda=1",
                "-p", "nthread=2", "--rounds", "100", train, "-o", x_model]
        if n_classes > 2:
            xcmd[5:5] = ["-p", f"num_class={n_classes}"]
        k_times, x_times = [], []
        for i in range(runs):
            order = [(kcmd, k_times), (xcmd, x_times)]
            for cmd, into in (order if i % 2 == 0 else order[::-1]):
                into.append(timed(cmd))
        k_pred, x_pred = os.path.join(tmp, "k.csv"), os.path.join(tmp, "x.csv")
        subprocess.run([predict_bin, "-q", k_model, test, "-o", k_pred], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["/usr/bin/python3", XGB, "predict", x_model, test, "-o", x_pred], check=True,
                       stdout=subprocess.DEVNULL)
        km, xm = statistics.median(k_times), statistics.median(x_times)
        rows = sum(1 for _ in open(train)) - 1
        lines.append(f"| {name} | {rows} x {SETS[name][1]['n_features']} | {n_classes or 'regression'} | {km:.3f} | "
                     f"{xm:.3f} | {km / xm:.2f}x | {score(k_pred, test, kind)} | {score(x_pred, test, kind)} |")
        print(lines[-1], flush=True)
    load = open("/proc/loadavg").read().split()[:3]
    text = (f"gbdt_fresh_sets.py, medians of {runs} alternated whole-process runs, load average "
            f"{' '.join(load)} after.\n\n" + "\n".join(lines) + "\n")
    if len(sys.argv) > 3:
        with open(sys.argv[3], "w") as fh:
            fh.write(text)
    print(text)


if __name__ == "__main__":
    main()
