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

    /usr/bin/python3 bench/quality/gbdt_ranking.py BUILD_DIR [QUERIES] [kestrel -p options ...]
"""
import os
import statistics
import subprocess
import sys
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


def main():
    build = sys.argv[1]
    queries = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    extra = sys.argv[3:]
    rng = np.random.default_rng(20261127)
    with tempfile.TemporaryDirectory() as tmp:
        train_text, _ = make(rng, queries, 1)
        test_text, test_groups = make(rng, 1000, 100001)
        train, test = os.path.join(tmp, "train.libsvm"), os.path.join(tmp, "test.libsvm")
        with open(train, "w") as fh:
            fh.write(train_text)
        with open(test, "w") as fh:
            fh.write(test_text)
        grades = np.array([float(line.split()[0]) for line in test_text.splitlines()])
        print(f"train {len(train_text.splitlines())} rows / {queries} queries, test {len(grades)} rows / 1000 queries, "
              f"{D} features; load {os.getloadavg()[0]:.1f}")

        model, pred = os.path.join(tmp, "k.json"), os.path.join(tmp, "k.csv")
        kcmd = [os.path.join(build, "apps", "kestrel-train"), "-q", "-m", "gbdt", "--threads", str(THREADS),
                "-p", "loss=lambdarank", "-p", f"n_estimators={ROUNDS}", "-p", f"learning_rate={ETA}",
                "-p", f"max_depth={DEPTH}", "-p", "lambda=1", "-p", "min_child_weight=1", "-p", "max_bins=255"]
        for e in extra:
            kcmd += ["-p", e]
        kcmd += [train, "-o", model]
        ktimes = [timed(kcmd) for _ in range(3)]
        subprocess.run([os.path.join(build, "apps", "kestrel-predict"), "-q", model, test, "-o", pred], check=True)
        kscores = np.loadtxt(pred, skiprows=1, delimiter=",", usecols=0)

        xscript = os.path.join(tmp, "xgb_train.py")
        with open(xscript, "w") as fh:
            fh.write(f"""
import sys, numpy as np, xgboost as xgb
from sklearn.datasets import load_svmlight_file
X, y, qid = load_svmlight_file(sys.argv[1], query_id=True, n_features={D})
d = xgb.DMatrix(X, label=y, nthread={THREADS}); d.set_group(np.unique(qid, return_counts=True)[1])
b = xgb.train({{"objective": "rank:ndcg", "tree_method": "hist", "eta": {ETA}, "max_depth": {DEPTH}, "lambda": 1,
               "min_child_weight": 1, "max_bin": 255, "nthread": {THREADS}}}, d, num_boost_round={ROUNDS})
b.save_model(sys.argv[2])
""")
        xmodel = os.path.join(tmp, "x.json")
        xtimes = [timed(["/usr/bin/python3", xscript, train, xmodel]) for _ in range(3)]
        import xgboost as xgb
        from sklearn.datasets import load_svmlight_file
        Xt, _, _ = load_svmlight_file(test, query_id=True, n_features=D)
        xscores = xgb.Booster(model_file=xmodel).predict(xgb.DMatrix(Xt))

        kn, xn = ndcg_at(kscores, grades, test_groups), ndcg_at(xscores, grades, test_groups)
        km, xm = statistics.median(ktimes), statistics.median(xtimes)
        print(f"kestrel lambdarank   NDCG@10 {kn:.4f}  train {km:.2f} s  {sorted(round(t, 2) for t in ktimes)}")
        print(f"XGBoost rank:ndcg    NDCG@10 {xn:.4f}  train {xm:.2f} s  {sorted(round(t, 2) for t in xtimes)}")
        print(f"difference {100 * (kn - xn):+.2f} points, train ratio {km / xm:.2f}x; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
