#!/usr/bin/python3
"""Every registered model through every command on the shared raw tables (issue 17's "done
when": train, predict with --metrics, cross-validate, grid-search and select with every model,
no hand encoding). Not a timing bench: it records whether each command succeeds on the table as
exported and the score it reports.

    /usr/bin/python3 bench/tables/every_model.py BUILD_DIR [--tables DIR] [--report FILE]

Per table (penguins: species; credit_data: Status; ames: Sale_Price) and per model of the
table's task (kestrel-train --list-models; one_class takes the classification tables, its
labels ignored), with `--scale standard` and the default `--missing auto`:
  train     kestrel-train on train.csv
  predict   kestrel-predict --metrics on test.csv (accuracy, or R² for ames)
  cv        kestrel-cv -k 3 (mean accuracy / R²)
  search    kestrel-gridsearch -k 3 --n-iter 3 over the model's declared search space, or the
            two-point grid below for a model that declares none (kestrel-gridsearch asks for -g)
  select    kestrel-select --method permutation of the trained model on test.csv
one_class ignores labels: it is trained and predicts; cv, search and select refuse it (exit 1, as
documented), which the table shows as "refused".
A cell is the score, "ok" when the command has none, or the exit code and the first error line.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

TABLES = [("penguins", "species", "classification"), ("credit_data", "Status", "classification"),
          ("ames", "Sale_Price", "regression")]
CLASSIFIERS_ONLY = {"svc", "nu_svc", "logistic", "perceptron", "kernel_perceptron", "kernel_logistic", "lp_svm",
                    "linear_svm", "one_class", "adaboost"}
# For the models without a declared search space (docs/auto.md): one axis, two points.
GRIDS = {"adaboost": "n_estimators=25,50", "kernel_logistic": "C=0.1,1", "kernel_perceptron": "max_iter=5,10",
         "lp_svm": "C=0.1,1", "nu_svc": "nu=0.2,0.5", "nu_svr": "nu=0.2,0.5", "perceptron": "eta=0.1,1",
         "huber": "alpha=0.0001,0.01", "lad": "fit_intercept=0,1", "quantile": "alpha=0.1,1",
         "lasso": "lambda_min_ratio=0.001,0.01", "elastic_net": "l1_ratio=0.2,0.8", "kernel_ridge": "alpha=0.1,1",
         "linear_svr": "C=0.1,1"}
REGRESSORS_ONLY = {"svr", "nu_svr", "ridge", "lasso", "elastic_net", "least_squares", "huber", "lad", "quantile",
                   "kernel_ridge", "linear_svr"}


def run(cmd, timeout=900):
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return p, time.time() - t0


def first_error(p):
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    return f"exit {p.returncode}: {lines[0][:120] if lines else ''}"


def score_of(js, task):
    key = "accuracy" if task == "classification" else "r2"
    v = js
    for k in ("metrics",):
        v = v.get(k, v)
    v = v.get(key, v)
    if isinstance(v, dict):
        v = v.get("mean", v)
    return f"{v:.4f}" if isinstance(v, (int, float)) else "ok"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--tables", default=os.path.join(os.path.dirname(__file__), "..", "..", "data", "tables"))
    ap.add_argument("--report")
    args = ap.parse_args()
    apps = os.path.join(args.build, "apps")
    exe = lambda n: os.path.join(apps, "kestrel-" + n)
    models = [l.split()[0] for l in subprocess.run([exe("train"), "--list-models"], capture_output=True,
                                                   text=True).stdout.splitlines() if l.strip()]
    rows, failures, started = [], 0, time.time()
    with tempfile.TemporaryDirectory() as tmp:
        for table, label, task in TABLES:
            train = os.path.join(args.tables, table, "train.csv")
            test = os.path.join(args.tables, table, "test.csv")
            for m in models:
                if (task == "classification" and m in REGRESSORS_ONLY) or (task == "regression" and m in CLASSIFIERS_ONLY):
                    continue
                common = ["--label-col", label, "--scale", "standard", "-q"]
                model = os.path.join(tmp, f"{table}-{m}.json")
                cells, seconds = [], 0.0
                p, dt = run([exe("train"), "-m", m, train, "-o", model] + common)
                seconds += dt
                cells.append("ok" if p.returncode == 0 else first_error(p))
                if p.returncode == 0:
                    metrics = [] if m == "one_class" else ["--label-col", label, "--metrics", "--json"]
                    p, dt = run([exe("predict"), model, test, "-q", "-o", os.path.join(tmp, "p.csv")] + metrics)
                    seconds += dt
                    if p.returncode != 0:
                        cells.append(first_error(p))
                    else:
                        cells.append(score_of(json.loads(p.stdout), task) if metrics else "ok (no labels)")
                    p, dt = run([exe("select"), "--method", "permutation", "-m", model, "--heldout", test,
                                 "--label-col", label, "--repeats", "2", "--json", "-q"])
                    seconds += dt
                    select = "ok" if p.returncode == 0 else first_error(p)
                else:
                    cells.append("—")
                    select = "—"
                if m == "one_class":
                    cells += ["refused"] * 3
                    rows.append((table, m, cells[:2] + ["refused", "refused", "refused"], seconds))
                    print(f"{table:12} {m:18} " + " | ".join(rows[-1][2]), flush=True)
                    continue
                p, dt = run([exe("cv"), "-m", m, train, "-k", "3", "--json"] + common)
                seconds += dt
                cells.append(score_of(json.loads(p.stdout), task) if p.returncode == 0 else first_error(p))
                axes = ["-g", GRIDS[m]] if m in GRIDS else ["--n-iter", "3"]
                p, dt = run([exe("gridsearch"), "-m", m, train, "-k", "3", "--json",
                             "-o", os.path.join(tmp, "best.json")] + axes + common)
                seconds += dt
                if p.returncode == 0:
                    js = json.loads(p.stdout)
                    best = js.get("best", {}).get("mean")
                    cells.append(f"{best:.4f}" if isinstance(best, (int, float)) else "ok")
                else:
                    cells.append(first_error(p))
                cells.append(select)
                failures += sum(1 for c in cells if c.startswith("exit"))
                rows.append((table, m, cells, seconds))
                print(f"{table:12} {m:18} " + " | ".join(cells) + f"  ({seconds:.1f} s)", flush=True)
    head = ("| table | model | train | predict (test) | cv -k 3 | gridsearch -k 3 (--n-iter 3, or a two-point -g) | select (permutation) | s |\n"
            "|---|---|---|---|---|---|---|---|\n")
    body = "".join(f"| {t} | {m} | " + " | ".join(c) + f" | {s:.1f} |\n" for t, m, c, s in rows)
    text = (f"# Every model, every command, the raw tables\n\n`bench/tables/every_model.py` "
            f"({time.strftime('%Y-%m-%d')}): {len(rows)} model x table pairs, {failures} failed commands, "
            f"{time.time() - started:.0f} s. Scores: accuracy (penguins, credit_data) or R² (ames); "
            f"cv and gridsearch give the mean over the folds (gridsearch: the best point).\n\n" + head + body)
    if args.report:
        with open(args.report, "w") as fh:
            fh.write(text)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
