#!/usr/bin/python3
"""Test-set accuracy of kestrel's gbdt and XGBoost 1.7 hist at XGBoost's default settings
(eta 0.3, max_depth 6, lambda 1, min_child_weight 1, 200 rounds, 2 threads) on the held-out
multiclass sets of the shared reference data: kestrel with hessian=xgboost (the default) and
hessian=sklearn, XGBoost with its default max_bin 256 and with 255 (kestrel's max_bins).
The table of docs/models/gbdt.md ("Accuracy at XGBoost's defaults") and docs/benchmarks.md.

    /usr/bin/python3 bench/quality/gbdt_xgboost_defaults.py BUILD_DIR DATA_DIR [SET ...]

BUILD_DIR holds apps/kestrel-train and apps/kestrel-predict; DATA_DIR the shared sets
(letter, digits, wine, iris: train.csv / test.csv, label first, named `label`).
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import xgboost as xgb

ROUNDS, ETA, DEPTH, THREADS = 200, 0.3, 6, 2


def load(path):
    a = np.loadtxt(path, delimiter=",", skiprows=1)
    return a[:, 1:], a[:, 0].astype(int)


def kestrel_accuracy(build, train, test, y_test, extra):
    with tempfile.TemporaryDirectory() as tmp:
        model, pred = os.path.join(tmp, "m.json"), os.path.join(tmp, "p.csv")
        params = ["n_estimators=%d" % ROUNDS, "learning_rate=%g" % ETA, "max_depth=%d" % DEPTH, "lambda=1",
                  "min_child_weight=1", "min_data_in_leaf=0"] + extra
        cmd = [os.path.join(build, "apps", "kestrel-train"), "-q", "-m", "gbdt", "--threads", str(THREADS),
               "--seed", "1", "--task", "classification", train, "-o", model]
        for p in params:
            cmd += ["-p", p]
        subprocess.run(cmd, check=True)
        subprocess.run([os.path.join(build, "apps", "kestrel-predict"), "-q", model, test, "-o", pred], check=True)
        with open(pred) as fh:
            next(fh)
            labels = np.array([int(float(line.split(",")[0])) for line in fh])
    return float(np.mean(labels == y_test))


def xgboost_accuracy(Xtr, ytr, Xte, yte, max_bin):
    k = int(ytr.max()) + 1
    params = dict(objective="multi:softprob", num_class=k, tree_method="hist", eta=ETA, max_depth=DEPTH,
                  min_child_weight=1, max_bin=max_bin, nthread=THREADS, **{"lambda": 1.0})
    booster = xgb.train(params, xgb.DMatrix(Xtr, label=ytr), ROUNDS)
    return float(np.mean(booster.predict(xgb.DMatrix(Xte)).argmax(axis=1) == yte))


def main():
    build, data = sys.argv[1], sys.argv[2]
    sets = sys.argv[3:] or ["letter", "digits", "wine", "iris"]
    print("| set | classes | train / test | kestrel hessian=xgboost | kestrel hessian=sklearn | "
          "XGBoost max_bin=256 | XGBoost max_bin=255 |")
    print("|---|---|---|---|---|---|---|")
    for name in sets:
        train, test = os.path.join(data, name, "train.csv"), os.path.join(data, name, "test.csv")
        Xtr, ytr = load(train)
        Xte, yte = load(test)
        row = [kestrel_accuracy(build, train, test, yte, []),
               kestrel_accuracy(build, train, test, yte, ["hessian=sklearn"]),
               xgboost_accuracy(Xtr, ytr, Xte, yte, 256), xgboost_accuracy(Xtr, ytr, Xte, yte, 255)]
        print("| %s | %d | %d / %d | %s |" % (name, int(ytr.max()) + 1, len(ytr), len(yte),
                                             " | ".join("%.2f %%" % (100 * a) for a in row)), flush=True)
    print("xgboost", xgb.__version__, file=sys.stderr)


if __name__ == "__main__":
    main()
