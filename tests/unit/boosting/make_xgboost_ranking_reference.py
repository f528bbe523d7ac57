#!/usr/bin/python3
"""The learning-to-rank fixture of gbdt_ranking_test.cpp and its XGBoost 1.7.4 reference.

Writes data/ranking_train.libsvm and data/ranking_test.libsvm (SVMrank format,
`grade qid:Q 1:x1 ... 8:x8`) and prints XGBoost's NDCG@10 on the test file.

The data: queries of 8-24 documents, 8 normal features; a hidden score
u = x1 + 0.8 x2 x3 - 0.6 |x4| + 0.5 sin(2 x5) + N(0, 0.5^2) per document, and the
grade the number of the query's thresholds [q + 0.3, q + 1.0, q + 1.7] below u, where
q ~ N(0, 0.3^2) is a per-query offset (queries differ in how many relevant documents
they hold). Seeded: the files are reproducible.

Reference (Debian python3-xgboost 1.7.4): rank:ndcg, tree_method hist, 100 rounds,
eta 0.1, max_depth 6, lambda 1, min_child_weight 1, max_bin 255, nthread 1.
Usage: /usr/bin/python3 make_xgboost_ranking_reference.py  (from this folder)
"""

import numpy as np
import xgboost as xgb


def make(rng, queries, first_qid):
    lines, X_all, y_all, groups = [], [], [], []
    for q in range(queries):
        m = int(rng.integers(8, 25))
        X = rng.normal(size=(m, 8))
        u = X[:, 0] + 0.8 * X[:, 1] * X[:, 2] - 0.6 * np.abs(X[:, 3]) + 0.5 * np.sin(2 * X[:, 4])
        u += rng.normal(scale=0.5, size=m)
        offset = rng.normal(scale=0.3)
        y = (u[:, None] > offset + np.array([0.3, 1.0, 1.7])[None, :]).sum(axis=1)
        for i in range(m):
            feats = " ".join(f"{j + 1}:{X[i, j]:.3f}" for j in range(8))
            lines.append(f"{y[i]} qid:{first_qid + q} {feats}")
        X_all.append(np.round(X, 3))
        y_all.append(y)
        groups.append(m)
    return lines, np.vstack(X_all), np.concatenate(y_all).astype(float), groups


def main():
    rng = np.random.default_rng(2026)
    train_lines, Xtr, ytr, gtr = make(rng, 200, 1)
    test_lines, Xte, yte, gte = make(rng, 100, 1001)
    with open("data/ranking_train.libsvm", "w") as f:
        f.write("\n".join(train_lines) + "\n")
    with open("data/ranking_test.libsvm", "w") as f:
        f.write("\n".join(test_lines) + "\n")
    dtr = xgb.DMatrix(Xtr, label=ytr)
    dtr.set_group(gtr)
    dte = xgb.DMatrix(Xte, label=yte)
    dte.set_group(gte)
    params = {"objective": "rank:ndcg", "tree_method": "hist", "eta": 0.1, "max_depth": 6, "lambda": 1,
              "min_child_weight": 1, "max_bin": 255, "nthread": 1, "eval_metric": "ndcg@10", "seed": 0}
    booster = xgb.train(params, dtr, num_boost_round=100)
    print("xgboost", xgb.__version__, "rows", len(ytr), len(yte))
    print(booster.eval(dte, "test"))


if __name__ == "__main__":
    main()
