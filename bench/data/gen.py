#!/usr/bin/python3
"""Deterministic synthetic datasets for kestrel's benchmark suite.

Usage: /usr/bin/python3 bench/data/gen.py [--out DIR] [--only NAME[,NAME...]] [--force] [--list]

Every set gets its own seeded generator (numpy PCG64), so generating one set alone gives the
same bytes as generating all of them. Each set is written as
    DIR/NAME/{train,test}.csv          header `label,f1..fd`, label first
    DIR/NAME/{train,test}.libsvm       1-based indices, zeros omitted
    DIR/NAME/{train,test}.scaled.*     each feature mapped to [-1, 1] with the training split's
                                       min/max (as svm-scale does), applied to the test split too
    DIR/NAME/meta.json                 sizes, task, seed, generator version
The sparse text-like set is LIBSVM only and has no scaled variant: its CSV would hold 10^10
cells, and min/max scaling to [-1, 1] would turn every absent zero into -1 (its tf-idf values
already lie in [0, 1]). A set whose meta.json matches the current generator is not rewritten.
"""

import argparse
import json
import os
import shutil
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import textio  # noqa: E402

GENERATOR_VERSION = 1
DEFAULT_OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "generated")


def _linear_plus_interactions(rng, n, d, n_informative):
    """Gaussian features; a score linear in the first features plus a few non-linear terms."""
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(n_informative)
    score = X[:, :n_informative] @ w / np.sqrt(n_informative)
    score += 0.8 * np.sin(2.0 * X[:, n_informative]) + 0.6 * X[:, n_informative + 1] * X[:, n_informative + 2]
    return X, score


def binary_dense(rng, n, d):
    """Binary labels from a noisy mostly-linear score: ~85% linear, more for trees/kernels."""
    X, score = _linear_plus_interactions(rng, n, d, n_informative=10)
    y = (score + rng.logistic(scale=0.3, size=n) > 0).astype(np.int64)
    # mixed feature scales, as in real data
    X[:, ::5] *= 10.0
    return X, y


def svm_binary(rng, n, d):
    """Binary labels mostly linear in 8 features, a mild curve and a little label noise: what an
    RBF kernel with LIBSVM's default gamma fits well. Uniform features stay well spread after
    [-1, 1] scaling (Gaussian ones would crowd near 0 and need a much larger margin budget)."""
    X = rng.uniform(-np.sqrt(3.0), np.sqrt(3.0), size=(n, d))  # unit variance, bounded
    w = rng.standard_normal(8)
    score = X[:, :8] @ w / np.sqrt(8) + 0.3 * (X[:, 8] ** 2 - 1.0) + 0.3 * X[:, 9] * X[:, 10]
    y = (score + rng.logistic(scale=0.05, size=n) > 0).astype(np.int64)
    return X, y


def multiclass_blobs(rng, n, d, n_classes, n_informative, clusters_per_class, priors=None, spread=1.0):
    """Gaussian clusters in an informative subspace, the rest noise features."""
    centres = rng.standard_normal((n_classes * clusters_per_class, n_informative)) * 2.0
    p = np.full(n_classes, 1.0 / n_classes) if priors is None else np.asarray(priors) / np.sum(priors)
    y = rng.choice(n_classes, size=n, p=p)
    cluster = y * clusters_per_class + rng.integers(0, clusters_per_class, size=n)
    X = rng.standard_normal((n, d))
    X[:, :n_informative] = centres[cluster] + spread * rng.standard_normal((n, n_informative))
    # rotate the informative block so no single axis separates the classes
    q, _ = np.linalg.qr(rng.standard_normal((n_informative, n_informative)))
    X[:, :n_informative] = X[:, :n_informative] @ q
    return X, y.astype(np.int64)


def regression_dense(rng, n, d):
    """y = Xw + a little curvature + N(0,1) noise; 30 of d features matter."""
    X = rng.standard_normal((n, d))
    X[:, ::7] *= 5.0
    w = np.zeros(d)
    active = rng.choice(d, size=30, replace=False)
    w[active] = rng.standard_normal(30) * 2.0
    y = X @ w + 0.5 * np.tanh(X[:, 0] * X[:, 1]) + rng.standard_normal(n)
    return X, y


def repeated_test(rng, n, source, times):
    """Not drawn: another set's train.csv as it is and its test.csv's rows `times` over (the
    same model predicting many rows, where reading the model no longer dominates)."""
    raise AssertionError("generate() writes repeated_test sets itself")


def friedman1(rng, n, d):
    """Friedman #1: 10 sin(pi x1 x2) + 20 (x3 - .5)^2 + 10 x4 + 5 x5 + N(0,1), x ~ U(0,1)^d."""
    X = rng.random((n, d))
    y = 10 * np.sin(np.pi * X[:, 0] * X[:, 1]) + 20 * (X[:, 2] - 0.5) ** 2 + 10 * X[:, 3] + 5 * X[:, 4]
    return X, y + rng.standard_normal(n)


def glm_target(rng, n, d, family):
    """Targets of gbdt's other losses (issue 19) from one log-mean: Gaussian features, 10 of d
    informative, log mu = 0.5 + 0.6 (linear in x1..x8) + 0.3 sin(2 x9) + 0.25 x10 |x1|.
      poisson   y ~ Poisson(mu), counts (written as numbers: give kestrel --task regression)
      gamma     y ~ Gamma(shape 2, mean mu), floored at 1e-3 (the files' label has 6 decimals)
      tweedie   compound Poisson-Gamma with power 1.5, dispersion 1: N ~ Poisson(2 sqrt(mu)) claims,
                each Gamma(shape 1, scale sqrt(mu) / 2), y their sum (0 when N = 0: ~10 % of the rows)
      quantile  y = 3 log mu + (0.5 + |x2|) N(0, 1): noise that grows with |x2|, so the
                quantiles are not the mean plus a constant"""
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(8)
    eta = 0.5 + 0.6 * (X[:, :8] @ w) / np.sqrt(8) + 0.3 * np.sin(2 * X[:, 8]) + 0.25 * X[:, 9] * np.abs(X[:, 0])
    mu = np.exp(eta)
    if family == "poisson":
        y = rng.poisson(mu).astype(np.float64)
    elif family == "gamma":
        y = np.maximum(rng.gamma(2.0, mu / 2.0), 1e-3)
    elif family == "tweedie":
        counts = rng.poisson(2.0 * np.sqrt(mu))
        # a sum of k Gamma(1, s) draws is one Gamma(k, s) draw
        y = np.where(counts > 0, rng.gamma(np.maximum(counts, 1), np.sqrt(mu) / 2.0), 0.0)
    else:
        y = 3.0 * eta + (0.5 + np.abs(X[:, 1])) * rng.standard_normal(n)
    return X, y


def moons(rng, n, d=2):
    """Two interleaving half circles with Gaussian noise 0.2 (scikit-learn's make_moons)."""
    y = rng.integers(0, 2, size=n)
    t = rng.random(n) * np.pi
    X = np.where(y[:, None] == 0, np.c_[np.cos(t), np.sin(t)], np.c_[1 - np.cos(t), 0.5 - np.sin(t)])
    return X + 0.2 * rng.standard_normal((n, 2)), y.astype(np.int64)


def spiral(rng, n, d=2):
    """Two interleaved spirals of 1.5 turns, noise 0.3: hard for linear models, easy for RBF."""
    y = rng.integers(0, 2, size=n)
    r = rng.random(n)
    theta = np.sqrt(r) * 3.0 * np.pi + y * np.pi
    radius = 2.0 * np.sqrt(r) * 3.0 * np.pi
    X = np.c_[radius * np.cos(theta), radius * np.sin(theta)] / (3.0 * np.pi)
    return X + 0.3 / (3.0 * np.pi) * 2.0 * rng.standard_normal((n, 2)), y.astype(np.int64)


def friedman_wide_range(rng, n, d, scale):
    """Friedman #1 on d uniform features, target (noise included) multiplied by scale: a
    price-like target whose range is in the thousands. The large-C SVR regime: at C = 10^4
    and epsilon = 1% of the range, most dual variables end at C and SMO runs for a great many
    iterations (the dual scales with the target: this is Friedman #1 at C = 10^4 / scale)."""
    X, y = friedman1(rng, n, d)
    return X, scale * y


def sparse_text(rng, n, d, mean_nnz):
    """Bag-of-words-like CSR: Zipf term frequencies, log-tf * idf, unit-norm rows, sparse w."""
    nnz_per_row = np.maximum(5, rng.poisson(mean_nnz * 1.08, size=n))  # duplicates merge below
    ranks = np.arange(1, d + 1, dtype=np.float64)
    p = 1.0 / (ranks + 20.0) ** 1.05
    p /= p.sum()
    term_of_rank = rng.permutation(d)
    rows = np.repeat(np.arange(n, dtype=np.int64), nnz_per_row)
    cols = term_of_rank[rng.choice(d, size=rows.size, p=p)]
    keys, counts = np.unique(rows * d + cols, return_counts=True)  # sorted by row, then col
    rows, cols = keys // d, keys % d
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    doc_freq = np.bincount(cols, minlength=d)
    idf = np.log((1.0 + n) / (1.0 + doc_freq)) + 1.0
    values = (1.0 + np.log(counts)) * idf[cols]
    norms = np.sqrt(np.add.reduceat(values**2, indptr[:-1]))
    values /= np.repeat(norms, np.diff(indptr))
    w = np.zeros(d)
    relevant = rng.choice(d, size=d // 10, replace=False)
    w[relevant] = rng.standard_normal(relevant.size)
    score = np.add.reduceat(values * w[cols], indptr[:-1])
    score -= np.median(score)
    y = (score + rng.normal(scale=0.15 * score.std(), size=n) > 0).astype(np.int64)
    return (indptr, cols, values), y


# name: (builder, kwargs, n_train, n_test, task, issue that asks for it)
DATASETS = {
    "binary_dense": (binary_dense, {"d": 50}, 100000, 25000, "binary", "issues 5, 7"),
    "multi5_dense": (
        multiclass_blobs,
        {"d": 40, "n_classes": 5, "n_informative": 12, "clusters_per_class": 2, "spread": 1.6},
        50000, 12500, "multiclass", "issues 6 (knn), 7",
    ),
    "regression_dense": (regression_dense, {"d": 100}, 200000, 50000, "regression", "issues 5, 6 (Nystrom)"),
    "sparse_text": (sparse_text, {"d": 50000, "mean_nnz": 40}, 200000, 50000, "binary", "issue 5"),
    "moons": (moons, {}, 8000, 2000, "binary", "issues 4, 6"),
    "spiral": (spiral, {}, 8000, 2000, "binary", "issues 4, 6"),
    "svm_binary": (svm_binary, {"d": 50}, 20000, 5000, "binary", "issue 4"),
    "multi7_dense": (
        multiclass_blobs,
        {"d": 9, "n_classes": 7, "n_informative": 9, "clusters_per_class": 3, "spread": 1.5,
         "priors": [0.78, 0.15, 0.04, 0.015, 0.008, 0.004, 0.003]},
        46000, 11500, "multiclass", "issue 4 (shuttle-like)",
    ),
    "friedman": (friedman1, {"d": 20}, 10000, 2500, "regression", "issues 6 (kernel_ridge), 7"),
    # issue 23's held-out regimes: sets no solver setting was tuned on
    "friedman9_wide": (friedman_wide_range, {"d": 9, "scale": 100.0}, 10000, 2500, "regression", "issue 23 (large-C SVR)"),
    "imbalanced6": (
        multiclass_blobs,
        {"d": 6, "n_classes": 2, "n_informative": 6, "clusters_per_class": 4, "spread": 1.2, "priors": [0.9, 0.1]},
        30000, 7500, "binary", "issue 23 (large-C SVC)",
    ),
    "many_classes40": (
        multiclass_blobs,
        {"d": 10, "n_classes": 40, "n_informative": 8, "clusters_per_class": 1, "spread": 0.8},
        20000, 5000, "multiclass", "issue 23 (many classes)",
    ),
    # 3000 rows, not 20000: nearly every row ends a support vector here, and LIBSVM took 68 s
    # on 4000 of them and over 400 s on 20000
    "sparse_wide": (sparse_text, {"d": 50000, "mean_nnz": 50}, 3000, 1000, "binary", "issue 23 (wide sparse SVM)"),
    "poisson_counts": (glm_target, {"d": 20, "family": "poisson"}, 100000, 25000, "regression", "issue 19"),
    "gamma_positive": (glm_target, {"d": 20, "family": "gamma"}, 100000, 25000, "regression", "issue 19"),
    "tweedie_claims": (glm_target, {"d": 20, "family": "tweedie"}, 100000, 25000, "regression", "issue 19"),
    "quantile_hetero": (glm_target, {"d": 20, "family": "quantile"}, 100000, 25000, "regression", "issue 19"),
    # issue 23's tree-walk rows: the simd_forest_letter / simd_gbdt_friedman models on more rows
    "letter_x10": (repeated_test, {"source": "shared:letter", "times": 10}, 16000, 40000, "multiclass",
                   "issue 23 (tree walk)"),
    "friedman_x20": (repeated_test, {"source": "friedman", "times": 20}, 10000, 50000, "regression",
                     "issue 23 (tree walk)"),
}
SEEDS = {name: 20240 + i for i, name in enumerate(DATASETS)}
# issue 19's sets were added beside issue 23's, in another branch, at the same positions:
# their seeds stay the ones their bench records were generated with
SEEDS.update(poisson_counts=20249, gamma_positive=20250, tweedie_claims=20251, quantile_hetero=20252)


def _scale_minmax(train, test):
    lo, hi = train.min(axis=0), train.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    f = lambda A: np.where(hi > lo, -1.0 + 2.0 * (A - lo) / span, 0.0)  # noqa: E731
    return f(train), f(test)


def generate(name, out_root, force):
    builder, kwargs, n_train, n_test, task, _ = DATASETS[name]
    out = os.path.join(out_root, name)
    meta_path = os.path.join(out, "meta.json")
    meta = {
        "name": name, "task": task, "n_train": n_train, "n_test": n_test,
        "seed": SEEDS[name], "generator_version": GENERATOR_VERSION, "params": kwargs,
    }
    if not force and os.path.exists(meta_path):
        with open(meta_path) as fh:
            old = json.load(fh)
        if all(old.get(k) == v for k, v in meta.items()):
            return False
    os.makedirs(out, exist_ok=True)
    if os.path.exists(meta_path):
        os.remove(meta_path)  # a half-written set must never look complete
    if builder is repeated_test:
        source = kwargs["source"]
        if source.startswith("shared:"):
            src = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                                "shared", "data", source.split(":", 1)[1]))
        else:
            generate(source, out_root, False)
            src = os.path.join(out_root, source)
        shutil.copyfile(os.path.join(src, "train.csv"), os.path.join(out, "train.csv"))
        with open(os.path.join(src, "test.csv")) as fh:
            header, *rows = fh.read().splitlines(keepends=True)
        with open(os.path.join(out, "test.csv"), "w") as fh:
            fh.write(header)
            for _ in range(kwargs["times"]):
                fh.writelines(rows)
        meta.update(formats=["csv"], files_mb={
            f: round(os.path.getsize(os.path.join(out, f)) / 1e6, 2) for f in sorted(os.listdir(out))})
        with open(meta_path, "w") as fh:
            json.dump(meta, fh, indent=1)
        return True
    rng = np.random.Generator(np.random.PCG64(SEEDS[name]))
    n = n_train + n_test
    classification = task != "regression"
    if builder is sparse_text:
        (indptr, cols, values), y = builder(rng, n, **kwargs)
        split = indptr[n_train]
        textio.write_libsvm_sparse(
            os.path.join(out, "train.libsvm"), indptr[: n_train + 1], cols, values, y[:n_train], True, 6)
        textio.write_libsvm_sparse(
            os.path.join(out, "test.libsvm"), indptr[n_train:] - split, cols[split:], values[split:],
            y[n_train:], True, 6)
        meta.update(n_features=kwargs["d"], nnz=int(len(values)), nnz_train=int(split), formats=["libsvm"])
    else:
        X, y = builder(rng, n, **kwargs)
        # the files hold 4 decimals; scaling starts from what the files hold, as svm-scale would
        X = np.round(X, 4)
        parts = {"train": (X[:n_train], y[:n_train]), "test": (X[n_train:], y[n_train:])}
        scaled = dict(zip(("train", "test"), _scale_minmax(X[:n_train], X[n_train:])))
        for split, (Xs, ys) in parts.items():
            base = os.path.join(out, split)
            textio.write_csv(base + ".csv", Xs, ys, classification, 4)
            textio.write_libsvm_dense(base + ".libsvm", Xs, ys, classification, 4)
            textio.write_csv(base + ".scaled.csv", scaled[split], ys, classification, 6)
            textio.write_libsvm_dense(base + ".scaled.libsvm", scaled[split], ys, classification, 6)
        meta.update(n_features=X.shape[1], formats=["csv", "libsvm", "scaled.csv", "scaled.libsvm"])
    if classification:
        meta["n_classes"] = int(len(np.unique(y)))
        meta["class_counts_train"] = np.bincount(y[:n_train]).tolist()
    meta["files_mb"] = {
        f: round(os.path.getsize(os.path.join(out, f)) / 1e6, 2) for f in sorted(os.listdir(out))
    }
    with open(meta_path, "w") as fh:
        json.dump(meta, fh, indent=1)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", default="", help="comma-separated dataset names (default: all)")
    ap.add_argument("--force", action="store_true", help="rewrite even if up to date")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.list:
        for name, (_, kw, ntr, nte, task, why) in DATASETS.items():
            print(f"{name:18s} {task:10s} train={ntr} test={nte} {kw} ({why})")
        return
    names = [s for s in args.only.split(",") if s] or list(DATASETS)
    unknown = [s for s in names if s not in DATASETS]
    if unknown:
        sys.exit(f"gen.py: unknown dataset(s) {unknown}; valid: {', '.join(DATASETS)}")
    for name in names:
        t0 = time.time()
        made = generate(name, args.out, args.force)
        state = f"generated in {time.time() - t0:.1f} s" if made else "up to date"
        print(f"gen.py: {name}: {state}", file=sys.stderr)


if __name__ == "__main__":
    main()
