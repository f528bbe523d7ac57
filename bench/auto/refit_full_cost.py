#!/usr/bin/python3
"""What kestrel-auto's --refit-full costs in quality and saves in prediction time (issue 49).

On each of repeated_splits.py's train/test splits of a table, kestrel-auto runs twice with the
same flags, seed and --max-evals N (a wall-clock budget far beyond what N evaluations take, so
that nothing depends on the clock): once saving the chosen model's bags (each member the
average of its K fold models, the default) and once with --refit-full (each member refit on
all rows). The search, the leaderboard and the choice are the same in both (checked: the run's
--json minus its timings); only the final fits differ, so the paired difference of the two test
scores is the cost of --refit-full alone, free of the wall clock's noise. Prediction time per
row: kestrel-predict's whole process on the test rows repeated to --predict-rows rows, the
better of two runs, for both files and for kestrel-train -m gbdt's defaults.

Usage: refit_full_cost.py BIN_DIR --tables a,b [--splits 3] [--max-evals 40] [--auto-flags "--ensemble --stack"]
                          [--out FILE] [--note TEXT]
"""
import argparse, json, os, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import auto_bench  # noqa: E402
import repeated_splits as rs  # noqa: E402

TIMING_KEYS = ("time", "wall_seconds", "seconds", "mean_fit_seconds", "fit_seconds", "stopped_by", "elapsed")


def without_timings(doc):
    """The --json document without what the wall clock decides the value of."""
    if isinstance(doc, dict):
        return {k: without_timings(v) for k, v in doc.items() if k not in TIMING_KEYS and "seconds" not in k}
    if isinstance(doc, list):
        return [without_timings(v) for v in doc]
    return doc


def searched(doc):
    """What the search chose, and from what: the same with and without --refit-full."""
    return without_timings({k: doc.get(k) for k in ("leaderboard", "best", "chosen", "ensemble", "stack")})


def auto_run(bin_dir, name, split, out, flags):
    label = auto_bench.TABLES[name][0]
    j = json.loads(auto_bench.run([os.path.join(bin_dir, "kestrel-auto"), os.path.join(split, "train.csv"),
                                   "--label-col", label, "--threads", "2", *flags, "-o", out, "--json"]))
    return j, auto_bench.test_score(bin_dir, out, os.path.join(split, "test.csv"), label)


def fmt(values):
    m, se = rs.mean_se(values)
    return f"{m:+.2f} ± {se:.2f}" if se == se else f"{m:+.2f}"


def markdown(rows, meta):
    lines = ["# kestrel-auto --refit-full: its quality cost and its prediction time (issue 49)", "",
             f"From `bench/auto/refit_full_cost.py` (its docstring says what runs). {meta}", "",
             "Per split: the test score (accuracy; R² for a numeric label) of the bags kestrel-auto saves by default "
             "and of the same choice refit on all rows, and kestrel-predict's time per row for each against kestrel's "
             "default gbdt. `same search` says the two runs' `--json` agreed apart from their timings.", "",
             "| table | split | chosen | bags | refit on all rows | refit − bags (points) | bags µs/row | refit µs/row "
             "| default gbdt µs/row | same search |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append(f"| {r['table']} | {r['split']} | {r['chosen']} | {r['bags']:.4f} | {r['full']:.4f} | "
                     f"{100 * (r['full'] - r['bags']):+.2f} | {1e6 * r['predict']['bags']:.1f} | "
                     f"{1e6 * r['predict']['full']:.1f} | {1e6 * r['predict']['gbdt']:.1f} | "
                     f"{'yes' if r['same_search'] else 'NO'} |")
    lines += ["", "| table | refit − bags, mean ± SE (points) | prediction time, bags / refit |", "|---|---:|---:|"]
    tables = list(dict.fromkeys(r["table"] for r in rows))
    for t in tables:
        rr = [r for r in rows if r["table"] == t]
        ratio = sum(r["predict"]["bags"] for r in rr) / sum(r["predict"]["full"] for r in rr)
        lines.append(f"| {t} | {fmt([100 * (r['full'] - r['bags']) for r in rr])} | {ratio:.1f}x |")
    if rows:
        lines.append(f"| all splits | {fmt([100 * (r['full'] - r['bags']) for r in rows])} | |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin_dir")
    ap.add_argument("--tables", required=True)
    ap.add_argument("--splits", type=int, default=3)
    ap.add_argument("--max-evals", type=int, default=40)
    ap.add_argument("--auto-flags", default="--ensemble --stack")
    ap.add_argument("--predict-rows", type=int, default=20000)
    ap.add_argument("--out", default=os.path.join(HERE, "refit_full_cost.md"))
    ap.add_argument("--note", default="")
    a = ap.parse_args()
    raw = os.path.splitext(a.out)[0] + ".json"
    flags = [*a.auto_flags.split(), "--max-evals", str(a.max_evals), "--time-budget", "3600s"]
    meta = (f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {os.cpu_count()} cores, kestrel-auto "
            f"{' '.join(flags)}, 2 threads, {a.splits} splits per table. {a.note}").strip()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in [t for t in a.tables.split(",") if t]:
            header, recs, y, task = rs.records(name)
            for s in range(1, a.splits + 1):
                split = os.path.join(tmp, f"{name}.{s}")
                rs.write_split(header, recs, y, task, s, split)
                bags_path, full_path = os.path.join(tmp, "bags.json"), os.path.join(tmp, "full.json")
                jb, bags = auto_run(a.bin_dir, name, split, bags_path, flags)
                jf, full = auto_run(a.bin_dir, name, split, full_path, [*flags, "--refit-full"])
                _, gbdt = rs.kestrel_defaults(a.bin_dir, name, split, tmp)
                label = auto_bench.TABLES[name][0]
                big, n = rs.repeated_test_file(split, tmp, a.predict_rows)
                predict = {"rows": n, "bags": rs.predict_seconds_per_row(a.bin_dir, bags_path, big, label, n),
                           "full": rs.predict_seconds_per_row(a.bin_dir, full_path, big, label, n),
                           "gbdt": rs.predict_seconds_per_row(a.bin_dir, gbdt, big, label, n)}
                rows.append({"table": name, "split": s, "chosen": jb.get("chosen"), "evaluations": jb["evaluations"],
                             "bags": bags, "full": full, "predict": predict, "load": os.getloadavg()[0],
                             "same_search": searched(jb) == searched(jf)})
                rs.save_rows(rows, meta, raw, a.out, markdown)


if __name__ == "__main__":
    main()
