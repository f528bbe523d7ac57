"""Shared helpers of the Python anchor runners: reading data files, parsing -p, writing output.

Each runner is two processes, like kestrel-train / kestrel-predict and svm-train / svm-predict,
so that every tool's "train" time covers the same work: start, read the file, fit, save.
"""

import ast
import json
import sys
import time

import numpy as np


def parse_params(items):
    """['C=1', 'kernel=rbf'] -> {'C': 1, 'kernel': 'rbf'}; values as Python literals if they parse."""
    out = {}
    for item in items or []:
        name, sep, text = item.partition("=")
        if not sep:
            sys.exit(f"bad parameter '{item}': expected name=value")
        try:
            out[name] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            out[name] = text
    return out


def data_format(path, fmt):
    if fmt != "auto":
        return fmt
    return "libsvm" if path.endswith((".libsvm", ".svm", ".txt")) else "csv"


def read_data(path, fmt="auto", n_features=None, dense=True):
    """(X, y, seconds): CSV with a header and `label` first, or LIBSVM (sparse unless dense)."""
    t0 = time.perf_counter()
    if data_format(path, fmt) == "libsvm":
        from sklearn.datasets import load_svmlight_file

        X, y = load_svmlight_file(path, n_features=n_features, dtype=np.float64)
        if dense:
            X = X.toarray()
    else:
        import pandas as pd

        frame = pd.read_csv(path, engine="c", dtype=np.float64)
        y = frame.pop("label").to_numpy() if "label" in frame.columns else frame.pop(frame.columns[0]).to_numpy()
        X = np.ascontiguousarray(frame.to_numpy())
    return X, y, time.perf_counter() - t0


def write_predictions(path, values, classification):
    """One value per line under a `prediction` header, as kestrel-predict writes them."""
    if classification:
        text = "\n".join(str(int(v)) if float(v).is_integer() else str(v) for v in values)
    else:
        text = "\n".join(repr(float(v)) for v in values)
    with open(path, "w") as fh:
        fh.write("prediction\n" + text + "\n")


def report(**timings):
    """Internal timings on stdout as one JSON line; bench/run records them beside the wall time."""
    print(json.dumps({k: round(v, 6) for k, v in timings.items()}))
