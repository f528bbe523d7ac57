#!/usr/bin/python3
"""Learning to rank: kestrel-train -m gbdt -p loss=lambdarank against XGBoost 1.7's rank:ndcg
(tree_method hist), same rows, same settings: 100 rounds, eta 0.1, max_depth 6, lambda 1,
min_child_weight 1, 255 bins, 2 threads. Test NDCG@10 (XGBoost's formula: exponential gain,
a query without a relevant document counts 1) and train wall time, each tool timed as a
separate process (read the file, fit, write the model), median of 3 runs.

The data (seeded, written as SVMrank LIBSVM files `grade qid:Q 1:x ...`):
  QUERIES training and 1000 test queries of 10-100 documents (uniform), 30 normal features;
  a hidden score u = x1 + 0.8 x2 x3 - 0.6 |x4| + 0.5 sin(2 x5) + 0.4 x6 x7 + 0.3 x8 + N(0, 0.5^2),
  and the grade (0-4) the count of the query's thresholds [q + 0.3, q + 0.9, q + 1.5, q + 2.1]
  below u, q ~ N(0, 0.3^2) a per-query offset. Features 9-30 are noise.

Prediction is timed the same way on the test file (each tool's whole predict process).

    /usr/bin/python3 bench/quality/gbdt_ranking.py BUILD_DIR [QUERIES] [-p NAME=VALUE ...] [--report FILE]

QUERIES defaults to 1000. --report bench/quality/gbdt_ranking.md writes the report that
bench/RESULTS.md includes.
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

import numpy as np

ROUNDS, ETA, DEPTH, THREADS, D = 100, 0.1, 6, 2, 30


def make(rng, queries, first_qid):
    lines, groups = [], []
    for q in range(queries):
        m = int(rng.integers(10, 101))
        X = rng.normal(size=(m, D))
        u = (X[:, 0] + 0.8 * X[:, 1] * X[:, 2] - 0.6 * np.abs(X[:, 3]) + 0.5 * np.sin(2 * X[:, 4])
             + 0.4 * X[:, 5] * X[:, 6] + 0.3 * X[:, 7] + rng.normal(scale=0.5, size=m))
        offset = rng.normal(scale=0.3)
        y = (u[:, None] > offset + np.array([0.3, 0.9, 1.5, 2.1])[None, :]).sum(axis=1)
        for i in range(m):
            lines.append(f"{y[i]} qid:{first_qid + q} " + " ".join(f"{j + 1}:{X[i, j]:.4f}" for j in range(D)))
        groups.append(m)
    return "\n".join(lines) + "\n", groups


def ndcg_at(scores, grades, groups, k=10):
    total, start = 0.0, 0
    for m in groups:
        s, y = scores[start:start + m], grades[start:start + m]
        order = np.argsort(-s, kind="stable")
        disc = 1 / np.log2(np.arange(2, min(k, m) + 2))
        dcg = np.sum((2.0 ** y[order][:k] - 1) * disc)
        idcg = np.sum((2.0 ** np.sort(y)[::-1][:k] - 1) * disc)
        total += dcg / idcg if idcg > 0 else 1.0
        start += m
    return total / len(groups)


def timed(cmd):
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True)
    return time.perf_counter() - t0


XGB_TRAIN = """
import sys, numpy as np, xgboost as xgb
from sklearn.datasets import load_svmlight_file
X, y, qid = load_svmlight_file(sys.argv[1], query_id=True, n_features={D})
d = xgb.DMatrix(X, label=y, nthread={THREADS}); d.set_group(np.unique(qid, return_counts=True)[1])
b = xgb.train({{"objective": "rank:ndcg", "tree_method": "hist", "eta": {ETA}, "max_depth": {DEPTH}, "lambda": 1,
               "min_child_weight": 1, "max_bin": 255, "nthread": {THREADS}}}, d, num_boost_round={ROUNDS})
b.save_model(sys.argv[2])
"""
# XGBoost's whole predict process, as kestrel-predict's: start, read the model and the
# file, score, write one score per line
XGB_PREDICT = """
import sys, numpy as np, xgboost as xgb
from sklearn.datasets import load_svmlight_file
b = xgb.Booster(model_file=sys.argv[1]); b.set_param({{"nthread": {THREADS}}})
X, _, _ = load_svmlight_file(sys.argv[2], query_id=True, n_features={D})
np.savetxt(sys.argv[3], b.predict(xgb.DMatrix(X, nthread={THREADS})), header="prediction", comments="")
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", help="kestrel's build directory (its apps/ are run)")
    ap.add_argument("queries", nargs="?", type=int, default=1000, help="training queries (default 1000)")
    ap.add_argument("-p", dest="params", action="append", default=[], help="more kestrel -p options")
    ap.add_argument("--report", help="also write the figures as Markdown here (bench/RESULTS.md includes "
                                     "bench/quality/gbdt_ranking.md)")
    args = ap.parse_args()
    rng = np.random.default_rng(20261127)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        train_text, _ = make(rng, args.queries, 1)
        test_text, test_groups = make(rng, 1000, 100001)
        train, test = os.path.join(tmp, "train.libsvm"), os.path.join(tmp, "test.libsvm")
        with open(train, "w") as fh:
            fh.write(train_text)
        with open(test, "w") as fh:
            fh.write(test_text)
        grades = np.array([float(line.split()[0]) for line in test_text.splitlines()])
        sizes = (f"train {len(train_text.splitlines())} rows / {args.queries} queries, test {len(grades)} rows / "
                 f"1000 queries, {D} features")
        print(f"{sizes}; load {load_before[0]:.1f}")

        model, pred = os.path.join(tmp, "k.json"), os.path.join(tmp, "k.csv")
        apps = os.path.join(args.build, "apps")
        kcmd = [os.path.join(apps, "kestrel-train"), "-q", "-m", "gbdt", "--threads", str(THREADS),
                "-p", "loss=lambdarank", "-p", f"n_estimators={ROUNDS}", "-p", f"learning_rate={ETA}",
                "-p", f"max_depth={DEPTH}", "-p", "lambda=1", "-p", "min_child_weight=1", "-p", "min_data_in_leaf=0",
                "-p", "max_bins=255"]
        for e in args.params:
            kcmd += ["-p", e]
        kcmd += [train, "-o", model]
        kpred = [os.path.join(apps, "kestrel-predict"), "-q", "--threads", str(THREADS), model, test, "-o", pred]
        xtrain, xpredict = os.path.join(tmp, "xgb_train.py"), os.path.join(tmp, "xgb_predict.py")
        with open(xtrain, "w") as fh:
            fh.write(XGB_TRAIN.format(D=D, THREADS=THREADS, ETA=ETA, DEPTH=DEPTH, ROUNDS=ROUNDS))
        with open(xpredict, "w") as fh:
            fh.write(XGB_PREDICT.format(D=D, THREADS=THREADS))
        xmodel, xpred = os.path.join(tmp, "x.json"), os.path.join(tmp, "x.csv")
        xcmd = ["/usr/bin/python3", xtrain, train, xmodel]
        xpcmd = ["/usr/bin/python3", xpredict, xmodel, test, xpred]
        # A B A B, as bench/run: load drift hits both tools alike
        kt, xt, kp, xp = [], [], [], []
        for _ in range(3):
            kt.append(timed(kcmd))
            xt.append(timed(xcmd))
            kp.append(timed(kpred))
            xp.append(timed(xpcmd))
        kscores = np.loadtxt(pred, skiprows=1, delimiter=",", usecols=0)
        xscores = np.loadtxt(xpred, skiprows=1)
        load_after = os.getloadavg()

        kn, xn = ndcg_at(kscores, grades, test_groups), ndcg_at(xscores, grades, test_groups)
        med = statistics.median
        rt, rp = med(kt) / med(xt), med(kp) / med(xp)
        extra = "".join(f" -p {e}" for e in args.params)
        print(f"kestrel lambdarank{extra}  NDCG@10 {kn:.4f}  train {med(kt):.2f} s {sorted(round(t, 2) for t in kt)}  "
              f"predict {med(kp):.3f} s")
        print(f"XGBoost rank:ndcg    NDCG@10 {xn:.4f}  train {med(xt):.2f} s {sorted(round(t, 2) for t in xt)}  "
              f"predict {med(xp):.3f} s")
        print(f"difference {100 * (kn - xn):+.2f} points, train ratio {rt:.2f}x, predict ratio {rp:.2f}x; "
              f"load {load_after[0]:.1f}")
        if args.report:
            ok = lambda c: "✅" if c else "❌"  # noqa: E731
            rows = [
                "# gbdt learning to rank: kestrel lambdarank against XGBoost 1.7 rank:ndcg",
                "",
                f"`bench/quality/gbdt_ranking.py` (generator in its docstring), {time.strftime('%Y-%m-%d')}: {sizes}; "
                f"{ROUNDS} rounds, eta {ETA}, depth {DEPTH}, lambda 1, 255 bins, {THREADS} threads. Wall times are "
                f"medians of 3 runs of each whole process, the tools alternating; load average "
                f"{load_before[0]:.1f} before, {load_after[0]:.1f} after.",
                "",
                "| tool | test NDCG@10 | train wall (s) | predict wall (s) |",
                "|---|---|---|---|",
                f"| kestrel `loss=lambdarank`{extra} | {kn:.4f} | {med(kt):.2f} | {med(kp):.3f} |",
                f"| XGBoost 1.7 `rank:ndcg` (hist) | {xn:.4f} | {med(xt):.2f} | {med(xp):.3f} |",
                "",
                f"- {ok(kn >= xn - 0.005)} NDCG@10 within 0.5 points of XGBoost (or above): {100 * (kn - xn):+.2f} points",
                f"- {ok(rt <= 0.5)} train <= 0.5x: {rt:.2f}x",
                f"- {ok(rp <= 0.5)} predict <= 0.5x: {rp:.2f}x",
            ]
            with open(args.report, "w") as fh:
                fh.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
