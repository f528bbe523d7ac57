#!/usr/bin/python3
"""kestrel-auto against the issue-22 anchors on raw tables (bench/auto/results.md).

For each table (data/tables/NAME and the Debian tables of bench/tables/make_debian_tables.sh
under bench/data/tables/NAME, the same lists as bench/tables/), on the table's train.csv:
- kestrel-auto --time-budget 60s --threads 2 --ensemble --report: the whole command's wall time
  (read, search, refit, write); the test score of the single best candidate (refit by the
  report's kestrel-train line) and of what -o saved (the ensemble when kept, else the same model);
- scikit-learn 1.2 anchors, fit on the same train.csv with 2 threads, fit wall time:
  HistGradientBoosting defaults (categorical_features on OrdinalEncoder codes, native NaN),
  RandomForest defaults on a median / most-frequent SimpleImputer + OneHotEncoder, and a tuned
  LogisticRegression / Ridge pipeline (OneHotEncoder + SimpleImputer + StandardScaler, C or
  alpha over 10^-4..10^4, 9 values, chosen by 5-fold GridSearchCV).
Scores on test.csv: accuracy, or R^2 for a numeric label (kestrel-auto's default metrics).
The table is rewritten after every row, so a run cut short keeps the rows it finished.

Usage: auto_bench.py BIN_DIR [--tables a,b] [--budget 60s] [--curve TABLE,TABLE] [--auto-flags "--ensemble"]
                       [--out FILE] [--note TEXT]
"""
import argparse, json, os, subprocess, sys, tempfile, time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED = os.path.join(ROOT, "data", "tables")
DEBIAN = os.path.join(ROOT, "bench", "data", "tables")
# name -> (label, task, directory); the Debian ones as make_debian_tables.sh names them.
TABLES = {
    "penguins": ("species", "c", SHARED), "credit_data": ("Status", "c", SHARED), "ames": ("Sale_Price", "r", SHARED),
    "attrition": ("Attrition", "c", DEBIAN), "mlc_churn": ("churn", "c", DEBIAN), "wa_churn": ("churn", "c", DEBIAN),
    "lending_club": ("Class", "c", DEBIAN), "hpc_data": ("class", "c", DEBIAN), "Sacramento": ("price", "r", DEBIAN),
    "stackoverflow": ("Remote", "c", DEBIAN), "scat": ("Species", "c", DEBIAN),
}
# The tables of bench/tables/make_unseen_tables.sh, kept from every run until the last check
# (docs/auto.md, "Unseen tables"): named with --tables only, never in the default list.
UNSEEN = os.path.join(ROOT, "bench", "data", "unseen")
SEEN = list(TABLES)
TABLES.update({
    "Soybean": ("Class", "c", UNSEEN), "HouseVotes84": ("Class", "c", UNSEEN),
    "PimaIndiansDiabetes2": ("diabetes", "c", UNSEEN), "BreastCancer": ("Class", "c", UNSEEN),
    "Ozone": ("V4", "r", UNSEEN), "TitanicSurvival": ("survived", "c", UNSEEN), "SLID": ("wages", "r", UNSEEN),
    "Chile": ("vote", "c", UNSEEN), "concrete": ("compressive_strength", "r", UNSEEN),
})
# The second held-back set (bench/tables/make_fresh_tables.sh), for the next final check; the
# unseen set above was read once and is seen now. Named with --tables only.
FRESH = os.path.join(ROOT, "bench", "data", "fresh")
TABLES.update({
    "Glass": ("Type", "c", FRESH), "Vehicle": ("Class", "c", FRESH), "Sonar": ("Class", "c", FRESH),
    "Ionosphere": ("Class", "c", FRESH), "Servo": ("Class", "r", FRESH), "Wells": ("switch", "c", FRESH),
    "Mroz": ("lfp", "c", FRESH), "Salaries": ("salary", "r", FRESH), "car_prices": ("Price", "r", FRESH),
})


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(" ".join(cmd) + ": " + r.stderr.strip())
    return r.stdout


def test_score(bin_dir, model, test, label):
    j = json.loads(run([os.path.join(bin_dir, "kestrel-predict"), model, test, "--label-col", label, "--metrics", "--json",
                        "-o", os.devnull]))
    return j.get("accuracy", j.get("r2"))


def kestrel_auto(bin_dir, name, budget, tmp, table_dir=None, flags=("--ensemble",)):
    """table_dir: where NAME's train.csv and test.csv are (default: the table's own split);
    flags: kestrel-auto's flags beyond the budget, the threads and the outputs."""
    label, task, d = TABLES[name]
    split = table_dir or os.path.join(d, name)
    train, test = os.path.join(split, "train.csv"), os.path.join(split, "test.csv")
    out, report = os.path.join(tmp, "auto.json"), os.path.join(tmp, "report.md")
    start = time.perf_counter()
    j = json.loads(run([os.path.join(bin_dir, "kestrel-auto"), train, "--label-col", label, "--time-budget", budget,
                        "--threads", "2", *flags, "-o", out, "--report", report, "--json"]))
    wall = time.perf_counter() - start
    best = j["best"]
    single = out
    if j.get("chosen", "ensemble" if j.get("ensemble", {}).get("kept") else "single") != "single":
        # The single winner as the report's kestrel-train line makes it (same parameters, seed 1).
        single = os.path.join(tmp, "single.json")
        cmd = [os.path.join(bin_dir, "kestrel-train"), "-m", best["model"], train, "--label-col", label,
               "--task", j["task"], "-o", single, "-q"]
        # The refit's parameters (an early-stopped gbdt: its folds' mean rounds, no hold-out).
        for k, v in best.get("refit_params", best["params"]).items():
            cmd += ["--scale", v] if k == "scale" else ["-p", f"{k}={v}"]
        run(cmd)
    e = j.get("ensemble", {})
    return {
        "wall": wall, "evaluations": j["evaluations"], "stopped_by": j["stopped_by"],
        "confirmed": j.get("confirmed", 0), "best": best["model"], "cv": best["mean"],
        "single": test_score(bin_dir, single, test, label), "saved": test_score(bin_dir, out, test, label),
        "ensemble_kept": bool(e.get("kept")), "ensemble_cv": e.get("mean"),
        "ensemble_members": len(e.get("members", [])), "chosen": j.get("chosen"),
        "stack_kept": bool(j.get("stack", {}).get("kept")), "time": j.get("time"),
    }


def anchors(name, table_dir=None, stacked=False):
    """The three scikit-learn anchors: {name: (test score, fit seconds)}; table_dir as kestrel_auto's.
    stacked: a fourth, "stacked", scikit-learn's StackingClassifier / StackingRegressor over the
    three (final estimator LogisticRegression / RidgeCV, cv=5)."""
    import numpy as np, pandas as pd
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import make_pipeline
    from sklearn.impute import SimpleImputer
    from sklearn.preprocessing import OneHotEncoder, StandardScaler, OrdinalEncoder
    from sklearn.ensemble import (HistGradientBoostingClassifier, HistGradientBoostingRegressor,
                                  RandomForestClassifier, RandomForestRegressor)
    from sklearn.ensemble import StackingClassifier, StackingRegressor
    from sklearn.linear_model import LogisticRegression, Ridge, RidgeCV
    from sklearn.model_selection import GridSearchCV
    from sklearn.metrics import accuracy_score, r2_score
    label, task, d = TABLES[name]
    split = table_dir or os.path.join(d, name)
    tr = pd.read_csv(os.path.join(split, "train.csv")).dropna(subset=[label])
    te = pd.read_csv(os.path.join(split, "test.csv")).dropna(subset=[label])
    X, y, Xt, yt = tr.drop(columns=[label]), tr[label], te.drop(columns=[label]), te[label]
    cat = [c for c in X.columns if X[c].dtype == object]
    num = [c for c in X.columns if c not in cat]
    cls = task == "c"

    def onehot(scale):
        return ColumnTransformer([
            ("num", make_pipeline(SimpleImputer(strategy="median"), *([StandardScaler()] if scale else [])), num),
            ("cat", make_pipeline(SimpleImputer(strategy="most_frequent"), OneHotEncoder(handle_unknown="ignore")), cat)])

    grid = np.logspace(-4, 4, 9)
    models = {
        "HistGB": make_pipeline(
            ColumnTransformer([("cat", OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=np.nan,
                                                      encoded_missing_value=np.nan), cat)], remainder="passthrough"),
            (HistGradientBoostingClassifier if cls else HistGradientBoostingRegressor)(
                categorical_features=list(range(len(cat))), random_state=0)),
        "RF": make_pipeline(onehot(False), (RandomForestClassifier if cls else RandomForestRegressor)(n_jobs=2, random_state=0)),
        "linear": GridSearchCV(
            make_pipeline(onehot(True), LogisticRegression(max_iter=1000) if cls else Ridge()),
            {("logisticregression__C" if cls else "ridge__alpha"): grid}, cv=5, n_jobs=2),
    }
    if stacked:
        from sklearn.base import clone
        base = [(k, clone(m)) for k, m in models.items()]
        models["stacked"] = (StackingClassifier(base, final_estimator=LogisticRegression(max_iter=1000), cv=5)
                             if cls else StackingRegressor(base, final_estimator=RidgeCV(), cv=5))
    out = {}
    for k, m in models.items():
        s = time.perf_counter()
        m.fit(X, y)
        fit = time.perf_counter() - s
        p = m.predict(Xt)
        out[k] = (accuracy_score(yt, p) if cls else r2_score(yt, p), fit)
    return out


def markdown(rows, curve, meta):
    lines = ["# kestrel-auto against the scikit-learn anchors (issue 22)", "",
             "From `bench/auto/auto_bench.py` (its docstring says what runs). " + meta, "",
             "Test scores (accuracy; R² for a numeric label); `auto` is the single best candidate refit, "
             "`auto -o` what kestrel-auto saved (the ensemble when kept, `ens` the members it kept); times are wall "
             "seconds: kestrel-auto's whole command (reading, search, ensemble selection, refits of the winner and the "
             "ensemble's members, which the budget does not count) against each anchor's fit; load is the 1-minute load "
             "average before the row. The two `≥ best anchor` columns compare with the best of the three anchors' "
             "test scores.", "",
             "| table | auto | auto -o | HistGB | RF | tuned linear | auto ≥ best anchor | auto -o ≥ best anchor | auto s | HistGB s | RF s | linear s | evals | best family | load |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    if not rows:  # a curve-only run (--tables ''): no table of anchors
        lines = ["# kestrel-auto's budget curve (issue 22)", "", lines[2]]
    for r in rows:
        a = r["anchors"]
        best_anchor = max(v[0] for v in a.values())
        k = r["auto"]
        saved = f"{k['saved']:.4f}" + (f" (ens {k['ensemble_members']})" if k["ensemble_kept"] else "")
        lines.append(f"| {r['table']} | {k['single']:.4f} | {saved} | {a['HistGB'][0]:.4f} | {a['RF'][0]:.4f} | "
                     f"{a['linear'][0]:.4f} | {'yes' if k['single'] >= best_anchor else 'no'} | "
                     f"{'yes' if k['saved'] >= best_anchor else 'no'} | "
                     f"{k['wall']:.1f} | {a['HistGB'][1]:.2f} | {a['RF'][1]:.2f} | {a['linear'][1]:.2f} | "
                     f"{k['evaluations']} | {k['best']} | {r['load']:.1f} |")
    if curve:
        lines += ["", "## Budget curve", "", "kestrel-auto at three `--time-budget`s (`--threads 2` and `--auto-flags`, as "
                  "above), on the table's train.csv; test scores on its test.csv.", "",
                  "| table | budget | test score (auto -o) | single best | cv mean | evaluations | wall s | load |",
                  "|---|---|---|---|---|---|---|---|"]
        for c in curve:
            k = c["auto"]
            lines.append(f"| {c['table']} | {c['budget']} | {k['saved']:.4f} | {k['single']:.4f} | {k['cv']:.4f} | "
                         f"{k['evaluations']} | {k['wall']:.1f} | {c['load']:.1f} |")
    return "\n".join(lines) + "\n"


def save(out, raw, rows, curve, meta):
    """The report and, beside it, the raw rows it is made from (--render remakes the report)."""
    with open(raw, "w") as fh:
        json.dump({"meta": meta, "rows": rows, "curve": curve}, fh, indent=1)
    with open(out, "w") as fh:
        fh.write(markdown(rows, curve, meta))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin_dir")
    ap.add_argument("--tables", default=",".join(SEEN))
    ap.add_argument("--budget", default="60s")
    ap.add_argument("--curve", default="credit_data,ames")
    ap.add_argument("--curve-budgets", default="10s,60s,300s")
    ap.add_argument("--auto-flags", default="--ensemble", help="kestrel-auto's flags beyond the budget and outputs")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "auto", "results.md"))
    ap.add_argument("--note", default="", help="a sentence for the report (which tables were seen before the run)")
    ap.add_argument("--render", action="store_true", help="only rewrite --out from the raw rows beside it (.json)")
    a = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    raw = os.path.splitext(a.out)[0] + ".json"
    if a.render:
        with open(raw) as fh:
            doc = json.load(fh)
        with open(a.out, "w") as fh:
            fh.write(markdown(doc["rows"], doc["curve"], doc["meta"]))
        return
    import sklearn
    meta = (f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {os.cpu_count()} cores, scikit-learn "
            f"{sklearn.__version__}, budget {a.budget}, `--auto-flags \"{a.auto_flags}\"`, 2 threads each. {a.note}").strip()
    rows, curve = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for name in [t for t in a.tables.split(",") if t]:
            load = os.getloadavg()[0]
            try:
                k = kestrel_auto(a.bin_dir, name, a.budget, tmp, flags=a.auto_flags.split())
                rows.append({"table": name, "auto": k, "anchors": anchors(name), "load": load})
            except Exception as e:  # a table that fails is reported, the others still run
                print(f"{name}: {e}", file=sys.stderr)
                continue
            print(json.dumps(rows[-1]), flush=True)
            save(a.out, raw, rows, curve, meta)
        for name in [t for t in a.curve.split(",") if t]:
            for budget in a.curve_budgets.split(","):
                load = os.getloadavg()[0]
                prior = next((r for r in rows if r["table"] == name), None) if budget == a.budget else None
                k = prior["auto"] if prior else kestrel_auto(a.bin_dir, name, budget, tmp, flags=a.auto_flags.split())
                curve.append({"table": name, "budget": budget, "auto": k, "load": prior["load"] if prior else load})
                print(json.dumps(curve[-1]), flush=True)
                save(a.out, raw, rows, curve, meta)


if __name__ == "__main__":
    main()
