#!/usr/bin/python3
"""kestrel-auto against the issue-22 anchors over several train/test splits of each table.

One test split of a few hundred rows cannot separate the differences bench/auto/results.md
shows (one row is 0.05 to 4.5 points there). This script draws more splits: each table's
train.csv and test.csv joined (rows with a missing label dropped), then for split s = 1..S an
80/20 split by scikit-learn's train_test_split(random_state=s, stratified on the label for
classification), written as CSV files of the table's own lines (bench/tables/model_vs_anchor.py's
raw_rows). On each split it runs what auto_bench.py runs: kestrel-auto --time-budget BUDGET
--threads 2 and --auto-flags (default --ensemble; the saved model's test score, and the single
winner's), and the three scikit-learn anchors (HistGB defaults, RF defaults on one-hot,
GridSearchCV-tuned logistic / ridge pipeline); then issue 49's further bars:
- a fourth anchor, scikit-learn's StackingClassifier / StackingRegressor over the three (final
  estimator LogisticRegression / RidgeCV, cv=5);
- kestrel's single defaults, untuned: kestrel-train -m gbdt, -m forest and -m logistic (ridge
  for a numeric label) --scale standard, each scored by kestrel-predict on the test rows;
- the prediction time per row of the saved model against the default gbdt's: kestrel-predict's
  whole process on the test rows repeated to at least --predict-rows rows (the better of two runs).
The report gives, per table, the mean over the splits of each score and the paired differences
saved - best anchor (the best of the three on that split), saved - stacked and saved - best
default (the best of kestrel's three on that split), each with its standard error.

Usage: repeated_splits.py BIN_DIR [--tables a,b] [--splits 3] [--budget 60s] [--auto-flags "--ensemble"]
                          [--predict-rows 20000] [--out FILE] [--note TEXT]
       repeated_splits.py BIN_DIR --render [--note TEXT]   (rewrite the report from its .json)
"""
import argparse, json, os, statistics, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tables"))
import auto_bench  # noqa: E402
from model_vs_anchor import raw_rows  # noqa: E402


def records(name):
    """The table's header line and the records (raw text) with their labels, missing labels dropped."""
    import pandas as pd
    label, task, d = auto_bench.TABLES[name]
    header, recs, frames = None, [], []
    for part in ("train.csv", "test.csv"):
        h, r = raw_rows(os.path.join(d, name, part))
        assert header is None or header == h, name
        header = h
        recs += r
        frames.append(pd.read_csv(os.path.join(d, name, part)))
    frame = pd.concat(frames, ignore_index=True)
    assert len(frame) == len(recs), (name, len(frame), len(recs))
    keep = frame[label].notna().to_numpy()
    return header, [r for r, k in zip(recs, keep) if k], frame[label][keep].to_numpy(), task


def write_split(header, recs, y, task, seed, directory):
    import numpy as np
    from sklearn.model_selection import train_test_split
    idx = np.arange(len(recs))
    tr, te = train_test_split(idx, test_size=0.2, random_state=seed, stratify=y if task == "c" else None)
    os.makedirs(directory, exist_ok=True)
    for part, rows in (("train.csv", tr), ("test.csv", te)):
        with open(os.path.join(directory, part), "w", newline="") as f:
            f.write(header)
            f.writelines(recs[i] for i in sorted(rows))


def kestrel_defaults(bin_dir, name, split, tmp):
    """kestrel-train's defaults on the split's train.csv, scored on its test.csv:
    {"gbdt", "forest", "linear": test score}, and the gbdt model's path (the prediction-time bar)."""
    label, task, _ = auto_bench.TABLES[name]
    train, test = os.path.join(split, "train.csv"), os.path.join(split, "test.csv")
    linear = ["-m", "logistic" if task == "c" else "ridge", "--scale", "standard"]
    scores, paths = {}, {}
    for key, model in (("gbdt", ["-m", "gbdt"]), ("forest", ["-m", "forest"]), ("linear", linear)):
        paths[key] = os.path.join(tmp, f"default_{key}.json")
        auto_bench.run([os.path.join(bin_dir, "kestrel-train"), *model, train, "--label-col", label, "--threads", "2",
                        "-o", paths[key], "-q"])
        scores[key] = auto_bench.test_score(bin_dir, paths[key], test, label)
    return scores, paths["gbdt"]


def predict_seconds_per_row(bin_dir, model, big, label, rows):
    """kestrel-predict's whole process on `big` (rows rows), the better of two runs, per row."""
    best = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        auto_bench.run([os.path.join(bin_dir, "kestrel-predict"), model, big, "--label-col", label, "--threads", "2",
                        "-o", os.devnull])
        best = min(best, time.perf_counter() - start)
    return best / rows


def repeated_test_file(split, tmp, at_least):
    """The split's test rows repeated to at least `at_least` rows: (path, rows)."""
    header, recs = raw_rows(os.path.join(split, "test.csv"))
    copies = max(1, -(-at_least // max(1, len(recs))))
    path = os.path.join(tmp, "predict_rows.csv")
    with open(path, "w", newline="") as f:
        f.write(header)
        for _ in range(copies):
            f.writelines(recs)
    return path, copies * len(recs)


def prediction_times(bin_dir, name, split, tmp, saved, gbdt, at_least):
    """Seconds per row of the saved model and of the default gbdt, on the same repeated rows."""
    label = auto_bench.TABLES[name][0]
    big, rows = repeated_test_file(split, tmp, at_least)
    return {"rows": rows, "saved": predict_seconds_per_row(bin_dir, saved, big, label, rows),
            "gbdt": predict_seconds_per_row(bin_dir, gbdt, big, label, rows)}


def mean_se(values):
    m = statistics.mean(values)
    return m, (statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else float("nan"))


ANCHORS = ("HistGB", "RF", "linear")


def by_table(rows):
    """The rows of each table, in the order the tables first appear."""
    return {name: [r for r in rows if r["table"] == name] for name in dict.fromkeys(r["table"] for r in rows)}


def fmt_diff(values):
    if not values:
        return "—"
    m, se = mean_se(values)
    return f"{m:+.2f} ± {se:.2f}"


def against_markdown(rows):
    """Issue 49's bars: the stacked anchor, kestrel's best default, the prediction time per row.
    Rows from runs before these bars (no "stacked", "defaults" or "predict") show a dash."""
    lines = ["", "## Against the stacked anchor and kestrel's own defaults (issue 49)", "",
             "`stacked` is scikit-learn's StackingClassifier / StackingRegressor over the three anchors (final "
             "estimator LogisticRegression / RidgeCV, cv=5); `gbdt`, `forest`, `linear` are `kestrel-train -m gbdt`, "
             "`-m forest`, `-m logistic|ridge --scale standard` with their defaults, `best default` the best of the "
             "three on each split (by test score, as `best anchor`). `-o − stacked` and `-o − best default` are "
             "paired differences in points ± their standard error. Prediction times are `kestrel-predict`'s whole "
             "process (reading, predicting, writing) on the test rows repeated to `rows`, per row, the better of two "
             "runs: `-o` the saved model, `gbdt` the default gbdt; `×` their ratio.", "",
             "| table | stacked | -o − stacked (points) | gbdt | forest | linear | best default | -o − best default (points) | rows | -o µs/row | gbdt µs/row | × |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, rs in by_table(rows).items():
        st = [r for r in rs if "stacked" in r["anchors"]]
        df = [r for r in rs if "defaults" in r]
        pt = [r for r in rs if "predict" in r]
        cell = lambda xs, f: f"{statistics.mean(f(r) for r in xs):.4f}" if xs else "—"  # noqa: E731
        best_default = lambda r: max(r["defaults"].values())  # noqa: E731
        micro = lambda key: f"{statistics.mean(1e6 * r['predict'][key] for r in pt):.1f}" if pt else "—"  # noqa: E731
        ratio = f"{statistics.mean(r['predict']['saved'] / r['predict']['gbdt'] for r in pt):.1f}" if pt else "—"
        lines.append(
            f"| {name} | {cell(st, lambda r: r['anchors']['stacked'][0])} | "
            f"{fmt_diff([100 * (r['auto']['saved'] - r['anchors']['stacked'][0]) for r in st])} | "
            f"{cell(df, lambda r: r['defaults']['gbdt'])} | {cell(df, lambda r: r['defaults']['forest'])} | "
            f"{cell(df, lambda r: r['defaults']['linear'])} | {cell(df, best_default)} | "
            f"{fmt_diff([100 * (r['auto']['saved'] - best_default(r)) for r in df])} | "
            f"{pt[0]['predict']['rows'] if pt else '—'} | {micro('saved')} | {micro('gbdt')} | {ratio} |")
    return lines


def markdown(rows, meta):
    lines = ["# kestrel-auto against the anchors over repeated train/test splits (issue 22)", "",
             "From `bench/auto/repeated_splits.py` (its docstring says what runs). " + meta, "",
             "Means over the splits of the test scores (accuracy; R² for a numeric label). `auto -o` is what "
             "kestrel-auto saved (the ensemble when kept), `auto` the single winner refit; `best anchor` the best of "
             "the three anchors on each split (picked by its test score, an oracle no one method is), `strongest` the "
             "anchor whose mean over the splits is best (one method, as a user would pick it). `-o − best` and "
             "`-o − strongest` are paired differences on the same splits, in points, ± their standard error; `kept` "
             "counts the splits whose ensemble was kept.", "",
             "| table | splits | auto -o | auto | HistGB | RF | tuned linear | best anchor | -o − best (points) | auto − best (points) | strongest | -o − strongest (points) | kept | evals (mean) | auto s (mean) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, rs in by_table(rows).items():
        best = [max(r["anchors"][k][0] for k in ANCHORS) for r in rs]
        saved = [r["auto"]["saved"] for r in rs]
        single = [r["auto"]["single"] for r in rs]
        d_saved = mean_se([100 * (s - b) for s, b in zip(saved, best)])
        d_single = mean_se([100 * (s - b) for s, b in zip(single, best)])
        anchor = {k: statistics.mean(r["anchors"][k][0] for r in rs) for k in ("HistGB", "RF", "linear")}
        strongest = max(anchor, key=anchor.get)
        d_strongest = mean_se([100 * (s - r["anchors"][strongest][0]) for s, r in zip(saved, rs)])
        lines.append(
            f"| {name} | {len(rs)} | {statistics.mean(saved):.4f} | {statistics.mean(single):.4f} | "
            f"{anchor['HistGB']:.4f} | {anchor['RF']:.4f} | {anchor['linear']:.4f} | {statistics.mean(best):.4f} | "
            f"{d_saved[0]:+.2f} ± {d_saved[1]:.2f} | {d_single[0]:+.2f} ± {d_single[1]:.2f} | "
            f"{strongest} | {d_strongest[0]:+.2f} ± {d_strongest[1]:.2f} | "
            f"{sum(r['auto']['ensemble_kept'] for r in rs)} | {statistics.mean(r['auto']['evaluations'] for r in rs):.0f} | "
            f"{statistics.mean(r['auto']['wall'] for r in rs):.1f} |")
    return "\n".join(lines + against_markdown(rows)) + "\n"


def save_rows(rows, meta, raw, out, render):
    """Prints the newest row, then rewrites the raw rows (.json) and their report (render(rows, meta))."""
    print(json.dumps(rows[-1]), flush=True)
    with open(raw, "w") as fh:
        json.dump({"meta": meta, "rows": rows}, fh, indent=1)
    with open(out, "w") as fh:
        fh.write(render(rows, meta))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin_dir")
    ap.add_argument("--tables", default=",".join(auto_bench.SEEN))
    ap.add_argument("--splits", type=int, default=3)
    ap.add_argument("--budget", default="60s")
    ap.add_argument("--auto-flags", default="--ensemble", help="kestrel-auto's flags (say --ensemble --stack)")
    ap.add_argument("--predict-rows", type=int, default=20000, help="rows the prediction times are taken on")
    ap.add_argument("--out", default=os.path.join(HERE, "repeated_splits.md"))
    ap.add_argument("--note", default="", help="a sentence for the report (the machine's load, the commit)")
    ap.add_argument("--render", action="store_true", help="only rewrite --out from the raw rows beside it (.json)")
    a = ap.parse_args()
    raw = os.path.splitext(a.out)[0] + ".json"
    if a.render:
        with open(raw) as fh:
            doc = json.load(fh)
        meta = (doc["meta"] + " " + a.note).strip()
        with open(raw, "w") as fh:
            json.dump({"meta": meta, "rows": doc["rows"]}, fh, indent=1)
        with open(a.out, "w") as fh:
            fh.write(markdown(doc["rows"], meta))
        return
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    import sklearn
    meta = (f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {os.cpu_count()} cores, scikit-learn "
            f"{sklearn.__version__}, budget {a.budget}, kestrel-auto {a.auto_flags}, {a.splits} splits per table, "
            f"2 threads each. {a.note}").strip()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in [t for t in a.tables.split(",") if t]:
            header, recs, y, task = records(name)
            for s in range(1, a.splits + 1):
                split = os.path.join(tmp, f"{name}.{s}")
                write_split(header, recs, y, task, s, split)
                load = os.getloadavg()[0]
                try:
                    k = auto_bench.kestrel_auto(a.bin_dir, name, a.budget, tmp, split, a.auto_flags.split())
                    defaults, gbdt = kestrel_defaults(a.bin_dir, name, split, tmp)
                    times = prediction_times(a.bin_dir, name, split, tmp, os.path.join(tmp, "auto.json"), gbdt,
                                             a.predict_rows)
                    rows.append({"table": name, "split": s, "auto": k, "defaults": defaults, "predict": times,
                                 "anchors": auto_bench.anchors(name, split, stacked=True), "load": load})
                except Exception as e:  # reported; the other splits still run
                    print(f"{name} split {s}: {e}", file=sys.stderr)
                    continue
                save_rows(rows, meta, raw, a.out, markdown)


if __name__ == "__main__":
    main()
