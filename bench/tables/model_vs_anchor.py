#!/usr/bin/python3
"""A kestrel model at default parameters against its scikit-learn anchor on raw tables, by repeated
cross-validation on the same folds (issue 17: "gbdt with native categories and missing values >=
HistGradientBoosting within 0.5 points"; "forest >= scikit-learn RandomForest on one-hot +
imputed data"). Not a timing bench: scores only.

    /usr/bin/python3 bench/tables/model_vs_anchor.py BUILD_APPS_DIR --model gbdt|forest \
        [--tables a,b] [--variant NAME=PARAMS]... [--results FILE.json] [--report FILE.md] [--report-only]

--model gbdt: kestrel gbdt against HistGradientBoosting, cached in bench/tables/gbdt_vs_histgb.json;
--model forest: kestrel forest against RandomForest, cached in bench/tables/forest_vs_rf.json.

Data: each table's train.csv and test.csv joined (every row the table has; rows with a
missing label dropped). Folds: 5-fold, repeated 4 times, repeat r shuffled with
random_state=r (StratifiedKFold for classification, KFold for regression): 20 folds. Each fold's
training and test rows are written as CSV files made of the table's own lines (the header and
the rows' raw text, so quoting and `NA` cells are as exported), and both tools read those rows:
kestrel-train / kestrel-predict --metrics on the files, scikit-learn on the same rows of
pandas.read_csv of the joined table (its text columns found on the whole table, so a fold
cannot turn one into numbers).

kestrel: `kestrel-train -m MODEL --threads 1 [-p PARAMS]` at defaults (a variant adds -p ...;
--seed is left at its default, 1), the raw table as it is (native categories and missing values).
The anchors, scikit-learn 1.2, OMP_NUM_THREADS=1, text columns as above:
- gbdt: HistGradientBoostingClassifier / Regressor(categorical_features = the text columns
  through an OrdinalEncoder whose unknown and missing values are NaN, native NaN,
  random_state=0). Its early_stopping='auto' turns on only above 10000 training rows; the largest
  fold here trains on 7886 (lending_club), so it is off everywhere.
- forest: RandomForestClassifier / Regressor(random_state=0, n_jobs=1, every other parameter at
  its default: 100 trees, max_features 'sqrt' for classification and 1.0 (all) for regression,
  min_samples_leaf 1) after the pipeline a scikit-learn user writes for such a table:
  SimpleImputer(strategy='median') on the numeric columns, SimpleImputer('most_frequent') then
  OneHotEncoder(handle_unknown='ignore') on the text columns.

Score: accuracy, or R² for regression. Per table: mean and sd (over the 20 folds, ddof=1) for
each tool, and the paired difference kestrel − anchor with its standard error sd/√20 (the
folds of one repeat share rows, so that error is somewhat optimistic; read 2 of them as a rough
bar, not a test). Results are cached in --results (a rerun only computes missing cells).
"""
import argparse
import io
import json
import math
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from sklearn.compose import ColumnTransformer  # noqa: E402
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor  # noqa: E402
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor  # noqa: E402
from sklearn.impute import SimpleImputer  # noqa: E402
from sklearn.metrics import accuracy_score, r2_score  # noqa: E402
from sklearn.model_selection import KFold, StratifiedKFold  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import OneHotEncoder, OrdinalEncoder  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SHARED = os.path.join(ROOT, "data", "tables")
DEBIAN = os.path.join(ROOT, "bench", "data", "tables")   # bench/tables/make_debian_tables.sh
DATA = os.path.join(ROOT, "data")
# name, directory, label column, task (c: classification, r: regression)
TABLES = [
    ("penguins", SHARED, "species", "c"), ("credit_data", SHARED, "Status", "c"), ("ames", SHARED, "Sale_Price", "r"),
    ("attrition", DEBIAN, "Attrition", "c"), ("mlc_churn", DEBIAN, "churn", "c"), ("wa_churn", DEBIAN, "churn", "c"),
    ("lending_club", DEBIAN, "Class", "c"), ("hpc_data", DEBIAN, "class", "c"), ("Sacramento", DEBIAN, "price", "r"),
    ("stackoverflow", DEBIAN, "Remote", "c"), ("scat", DEBIAN, "Species", "c"),
    # the small numeric sets of data/ (CSV copies of the LIBSVM files)
    ("iris", DATA, "species", "c"), ("heart_scale", DATA, "label", "c"), ("diabetes", DATA, "label", "r"),
]
K, REPEATS = 5, 4


def raw_rows(path):
    """The header line and each record's raw text (a record may span lines inside quotes)."""
    with open(path, newline="") as f:
        text = f.read()
    lines = text.splitlines(keepends=True)
    header, records, buf = lines[0], [], ""
    for line in lines[1:]:
        buf += line
        if buf.count('"') % 2 == 0:     # a record ends where its quotes balance
            if buf.strip():
                records.append(buf if buf.endswith("\n") else buf + "\n")
            buf = ""
    return header, records


def load(directory, name, label):
    header, records = [], []
    for part in ("train.csv", "test.csv"):
        h, r = raw_rows(os.path.join(directory, name, part))
        header.append(h)
        records += r
    assert header[0] == header[1], name
    frame = pd.concat([pd.read_csv(os.path.join(directory, name, p)) for p in ("train.csv", "test.csv")],
                      ignore_index=True)
    assert len(frame) == len(records), (name, len(frame), len(records))
    keep = frame[label].notna().to_numpy()
    frame = frame[keep].reset_index(drop=True)
    records = [r for r, k in zip(records, keep) if k]
    return header[0], records, frame


def folds(y, task):
    for r in range(REPEATS):
        splitter = StratifiedKFold(K, shuffle=True, random_state=r) if task == "c" else KFold(K, shuffle=True, random_state=r)
        for f, (tr, te) in enumerate(splitter.split(np.zeros(len(y)), y)):
            yield f"{r}.{f}", tr, te


def histgb_model(cat, num, task):
    enc = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=np.nan, encoded_missing_value=np.nan)
    cls = HistGradientBoostingClassifier if task == "c" else HistGradientBoostingRegressor
    return make_pipeline(ColumnTransformer([("cat", enc, cat)], remainder="passthrough"),
                         cls(categorical_features=list(range(len(cat))) or None, random_state=0))


def rf_model(cat, num, task):
    cls = RandomForestClassifier if task == "c" else RandomForestRegressor
    onehot = make_pipeline(SimpleImputer(strategy="most_frequent"), OneHotEncoder(handle_unknown="ignore"))
    return make_pipeline(ColumnTransformer([("num", SimpleImputer(strategy="median"), num), ("cat", onehot, cat)]),
                         cls(random_state=0, n_jobs=1))


# --model: the kestrel model, its anchor (the key of its scores in the results, the name in the
# report, the scikit-learn pipeline) and its default results file
MODELS = {
    "gbdt": {"anchor": "histgb", "anchor_name": "HistGB", "anchor_title": "HistGradientBoosting",
             "pipeline": histgb_model, "results": "gbdt_vs_histgb.json"},
    "forest": {"anchor": "rf", "anchor_name": "RF", "anchor_title": "RandomForest (one-hot + imputed)",
               "pipeline": rf_model, "results": "forest_vs_rf.json"},
}


def anchor_score(spec, frame, label, task, tr, te):
    X, y = frame.drop(columns=[label]), frame[label]
    cat = [c for c in X.columns if X[c].dtype == object]
    num = [c for c in X.columns if c not in cat]
    X = X[cat + num]
    model = spec["pipeline"](cat, num, task)
    model.fit(X.iloc[tr], y.iloc[tr])
    p = model.predict(X.iloc[te])
    return float(accuracy_score(y.iloc[te], p) if task == "c" else r2_score(y.iloc[te], p))


def kestrel_score(bindir, model, header, records, label, task, tr, te, params, tmp):
    for part, idx in (("train", tr), ("test", te)):
        with open(os.path.join(tmp, part + ".csv"), "w", newline="") as f:
            f.write(header)
            f.writelines(records[i] for i in idx)
    cmd = [os.path.join(bindir, "kestrel-train"), "-m", model, "--threads", "1", "--quiet",
           os.path.join(tmp, "train.csv"), "--label-col", label, "-o", os.path.join(tmp, "m.json"),
           "--task", "classification" if task == "c" else "regression"]
    for p in params.split():
        cmd += ["-p", p]
    subprocess.run(cmd, check=True)
    out = subprocess.run([os.path.join(bindir, "kestrel-predict"), os.path.join(tmp, "m.json"),
                          os.path.join(tmp, "test.csv"), "--label-col", label, "--metrics", "--json",
                          "-o", os.devnull, "--threads", "1"], check=True, capture_output=True, text=True).stdout
    j = json.loads(out)
    return float(j["accuracy"] if task == "c" else j["r2"])


def summary(a, b=None):
    a = np.asarray(a)
    d = a if b is None else a - np.asarray(b)
    sd = float(np.std(d, ddof=1)) if len(d) > 1 else float("nan")
    return float(np.mean(d)), sd, sd / math.sqrt(len(d))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bindir")
    ap.add_argument("--model", required=True, choices=sorted(MODELS))
    ap.add_argument("--tables", default="", help="comma-separated names (default: all)")
    ap.add_argument("--variant", action="append", default=[],
                    help="NAME=PARAMS: a kestrel variant with -p PARAMS (space-separated); 'defaults' is always run")
    ap.add_argument("--results", default="", help="the per-fold scores (default: bench/tables/<model>_vs_<anchor>.json)")
    ap.add_argument("--report", default="")
    ap.add_argument("--report-only", action="store_true",
                    help="compute nothing: report the cached scores (a variant a table lacks shows as —)")
    args = ap.parse_args()
    spec = MODELS[args.model]
    results_path = args.results or os.path.join(ROOT, "bench", "tables", spec["results"])
    variants = {"defaults": ""}
    for v in args.variant:
        n, _, p = v.partition("=")
        variants[n] = p
    wanted = set(args.tables.split(",")) if args.tables else None
    results = json.load(open(results_path)) if os.path.exists(results_path) else {}
    if not args.report_only:
        run(args.bindir, args.model, spec, variants, wanted, results, results_path)
    if args.report:
        write_report(args.model, spec, results, variants, args.report)


def run(bindir, model, spec, variants, wanted, results, results_path):
    anchor = spec["anchor"]
    with tempfile.TemporaryDirectory() as tmp:
        for name, directory, label, task in TABLES:
            if wanted and name not in wanted:
                continue
            header, records, frame = load(directory, name, label)
            cell = results.setdefault(name, {"task": task, "rows": len(records), "scores": {}})
            scores = cell["scores"]
            for v, params in variants.items():
                if scores.get("params:" + v) != params:     # a variant renamed to new params starts over
                    scores["params:" + v] = params
                    scores["kestrel:" + v] = {}
            for fid, tr, te in folds(frame[label].to_numpy(), task):
                if fid not in scores.setdefault(anchor, {}):
                    scores[anchor][fid] = anchor_score(spec, frame, label, task, tr, te)
                for v, params in variants.items():
                    key = "kestrel:" + v
                    if fid not in scores[key]:
                        scores[key][fid] = kestrel_score(bindir, model, header, records, label, task, tr, te, params, tmp)
                with open(results_path + ".tmp", "w") as f:     # after every fold: an interrupted run keeps them
                    json.dump(results, f, indent=1, sort_keys=True)
                os.replace(results_path + ".tmp", results_path)
            h = list(scores[anchor].values())
            line = [f"{name}: {anchor} {np.mean(h):.4f}"]
            for v in variants:
                k = [scores["kestrel:" + v][fid] for fid in scores[anchor]]
                m, _, se = summary(k, h)
                line.append(f"{v} {np.mean(k):.4f} (diff {m:+.4f} se {se:.4f})")
            print("  ".join(line), flush=True)


def write_report(model, spec, results, variants, path):
    anchor, aname = spec["anchor"], spec["anchor_name"]
    out = io.StringIO()
    out.write(f"# kestrel {model} against {spec['anchor_title']}, repeated cross-validation\n\n"
              "Written by `bench/tables/model_vs_anchor.py --model " + model + "` (its docstring: the folds, the "
              "settings, the standard error); read in docs/benchmarks.md, \"Tables kestrel was not tuned on\". "
              "Per table: mean (sd) over the 20 folds of 5-fold cross-validation repeated 4 times on the train "
              f"and test rows joined, and the paired difference kestrel − {aname} ± its standard error. "
              "Variants: " + "; ".join(f"{v}: {('-p ' + p) if p else 'the defaults'}" for v, p in variants.items())
              + ".\n\n")
    out.write(f"| table | task | rows | {aname} mean (sd) |")
    for v in variants:
        out.write(f" {model} {v} mean (sd) | diff ± se |")
    out.write("\n|---|---|---:|---:|" + "---:|---:|" * len(variants) + "\n")
    for name, _, _, task in TABLES:
        if name not in results:
            continue
        s = results[name]["scores"]
        fids = sorted(s[anchor])
        h = [s[anchor][f] for f in fids]
        out.write(f"| {name} | {'accuracy' if task == 'c' else 'R²'} | {results[name]['rows']} | "
                  f"{np.mean(h):.4f} ({np.std(h, ddof=1):.4f}) |")
        for v in variants:
            cached = s.get("kestrel:" + v, {})
            if s.get("params:" + v) != variants[v] or any(f not in cached for f in fids):
                out.write(" — | — |")
                continue
            k = [cached[f] for f in fids]
            m, _, se = summary(k, h)
            out.write(f" {np.mean(k):.4f} ({np.std(k, ddof=1):.4f}) | {m:+.4f} ± {se:.4f} |")
        out.write("\n")
    with open(path, "w") as f:
        f.write(out.getvalue())


if __name__ == "__main__":
    sys.exit(main())
