#!/usr/bin/python3
"""Early stopping on a validation file: kestrel-train -m gbdt --valid against XGBoost 1.7's
xgb.train(evals=..., early_stopping_rounds=...), same rows, same settings (eta 0.3, max_depth 6,
lambda 1, min_child_weight 1, up to 1000 rounds, patience 20, each tool's default eval_metric
for the objective: mlogloss / logloss / rmse). Each shared set's train.csv is split 80/20
(numpy seed 7) into fitting and validation rows; both tools stop on the validation rows and
are scored on test.csv with the kept rounds (XGBoost: iteration_range up to best_iteration).
The table of docs/models/gbdt.md ("Validation sets and early stopping").

    /usr/bin/python3 bench/quality/gbdt_early_stopping.py BUILD_DIR DATA_DIR [SET ...]
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import xgboost as xgb

ETA, DEPTH, THREADS, ROUNDS, PATIENCE = 0.3, 6, 2, 1000, 20
TASKS = {"letter": "multi", "digits": "multi", "breast_cancer": "binary", "diabetes": "regression"}


def read(path):
    with open(path) as fh:
        header = fh.readline()
    return header, np.loadtxt(path, delimiter=",", skiprows=1)


def write(path, header, rows):
    with open(path, "w") as fh:
        fh.write(header)
        np.savetxt(fh, rows, delimiter=",", fmt="%.17g")


def score(task, truth, pred):
    if task == "regression":
        return float(np.sqrt(np.mean((truth - pred) ** 2)))
    return float(np.mean(truth == pred))


def run_kestrel(build, task, fit, valid, test, y_test, tmp):
    model, pred = os.path.join(tmp, "m.json"), os.path.join(tmp, "p.csv")
    cmd = [os.path.join(build, "apps", "kestrel-train"), "-q", "-m", "gbdt", "--threads", str(THREADS), fit,
           "--valid", valid, "-o", model]
    if task == "regression":
        cmd += ["--task", "regression"]
    for p in ("n_estimators=%d" % ROUNDS, "learning_rate=%g" % ETA, "max_depth=%d" % DEPTH, "lambda=1",
              "min_child_weight=1", "min_data_in_leaf=0", "early_stopping_rounds=%d" % PATIENCE):
        cmd += ["-p", p]
    start = time.perf_counter()
    subprocess.run(cmd, check=True)
    seconds = time.perf_counter() - start
    subprocess.run([os.path.join(build, "apps", "kestrel-predict"), "-q", model, test, "-o", pred], check=True)
    with open(pred) as fh:
        next(fh)
        p = np.array([float(line.split(",")[0]) for line in fh])
    with open(model) as fh:
        best = json.load(fh)["state"]["best_iteration"]
    return best, score(task, y_test, p), seconds


def run_xgboost(task, Xf, yf, Xv, yv, Xte, yte):
    params = dict(tree_method="hist", eta=ETA, max_depth=DEPTH, min_child_weight=1, nthread=THREADS,
                  **{"lambda": 1.0})
    if task == "multi":
        params.update(objective="multi:softprob", num_class=int(max(yf.max(), yv.max())) + 1)
    elif task == "binary":
        params.update(objective="binary:logistic")
    else:
        params.update(objective="reg:squarederror")
    start = time.perf_counter()
    booster = xgb.train(params, xgb.DMatrix(Xf, label=yf), ROUNDS, evals=[(xgb.DMatrix(Xv, label=yv), "validation_0")],
                        early_stopping_rounds=PATIENCE, verbose_eval=False)
    seconds = time.perf_counter() - start
    out = booster.predict(xgb.DMatrix(Xte), iteration_range=(0, booster.best_iteration + 1))
    pred = out.argmax(axis=1) if task == "multi" else (out > 0.5).astype(float) if task == "binary" else out
    return booster.best_iteration, score(task, yte, pred), seconds


def main():
    build, data = sys.argv[1], sys.argv[2]
    sets = sys.argv[3:] or list(TASKS)
    print("| set | task | fit / valid / test rows | kestrel best_iteration | XGBoost best_iteration | "
          "kestrel test score | XGBoost test score | kestrel train s | XGBoost train s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in sets:
        task = TASKS[name]
        header, train = read(os.path.join(data, name, "train.csv"))
        _, test = read(os.path.join(data, name, "test.csv"))
        order = np.random.default_rng(7).permutation(len(train))
        cut = int(round(0.8 * len(train)))
        fit_rows, valid_rows = train[np.sort(order[:cut])], train[np.sort(order[cut:])]
        with tempfile.TemporaryDirectory() as tmp:
            fit, valid = os.path.join(tmp, "fit.csv"), os.path.join(tmp, "valid.csv")
            write(fit, header, fit_rows)
            write(valid, header, valid_rows)
            test_path = os.path.join(data, name, "test.csv")
            k = run_kestrel(build, task, fit, valid, test_path, test[:, 0], tmp)
        x = run_xgboost(task, fit_rows[:, 1:], fit_rows[:, 0], valid_rows[:, 1:], valid_rows[:, 0], test[:, 1:], test[:, 0])
        unit = "RMSE" if task == "regression" else "acc."
        print("| %s | %s | %d / %d / %d | %d | %d | %.4f %s | %.4f %s | %.2f | %.2f |" % (
            name, task, len(fit_rows), len(valid_rows), len(test), k[0], x[0], k[1], unit, x[1], unit, k[2], x[2]),
            flush=True)
    print("xgboost", xgb.__version__, file=sys.stderr)


if __name__ == "__main__":
    main()
