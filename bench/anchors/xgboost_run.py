#!/usr/bin/python3
"""XGBoost (Debian python3-xgboost) as a benchmark anchor, in two processes.

  xgboost_run.py train -p objective=binary:logistic -p max_depth=6 ... --rounds N TRAIN -o MODEL.json
  xgboost_run.py predict MODEL.json TEST -o PRED.csv

Parameters go to xgboost.train unchanged (tree_method=hist, eta, max_bin, nthread, ...).
Predicted labels: probability > 0.5 for binary:logistic, the arg-max class for multi:softprob,
the class for multi:softmax, the value for regression objectives.
"""

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import data_format, parse_params, read_data, report, write_predictions  # noqa: E402


def load_matrix(path, fmt, n_features=None, nthread=0):
    import xgboost as xgb

    if data_format(path, fmt) == "libsvm":
        X, y, load_s = read_data(path, "libsvm", n_features=n_features, dense=False)
    else:
        X, y, load_s = read_data(path, "csv")
    t0 = time.perf_counter()
    dm = xgb.DMatrix(X, label=y, nthread=nthread or -1)
    return dm, X.shape[1], load_s + (time.perf_counter() - t0)


def train(args):
    import xgboost as xgb

    t0 = time.perf_counter()
    params = parse_params(args.param)
    dtrain, n_features, load_s = load_matrix(args.data, args.format, nthread=params.get("nthread", 0))
    t1 = time.perf_counter()
    booster = xgb.train(params, dtrain, num_boost_round=args.rounds)
    fit_s = time.perf_counter() - t1
    booster.set_attr(bench=json.dumps({"objective": params.get("objective", "reg:squarederror"),
                                       "n_features": n_features, "format": args.format,
                                       "nthread": params.get("nthread", 0)}))
    booster.save_model(args.output)
    report(load_s=load_s, fit_s=fit_s, total_s=time.perf_counter() - t0)


def predict(args):
    import xgboost as xgb

    t0 = time.perf_counter()
    booster = xgb.Booster(model_file=args.model_file)
    meta = json.loads(booster.attr("bench"))
    if meta.get("nthread"):
        booster.set_param({"nthread": meta["nthread"]})
    dtest, _, load_s = load_matrix(args.data, meta["format"], meta["n_features"], meta.get("nthread", 0))
    t1 = time.perf_counter()
    raw = booster.predict(dtest)
    predict_s = time.perf_counter() - t1
    objective = meta["objective"]
    if objective.startswith("binary:"):
        pred, classification = (raw > 0.5).astype(np.int64), True
    elif objective == "multi:softprob":
        pred, classification = raw.argmax(axis=1), True
    elif objective == "multi:softmax":
        pred, classification = raw.astype(np.int64), True
    else:
        pred, classification = raw, False
    write_predictions(args.output, pred, classification)
    report(load_s=load_s, predict_s=predict_s, total_s=time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train")
    t.add_argument("-p", "--param", action="append", default=[])
    t.add_argument("--rounds", type=int, required=True)
    t.add_argument("--format", default="auto", choices=["auto", "csv", "libsvm"])
    t.add_argument("data")
    t.add_argument("-o", "--output", required=True)
    p = sub.add_parser("predict")
    p.add_argument("model_file")
    p.add_argument("data")
    p.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    train(args) if args.command == "train" else predict(args)


if __name__ == "__main__":
    main()
