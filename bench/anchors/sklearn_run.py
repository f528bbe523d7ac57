#!/usr/bin/python3
"""scikit-learn as a benchmark anchor, in two processes like the other tools.

  sklearn_run.py train -m ESTIMATOR[+ESTIMATOR...] [-p name=value]... [--dense] TRAIN -o MODEL.pkl
  sklearn_run.py predict MODEL.pkl TEST -o PRED.csv

ESTIMATOR is a scikit-learn class name from the table below; several joined by '+' make a
pipeline whose parameters are named step__param (e.g. nystroem__n_components=1000), the
pipeline's own lower-case step names. Parameters go to the constructor unchanged, so the task
file shows the exact scikit-learn call. LIBSVM files stay sparse unless --dense is given.
--center-target fits on y - mean(y) and adds the mean back when predicting (an intercept for
estimators without one, e.g. KernelRidge, as kestrel's kernel_ridge centres y).
"""

import argparse
import importlib
import os
import pickle
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import parse_params, read_data, report, write_predictions  # noqa: E402

ESTIMATORS = {
    "Ridge": "sklearn.linear_model",
    "LinearRegression": "sklearn.linear_model",
    "Lasso": "sklearn.linear_model",
    "ElasticNet": "sklearn.linear_model",
    "QuantileRegressor": "sklearn.linear_model",
    "HuberRegressor": "sklearn.linear_model",
    "LogisticRegression": "sklearn.linear_model",
    "SGDClassifier": "sklearn.linear_model",
    "Perceptron": "sklearn.linear_model",
    "LinearSVC": "sklearn.svm",
    "LinearSVR": "sklearn.svm",
    "SVC": "sklearn.svm",
    "SVR": "sklearn.svm",
    "KernelRidge": "sklearn.kernel_ridge",
    "Nystroem": "sklearn.kernel_approximation",
    "StandardScaler": "sklearn.preprocessing",
    "KNeighborsClassifier": "sklearn.neighbors",
    "KNeighborsRegressor": "sklearn.neighbors",
    "DecisionTreeClassifier": "sklearn.tree",
    "DecisionTreeRegressor": "sklearn.tree",
    "RandomForestClassifier": "sklearn.ensemble",
    "RandomForestRegressor": "sklearn.ensemble",
    "AdaBoostClassifier": "sklearn.ensemble",
    "HistGradientBoostingClassifier": "sklearn.ensemble",
    "HistGradientBoostingRegressor": "sklearn.ensemble",
}
REGRESSORS = ("Ridge", "LinearRegression", "Lasso", "ElasticNet", "QuantileRegressor", "HuberRegressor",
              "LinearSVR", "SVR", "KernelRidge",
              "KNeighborsRegressor", "DecisionTreeRegressor", "RandomForestRegressor",
              "HistGradientBoostingRegressor")


def build(spec, params):
    from sklearn.pipeline import make_pipeline

    steps = []
    for name in spec.split("+"):
        if name not in ESTIMATORS:
            sys.exit(f"sklearn_run: unknown estimator {name}; known: {', '.join(ESTIMATORS)}")
        steps.append(getattr(importlib.import_module(ESTIMATORS[name]), name)())
    est = steps[0] if len(steps) == 1 else make_pipeline(*steps)
    if params:
        # the base estimator of AdaBoost: -p estimator=DecisionTreeClassifier(max_depth=1)
        for key, value in list(params.items()):
            if isinstance(value, str) and value.endswith(")") and value.split("(")[0] in ESTIMATORS:
                cls_name, args = value[:-1].split("(", 1)
                cls = getattr(importlib.import_module(ESTIMATORS[cls_name]), cls_name)
                params[key] = cls(**parse_params([a for a in args.split(",") if a]))
        est.set_params(**params)
    return est


def train(args):
    t0 = time.perf_counter()
    X, y, load_s = read_data(args.data, args.format, dense=args.dense)
    est = build(args.model, parse_params(args.param))
    classification = args.model.split("+")[-1] not in REGRESSORS
    t1 = time.perf_counter()
    offset = float(y.mean()) if args.center_target else 0.0
    est.fit(X, y - offset if offset else y)
    fit_s = time.perf_counter() - t1
    with open(args.output, "wb") as fh:
        pickle.dump({"estimator": est, "n_features": X.shape[1], "classification": classification,
                     "dense": args.dense, "format": args.format,
                     "offset": offset}, fh, protocol=pickle.HIGHEST_PROTOCOL)
    report(load_s=load_s, fit_s=fit_s, total_s=time.perf_counter() - t0)


def predict(args):
    t0 = time.perf_counter()
    with open(args.model_file, "rb") as fh:
        saved = pickle.load(fh)
    X, _, load_s = read_data(args.data, saved["format"], n_features=saved["n_features"], dense=saved["dense"])
    t1 = time.perf_counter()
    pred = saved["estimator"].predict(X) + saved.get("offset", 0.0)
    predict_s = time.perf_counter() - t1
    write_predictions(args.output, pred, saved["classification"])
    report(load_s=load_s, predict_s=predict_s, total_s=time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train")
    t.add_argument("-m", "--model", required=True)
    t.add_argument("-p", "--param", action="append", default=[])
    t.add_argument("--format", default="auto", choices=["auto", "csv", "libsvm"])
    t.add_argument("--dense", action="store_true", help="densify LIBSVM input")
    t.add_argument("--center-target", action="store_true", help="fit on y - mean(y) (regression)")
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
