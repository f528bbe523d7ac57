"""Every benchmark task: the dataset, the algorithm, the matched settings, and per tool the
exact command line. bench/run reads TASKS; `bench/run --list` prints them resolved.

Matching rules (docs/benchmarks.md explains each):
- every tool gets {threads} threads (2) where it can use them; LIBSVM and LIBLINEAR have one;
- SVMs: the same C, gamma, eps (1e-3), cache (200 MB), shrinking on, on the same scaled file;
- LIBLINEAR: the same C; kestrel's tolerance is LIBLINEAR's relative-gradient rule rewritten
  in kestrel's terms (see LOGISTIC_TOL); -B 1 gives LIBLINEAR an intercept (it penalises it,
  kestrel does not: a negligible difference at these sizes);
- trees: the same number of trees / rounds, depth, learning rate, bins, features per split.
Parameter names on kestrel's side of a pending task follow its issue; check them when the
model lands (`kestrel-train -m NAME --help-params`).
"""

from harness.taskdef import Goal, Task, Tool

T = "--threads {threads} -q"
SK = "{py} {anchors}/sklearn_run.py"
XGB = "{py} {anchors}/xgboost_run.py"
RANGER = "Rscript {anchors}/ranger_run.R"
GLMNET = "Rscript {anchors}/glmnet_run.R"


def _join(*parts):
    return " ".join(p for p in parts if p)


def kestrel(model, params, train_file, test_file, extra=""):
    p = " ".join(f"-p {k}={v}" for k, v in params.items())
    return Tool(
        "kestrel",
        train=_join("{kestrel}/kestrel-train -m", model, p, extra, T, f"{{data}}/{train_file} -o {{model}}"),
        predict=f"{{kestrel}}/kestrel-predict {T} {{model}} {{data}}/{test_file} -o {{pred}}",
    )


def sklearn(estimator, params, train_file, test_file, goal=None, extra=""):
    p = " ".join(f"-p {k}={v}" for k, v in params.items())
    return Tool(
        "scikit-learn",
        train=_join(f"{SK} train -m", estimator, p, extra, f"{{data}}/{train_file} -o {{model}}"),
        predict=f"{SK} predict {{model}} {{data}}/{test_file} -o {{pred}}",
        goal=goal,
    )


def libsvm(options, train_file="train.scaled.libsvm", test_file="test.scaled.libsvm", goal=None):
    return Tool(
        "LIBSVM",
        train=f"svm-train {options} -q {{data}}/{train_file} {{model}}",
        predict=f"svm-predict -q {{data}}/{test_file} {{model}} {{pred}}",
        goal=goal,
        extras=("sv_count",),
    )


def liblinear(options, train_file, test_file, goal=None):
    return Tool(
        "LIBLINEAR",
        train=f"liblinear-train {options} -q {{data}}/{train_file} {{model}}",
        predict=f"liblinear-predict -q {{data}}/{test_file} {{model}} {{pred}}",
        goal=goal,
    )


def ranger(task, params, train_file, test_file, goal=None):
    p = " ".join(f"{k}={v}" for k, v in params.items())
    return Tool(
        "ranger",
        train=f"{RANGER} train {{data}}/{train_file} {{model}} {task} {p}",
        predict=f"{RANGER} predict {{model}} {{data}}/{test_file} {{pred}}",
        goal=goal,
    )


def xgboost(params, rounds, train_file, test_file, goal=None):
    p = " ".join(f"-p {k}={v}" for k, v in params.items())
    return Tool(
        "XGBoost",
        train=f"{XGB} train {p} --rounds {rounds} {{data}}/{train_file} -o {{model}}",
        predict=f"{XGB} predict {{model}} {{data}}/{test_file} -o {{pred}}",
        goal=goal,
    )


# LIBLINEAR -s 0/2 stop at ||g|| <= eps * min(#pos, #neg) / l * ||g(0)||; kestrel's logistic stops
# at ||g|| <= tol * max(1, ||g(0)||). With balanced classes min/l ~ 0.5, so tol = eps / 2.
LIBLINEAR_EPS = 0.01
LOGISTIC_TOL = LIBLINEAR_EPS / 2

TASKS = []


def add(task):
    TASKS.append(task)


# ---------------------------------------------------------------- io (issue 3)
add(Task(
    "loading", "io", "", "CSV and LIBSVM parse throughput (MB/s): kestrel vs numpy/pandas read_csv and svm-scale",
    kind="script", quality=False,
    kestrel=Tool("kestrel", train="bash bench/loading/run.sh"),
))

# ---------------------------------------------------------------- linear (issue 5; ridge, logistic: issue 2)
add(Task(
    "ridge_dense", "linear", "regression_dense",
    "ridge alpha=1, dense 200000 x 100 regression (CSV)",
    kestrel=kestrel("ridge", {"alpha": 1.0}, "train.csv", "test.csv"),
    anchors=[sklearn("Ridge", {"alpha": 1.0}, "train.csv", "test.csv", goal=Goal(train=0.5, rmse_relative=0.01,
                                                                                 rss_data=1.5))],
))
add(Task(
    "least_squares_dense", "linear", "regression_dense",
    "ordinary least squares (QR), dense 200000 x 100 regression (CSV)",
    kestrel=kestrel("least_squares", {"solver": "qr"}, "train.csv", "test.csv"),
    anchors=[sklearn("LinearRegression", {}, "train.csv", "test.csv", goal=Goal(train=0.5, rmse_relative=0.01,
                                                                               rss_data=1.5))],
))
add(Task(
    "lasso_path", "linear", "regression_dense",
    "lasso path of 100 lambdas from lambda_max down to 1e-4 lambda_max, dense 200000 x 100 (CSV)",
    kestrel=kestrel("lasso", {"n_lambda": 100, "lambda_min_ratio": 1e-4}, "train.csv", "test.csv",
                    extra="--path {work}/kestrel.path.csv"),
    anchors=[Tool("glmnet",
                  # fdev=0: glmnet otherwise ends the path early (here after 70 of the 100
                  # lambdas), a shorter path to a different final model than kestrel's
                  train=f"{GLMNET} train {{data}}/train.csv {{model}} nlambda=100 lambda.min.ratio=1e-4 alpha=1 "
                        "fdev=0",
                  predict=f"{GLMNET} predict {{model}} {{data}}/test.csv {{pred}}",
                  goal=Goal(train=1.0, rmse_relative=0.01, rss_data=1.5))],
))
for data, shape in (("binary_dense", "dense 100000 x 50"), ("sparse_text", "sparse 200000 x 50000, ~42 nnz/row")):
    # every tool reads the same LIBSVM file that LIBLINEAR reads
    tr, te = "train.libsvm", "test.libsvm"
    suffix = "dense" if data == "binary_dense" else "sparse"
    anchors = [liblinear(f"-s 0 -c 1 -e {LIBLINEAR_EPS} -B 1", "train.libsvm", "test.libsvm",
                         goal=Goal(train=1.0, accuracy_points=0.2, rss_data=1.5))]
    if data == "binary_dense":
        anchors.append(sklearn("LogisticRegression", {"C": 1.0, "max_iter": 1000}, tr, te, extra="--dense"))
    add(Task(f"logistic_{suffix}", "linear", data,
             f"L2 logistic regression C=1 (LIBLINEAR -s 0), {shape}",
             kestrel=kestrel("logistic", {"C": 1, "tol": LOGISTIC_TOL}, tr, te), anchors=anchors))
    # logistic's default solver is tron (LIBLINEAR -s 0's, the row above carries the
    # issue's -s 0 goal); this keeps L-BFGS measured beside it, a reference for its speed
    # with only the accuracy asked of it
    add(Task(f"logistic_lbfgs_{suffix}", "linear", data,
             f"L2 logistic regression C=1 by L-BFGS (solver=lbfgs), {shape}",
             kestrel=kestrel("logistic", {"C": 1, "tol": LOGISTIC_TOL, "solver": "lbfgs"}, tr, te),
             anchors=[liblinear(f"-s 0 -c 1 -e {LIBLINEAR_EPS} -B 1", "train.libsvm", "test.libsvm",
                                goal=Goal(accuracy_points=0.2))],
             requires=("logistic.solver",)))
    add(Task(f"logistic_l1_{suffix}", "linear", data,
             f"L1 logistic regression C=1 (LIBLINEAR -s 6), {shape}",
             kestrel=kestrel("logistic", {"C": 1, "penalty": "l1", "tol": LOGISTIC_TOL}, tr, te),
             anchors=[liblinear(f"-s 6 -c 1 -e {LIBLINEAR_EPS} -B 1", "train.libsvm", "test.libsvm",
                                goal=Goal(train=1.0, accuracy_points=0.2, rss_data=1.5))],
             requires=("logistic.penalty",)))
    for s, params, what in (
        (1, {"loss": "squared_hinge", "solver": "dual"}, "L2-loss SVM, dual coordinate descent"),
        (2, {"loss": "squared_hinge", "solver": "primal"}, "L2-loss SVM, primal trust-region Newton"),
        (3, {"loss": "hinge", "solver": "dual"}, "L1-loss (hinge) SVM, dual coordinate descent"),
        (5, {"loss": "squared_hinge", "penalty": "l1"}, "L1-regularised L2-loss SVM"),
    ):
        eps = {1: 0.1, 2: 0.01, 3: 0.1, 5: 0.01}[s]  # LIBLINEAR's defaults per solver
        add(Task(f"linear_svm_s{s}_{suffix}", "linear", data,
                 f"{what} C=1 (LIBLINEAR -s {s} -e {eps}), {shape}",
                 kestrel=kestrel("linear_svm", dict(C=1, eps=eps, **params), tr, te),
                 anchors=[liblinear(f"-s {s} -c 1 -e {eps} -B 1", "train.libsvm", "test.libsvm",
                                    goal=Goal(train=1.0, accuracy_points=0.2, rss_data=1.5))],
                 # on the dense set both dual solvers run to max_iter (~50 s a run): no warm-up
                 heavy=suffix == "dense" and s in (1, 3)))

# Held out (issue 23): the primal L2-loss SVM on a small ten-class set, where one-vs-rest's
# ten small fits and the process itself are the cost, not one large solve.
add(Task("linear_svm_s2_digits", "linear", "shared:digits",
         "L2-loss SVM, primal trust-region Newton C=1 (LIBLINEAR -s 2 -e 0.01), digits 1437 x 64, 10 classes "
         "(one-vs-rest), unscaled",
         kestrel=kestrel("linear_svm", dict(C=1, eps=0.01, loss="squared_hinge", solver="primal"), "train.libsvm",
                         "test.libsvm"),
         anchors=[liblinear("-s 2 -c 1 -e 0.01 -B 1", "train.libsvm", "test.libsvm",
                            goal=Goal(train=0.7, accuracy_points=0.3))]))

# LP and robust regression (issue 5): lad / quantile as QuantileRegressor(solver='highs'), which
# solves the primal LP with n rows; kestrel solves its dual (d + 1 rows) with CLP.
for name, q in (("lad", 0.5), ("quantile", 0.9)):
    add(Task(f"{name}_friedman", "linear", "friedman",
             f"{name} regression (pinball loss q={q}, alpha=0) as an LP, Friedman #1 10000 x 20",
             kestrel=kestrel(name, {} if name == "lad" else {"quantile": q, "alpha": 0}, "train.csv", "test.csv"),
             anchors=[sklearn("QuantileRegressor", {"quantile": q, "alpha": 0, "solver": "highs"}, "train.csv",
                              "test.csv", goal=Goal(train=1.0, rmse_relative=0.01))],
             requires=(name,)))
add(Task("huber_dense", "linear", "regression_dense",
         "Huber regression epsilon=1.35 alpha=1e-4 (joint scale, L-BFGS-B), dense 200000 x 100 (CSV)",
         kestrel=kestrel("huber", {"epsilon": 1.35, "alpha": 1e-4}, "train.csv", "test.csv"),
         anchors=[sklearn("HuberRegressor", {"epsilon": 1.35, "alpha": 1e-4}, "train.csv", "test.csv",
                          goal=Goal(train=1.0, rmse_relative=0.01))],
         requires=("huber",)))
# No reference tool has the 1-norm SVM; the nearest is L1-regularised squared hinge (-s 5).
add(Task("lp_svm_binary", "linear", "svm_binary",
         "1-norm SVM (L1 penalty, hinge loss) C=1 as an LP, synthetic binary 20000 x 50",
         kestrel=kestrel("lp_svm", {"C": 1}, "train.libsvm", "test.libsvm"),
         anchors=[liblinear("-s 5 -c 1 -e 0.01 -B 1", "train.libsvm", "test.libsvm",
                            goal=Goal(accuracy_points=1.0))],
         requires=("lp_svm",)))

# ---------------------------------------------------------------- svm (issue 4)
SVM_GOAL = dict(train=0.5, predict=0.5, accuracy_points=0.3, sv_relative=0.02, rss=1.0, rss_plus_mb=200)
for name, data, C, gamma, what in (
    ("svc_letter", "shared:letter", 10, 1, "C-SVC RBF C=10 gamma=1, letter 16000 x 16, 26 classes (one-vs-one)"),
    ("svc_digits", "shared:digits", 10, 0.015625, "C-SVC RBF C=10 gamma=1/64, digits 1437 x 64, 10 classes"),
    ("svc_binary", "svm_binary", 1, 0.02, "C-SVC RBF C=1 gamma=1/50, synthetic binary 20000 x 50"),
    ("svc_multi7", "multi7_dense", 10, 1, "C-SVC RBF C=10 gamma=1, synthetic 46000 x 9, 7 unbalanced classes"),
):
    kt = kestrel("svc", {"C": C, "gamma": gamma, "eps": 0.001, "cache_mb": 200}, "train.scaled.libsvm",
                 "test.scaled.libsvm")
    kt.extras = ("sv_count",)
    add(Task(name, "svm", data, what + "; eps=1e-3, cache 200 MB, scaled to [-1,1]", kestrel=kt,
             anchors=[libsvm(f"-s 0 -t 2 -c {C} -g {gamma} -e 0.001 -m 200", goal=Goal(**SVM_GOAL))],
             requires=("svc",), heavy=name == "svc_binary"))
kt = kestrel("svr", {"C": 10, "gamma": 0.05, "epsilon": 0.1, "eps": 0.001, "cache_mb": 200},
             "train.scaled.libsvm", "test.scaled.libsvm")
kt.extras = ("sv_count",)
add(Task("svr_friedman", "svm", "friedman",
         "epsilon-SVR RBF C=10 gamma=0.05 epsilon=0.1, Friedman #1 10000 x 20; eps=1e-3, cache 200 MB",
         kestrel=kt,
         anchors=[libsvm("-s 3 -t 2 -c 10 -g 0.05 -p 0.1 -e 0.001 -m 200",
                         goal=Goal(train=0.5, predict=0.5, rmse_relative=0.01, sv_relative=0.02))],
         requires=("svr",)))

# issue 23's held-out regimes: sets and settings no solver choice was tuned on, where the SMO
# loop rather than the kernel is the cost (few features, many iterations, many pairs) or where
# start-up is (a few hundred rows: the train + predict pair of processes against LIBSVM's).
HELD_OUT = (
    # name, dataset, svm type and matched options, train/test files, what
    ("svr_large_c", "friedman9_wide", "svr", {"C": 10000, "gamma": 0.1111111111, "epsilon": 29},
     "-s 3 -t 2 -c 10000 -g 0.1111111111 -p 29", "train.scaled.libsvm", "test.scaled.libsvm",
     "epsilon-SVR RBF C=1e4 gamma=1/9 epsilon=29 (1% of the target's range), Friedman #1 x 100, 10000 x 9"),
    ("svc_large_c", "imbalanced6", "svc", {"C": 1000, "gamma": 0.1666666667},
     "-s 0 -t 2 -c 1000 -g 0.1666666667", "train.scaled.libsvm", "test.scaled.libsvm",
     "C-SVC RBF C=1e3 gamma=1/6, synthetic binary 30000 x 6, 90/10 imbalanced, overlapping clusters"),
    ("svc_many_classes", "many_classes40", "svc", {"C": 10, "gamma": 0.1},
     "-s 0 -t 2 -c 10 -g 0.1", "train.scaled.libsvm", "test.scaled.libsvm",
     "C-SVC RBF C=10 gamma=1/10, synthetic 20000 x 10, 40 classes (780 one-vs-one pairs)"),
    ("svc_sparse_wide", "sparse_wide", "svc", {"C": 1, "gamma": 1},
     "-s 0 -t 2 -c 1 -g 1", "train.libsvm", "test.libsvm",
     "C-SVC RBF C=1 gamma=1, sparse text-like 3000 x 50000, ~50 nnz a row (unit-norm tf-idf, LIBSVM format)"),
    ("svc_tiny_heart", "shared:heart_scale", "svc", {"C": 1, "gamma": 0.0769230769},
     "-s 0 -t 2 -c 1 -g 0.0769230769", "train.scaled.libsvm", "test.scaled.libsvm",
     "C-SVC RBF C=1 gamma=1/13, heart_scale 216 x 13 (LIBSVM's own example set): the train + predict pair"),
    ("svr_tiny_diabetes", "shared:diabetes", "svr", {"C": 100, "gamma": 0.1, "epsilon": 3},
     "-s 3 -t 2 -c 100 -g 0.1 -p 3", "train.scaled.libsvm", "test.scaled.libsvm",
     "epsilon-SVR RBF C=100 gamma=1/10 epsilon=3 (1% of the target's range), diabetes 353 x 10: the "
     "train + predict pair"),
)
for name, data, model, params, opts, tr, te, what in HELD_OUT:
    kt = kestrel(model, dict(params, eps=0.001, cache_mb=200), tr, te)
    kt.extras = ("sv_count",)
    quality = dict(rmse_relative=0.01) if model == "svr" else dict(accuracy_points=0.3)
    goal = Goal(total=1.0, **quality) if "tiny" in name else Goal(train=0.5, predict=0.5, sv_relative=0.02, **quality)
    add(Task(name, "svm", data, what + "; eps=1e-3, cache 200 MB", kestrel=kt,
             anchors=[libsvm(opts + " -e 0.001 -m 200", tr, te, goal=goal)], requires=(model,),
             heavy=name in ("svr_large_c", "svc_large_c", "svc_sparse_wide")))

# ---------------------------------------------------------------- kernel (issue 6)
# scikit-learn's KernelRidge solves (K + alpha I) a = y without an intercept; kestrel's
# kernel_ridge solves the same system with fit_intercept=0 (its default centres the kernel
# and y, as ridge centres X and y), so the two fit identical models from the same alpha
# (alpha = n lambda in the terms) and gamma.
add(Task("kernel_ridge_rbf", "kernel", "friedman",
         "kernel ridge RBF gamma=0.5, alpha=1 (lambda=1e-4), Friedman #1 10000 x 20 scaled",
         kestrel=kestrel("kernel_ridge", {"kernel": "rbf", "gamma": 0.5, "alpha": 1.0, "fit_intercept": 0},
                         "train.scaled.csv", "test.scaled.csv"),
         anchors=[sklearn("KernelRidge", {"kernel": "rbf", "gamma": 0.5, "alpha": 1.0}, "train.scaled.csv",
                          "test.scaled.csv", goal=Goal(train=0.5, rmse_relative=0.01, agreement=1e-6))],
         requires=("kernel_ridge",)))
# Nystroem + Ridge is ridge with an intercept on the Nystroem features: kestrel's
# nystrom=m with fit_intercept=1 is the same model (landmarks drawn differently).
add(Task("kernel_ridge_nystrom", "kernel", "regression_dense",
         "kernel ridge RBF gamma=0.05 with a 1000-landmark Nystrom approximation, 200000 x 100 scaled",
         kestrel=kestrel("kernel_ridge", {"kernel": "rbf", "gamma": 0.05, "alpha": 0.2, "nystrom": 1000},
                         "train.scaled.csv", "test.scaled.csv"),
         anchors=[sklearn("Nystroem+Ridge", {"nystroem__gamma": 0.05, "nystroem__n_components": 1000,
                                             "nystroem__random_state": 0, "ridge__alpha": 0.2},
                          "train.scaled.csv", "test.scaled.csv", goal=Goal(train_abs_s=60, rmse_relative=0.05))],
         requires=("kernel_ridge.nystrom",), heavy=True))
# Kernel logistic regression on a 500-landmark Nystroem map: LogisticRegression (L2, C,
# unpenalised intercept, lbfgs) on the same kind of features is the same objective.
add(Task("kernel_logistic_nystrom", "kernel", "svm_binary",
         "kernel logistic RBF gamma=0.02, C=1, 500-landmark Nystrom map, synthetic binary 20000 x 50 scaled",
         kestrel=kestrel("kernel_logistic", {"kernel": "rbf", "gamma": 0.02, "C": 1, "nystrom": 500},
                         "train.scaled.csv", "test.scaled.csv"),
         anchors=[sklearn("Nystroem+LogisticRegression",
                          {"nystroem__gamma": 0.02, "nystroem__n_components": 500, "nystroem__random_state": 0,
                           "logisticregression__C": 1.0, "logisticregression__max_iter": 1000},
                          "train.scaled.csv", "test.scaled.csv", goal=Goal(train=0.5, accuracy_points=0.5))],
         requires=("kernel_logistic",)))
# k-NN: scikit-learn's algorithm='auto' picks brute force for d = 40 and a k-d tree for d = 9, as
# kestrel's does; both are exact, so the predictions must be identical.
add(Task("knn_multi5", "kernel", "multi5_dense",
         "k-NN k=5 euclidean (brute force), 50000 train / 12500 queries x 40 features, 5 classes",
         kestrel=kestrel("knn", {"n_neighbors": 5}, "train.csv", "test.csv"),
         anchors=[sklearn("KNeighborsClassifier", {"n_neighbors": 5, "n_jobs": "{threads}"}, "train.csv", "test.csv",
                          goal=Goal(total=0.5, agreement=1.0))],
         requires=("knn",)))
add(Task("knn_multi7", "kernel", "multi7_dense",
         "k-NN k=5 euclidean (k-d tree), 46000 train / 11500 queries x 9 features, 7 classes",
         kestrel=kestrel("knn", {"n_neighbors": 5}, "train.csv", "test.csv"),
         anchors=[sklearn("KNeighborsClassifier", {"n_neighbors": 5, "n_jobs": "{threads}"}, "train.csv", "test.csv",
                          goal=Goal(total=0.5, agreement=1.0))],
         requires=("knn",)))

# ---------------------------------------------------------------- trees (issue 7)
# "prediction throughput of each >= the anchor's": the predict stage (read model and data,
# predict, write) at most as slow as the anchor's.
FOREST_GOALS = {"scikit-learn": Goal(train=0.5, predict=1.0, accuracy_points=0.3, rmse_relative=0.01),
                "ranger": Goal(train=1.0, predict=1.0, accuracy_points=0.3, rmse_relative=0.01, rss=1.0)}
TREE_SETS = (
    ("letter", "shared:letter", "classification", 26, "letter 16000 x 16, 26 classes"),
    ("digits", "shared:digits", "classification", 10, "digits 1437 x 64, 10 classes"),
    ("binary", "binary_dense", "classification", 2, "synthetic binary 100000 x 50"),
    ("multi5", "multi5_dense", "classification", 5, "synthetic 50000 x 40, 5 classes"),
    ("friedman", "friedman", "regression", 0, "Friedman #1 regression 10000 x 20"),
)
for short, data, task, n_classes, shape in TREE_SETS:
    reg = task == "regression"
    rf = "RandomForestRegressor" if reg else "RandomForestClassifier"
    mtry = "max_features=0.333" if reg else "max_features=sqrt"
    add(Task(f"forest_{short}", "trees", data,
             f"random forest, 100 trees, {mtry}, fully grown, bootstrap, {{threads}} threads; {shape}",
             kestrel=kestrel("forest", {"n_estimators": 100}, "train.csv", "test.csv", extra="--seed {seed}"),
             anchors=[sklearn(rf, {"n_estimators": 100, "n_jobs": "{threads}", "random_state": "{seed}",
                                   "max_features": 0.333 if reg else "sqrt"}, "train.csv", "test.csv",
                              goal=FOREST_GOALS["scikit-learn"]),
                      # ranger's regression defaults differ from "fully grown, d/3": mtry
                      # floor(sqrt(d)) and min.node.size 5; give it kestrel's and
                      # scikit-learn's floor(d/3) (Friedman #1: d = 20 -> 6) and 1
                      ranger(task, {"num.trees": 100, "num.threads": "{threads}", "seed": "{seed}",
                                    **({"mtry": 6, "min.node.size": 1} if reg else {})}, "train.csv", "test.csv",
                             goal=FOREST_GOALS["ranger"])],
             requires=("forest",), heavy=short in ("binary", "multi5"), quality_seeds=(2, 3)))
    if reg:
        objective = {"objective": "reg:squarederror"}
    elif n_classes == 2:
        objective = {"objective": "binary:logistic"}
    else:
        objective = {"objective": "multi:softprob", "num_class": n_classes}
    loss = "squared" if reg else ("logistic" if n_classes == 2 else "softmax")
    add(Task(f"gbdt_{short}", "trees", data,
             f"histogram gradient boosting, {loss} loss, 100 rounds, depth 6, learning rate 0.1, 255 bins, "
             f"lambda 1, {{threads}} threads; {shape}",
             # min_data_in_leaf=0: XGBoost's rule (no row minimum in a leaf; kestrel's default is auto)
             kestrel=kestrel("gbdt", {"n_estimators": 100, "max_depth": 6, "learning_rate": 0.1, "max_bins": 255,
                                      "lambda": 1, "min_data_in_leaf": 0, "loss": loss}, "train.csv", "test.csv"),
             anchors=[xgboost(dict(objective, tree_method="hist", max_depth=6, eta=0.1, max_bin=255,
                                   min_child_weight=1, **{"lambda": 1}, nthread="{threads}"), 100,
                              "train.csv", "test.csv", goal=Goal(train=1.0, accuracy_points=None if reg else 1.0,
                                                                  rmse_relative=0.01))],
             requires=("gbdt",), heavy=short in ("letter", "multi5")))
    if short == "friedman":
        # Friedman #1 rises in x4 and x5 (0-based 3, 4): the same fit with those two features
        # constrained increasing (issue 19), the same constraint given to XGBoost.
        mono = "'(0,0,0,1,1)'"
        add(Task("gbdt_monotone_friedman", "trees", data,
                 f"histogram gradient boosting, squared loss, monotone_constraints (0,0,0,1,1), 100 rounds, "
                 f"depth 6, learning rate 0.1, 255 bins, lambda 1, {{threads}} threads; {shape}",
                 kestrel=kestrel("gbdt", {"n_estimators": 100, "max_depth": 6, "learning_rate": 0.1, "max_bins": 255,
                                          "lambda": 1, "min_data_in_leaf": 0, "loss": loss,
                                          "monotone_constraints": mono},
                                 "train.csv", "test.csv"),
                 anchors=[xgboost(dict(objective, tree_method="hist", max_depth=6, eta=0.1, max_bin=255,
                                       min_child_weight=1, **{"lambda": 1}, monotone_constraints=mono,
                                       nthread="{threads}"), 100, "train.csv", "test.csv",
                                  goal=Goal(train=1.0, rmse_relative=0.01))],
                 requires=("gbdt",)))
    if short in ("letter", "binary", "friedman"):
        dt = "DecisionTreeRegressor" if reg else "DecisionTreeClassifier"
        add(Task(f"tree_{short}", "trees", data, f"CART, max_depth 12, all features; {shape}",
                 kestrel=kestrel("tree", {"max_depth": 12}, "train.csv", "test.csv"),
                 anchors=[sklearn(dt, {"max_depth": 12, "random_state": 1}, "train.csv", "test.csv",
                                  goal=Goal(train=0.5, predict=1.0))],
                 requires=("tree",)))
# issue 19: prediction with a 500-round model, each side's whole predict process (start, read
# the model file and the 25000 test rows, walk every tree, write the predictions); XGBoost's
# own predict() call alone is in its JSON line (predict_s) for the predict-call comparison
add(Task("gbdt_predict500_binary", "trees", "binary_dense",
         "histogram gradient boosting, logistic loss, 500 rounds, depth 6, learning rate 0.1, 255 bins, lambda 1, "
         "{threads} threads, predict timed on 25000 rows; synthetic binary 100000 x 50",
         kestrel=kestrel("gbdt", {"n_estimators": 500, "max_depth": 6, "learning_rate": 0.1, "max_bins": 255,
                                  "lambda": 1, "min_data_in_leaf": 0, "loss": "logistic"}, "train.csv", "test.csv"),
         anchors=[xgboost(dict(objective="binary:logistic", tree_method="hist", max_depth=6, eta=0.1, max_bin=255,
                               min_child_weight=1, **{"lambda": 1}, nthread="{threads}"), 500,
                          "train.csv", "test.csv", goal=Goal(predict=0.5, accuracy_points=1.0))],
         requires=("gbdt",), heavy=True))
# issue 19: the other losses, each on data drawn from its own family (bench/data/gen.py
# glm_target), against XGBoost hist and scikit-learn's HistGradientBoostingRegressor where
# each has the loss (HistGradientBoosting 1.2: poisson, quantile; XGBoost 1.7: poisson,
# gamma, tweedie). Quality: the loss's own mean deviance / pinball loss on the test rows,
# at most 1 % above the anchor's. HistGradientBoosting gets the matched settings, no early
# stopping (its default turns it on above 10000 rows), no leaf-count limit (depth 6 bounds
# the trees as in the others) and its threads from OMP_NUM_THREADS.
# min_data_in_leaf=0: XGBoost's rule, so these rows measure what they measured before the
# default became auto (HistGradientBoosting keeps its own min_samples_leaf=20, as before).
GBDT_SETTINGS = {"n_estimators": 100, "max_depth": 6, "learning_rate": 0.1, "max_bins": 255, "lambda": 1,
                 "min_data_in_leaf": 0}
XGB_SETTINGS = dict(tree_method="hist", max_depth=6, eta=0.1, max_bin=255, min_child_weight=1, nthread="{threads}",
                    **{"lambda": 1})
HGB_SETTINGS = {"max_iter": 100, "max_depth": 6, "learning_rate": 0.1, "max_bins": 255, "l2_regularization": 1,
                "max_leaf_nodes": None, "early_stopping": False}
LOSS_GOAL = dict(train=0.5, predict=0.5, metric_relative=0.01)


def hist_gradient_boosting(params, train_file, test_file, goal):
    tool = sklearn("HistGradientBoostingRegressor", params, train_file, test_file, goal=goal)
    tool.train = "env OMP_NUM_THREADS={threads} " + tool.train
    tool.predict = "env OMP_NUM_THREADS={threads} " + tool.predict
    return tool


for short, data, kestrel_loss, xgb_objective, hgb_loss, metric, shape in (
    # HistGradientBoosting has no max_delta_step: it meets kestrel's poisson at matched
    # settings in gbdt_poisson_step0 below, not here at XGBoost's step of 0.7.
    ("poisson", "poisson_counts", {"loss": "poisson"}, {"objective": "count:poisson"}, None,
     "poisson_deviance", "Poisson counts 100000 x 20"),
    ("gamma", "gamma_positive", {"loss": "gamma"}, {"objective": "reg:gamma"}, None,
     "gamma_deviance", "Gamma targets 100000 x 20"),
    ("tweedie", "tweedie_claims", {"loss": "tweedie", "tweedie_variance_power": 1.5},
     {"objective": "reg:tweedie", "tweedie_variance_power": 1.5}, None,
     "tweedie_deviance:1.5", "compound Poisson-Gamma (Tweedie p=1.5) targets 100000 x 20"),
    ("quantile", "quantile_hetero", {"loss": "quantile", "alpha": 0.9}, None, {"loss": "quantile", "quantile": 0.9},
     "pinball:0.9", "heteroscedastic regression 100000 x 20, the 0.9 quantile"),
):
    anchors = []
    if xgb_objective:
        anchors.append(xgboost(dict(xgb_objective, **XGB_SETTINGS), 100, "train.csv", "test.csv",
                               goal=Goal(**LOSS_GOAL)))
    if hgb_loss:
        anchors.append(hist_gradient_boosting(dict(hgb_loss, **HGB_SETTINGS), "train.csv", "test.csv",
                                              Goal(**LOSS_GOAL)))
    loss_text = ", ".join(f"{k}={v}" for k, v in kestrel_loss.items())
    add(Task(f"gbdt_{short}", "trees", data,
             f"histogram gradient boosting, {loss_text}, 100 rounds, depth 6, learning rate 0.1, 255 bins, "
             f"lambda 1, {{threads}} threads; {shape}",
             # --task regression: Poisson counts are whole numbers, which kestrel would read as classes
             kestrel=kestrel("gbdt", dict(GBDT_SETTINGS, **kestrel_loss), "train.csv", "test.csv",
                             extra="--task regression"),
             # HistGradientBoosting takes ~40 s a fit on the loaded 2-core machine: no warm-up run
             anchors=anchors, requires=("gbdt",), metric=metric, heavy=hgb_loss is not None))
# count:poisson's max_delta_step 0.7 (kestrel's auto, as XGBoost) shortens every step, where
# HistGradientBoosting takes the plain Newton step: against it, kestrel's max_delta_step=0.
add(Task("gbdt_poisson_step0", "trees", "poisson_counts",
         "histogram gradient boosting, loss=poisson, max_delta_step=0, 100 rounds, depth 6, learning rate 0.1, "
         "255 bins, lambda 1, {threads} threads; Poisson counts 100000 x 20",
         kestrel=kestrel("gbdt", dict(GBDT_SETTINGS, loss="poisson", max_delta_step=0), "train.csv", "test.csv",
                         extra="--task regression"),
         anchors=[hist_gradient_boosting(dict(loss="poisson", **HGB_SETTINGS), "train.csv", "test.csv",
                                         Goal(**LOSS_GOAL))],
         requires=("gbdt",), metric="poisson_deviance", heavy=True))
add(Task("adaboost_binary", "trees", "svm_binary",
         "AdaBoost (SAMME), 100 decision stumps; synthetic binary 20000 x 50",
         kestrel=kestrel("adaboost", {"n_estimators": 100}, "train.csv", "test.csv"),
         anchors=[sklearn("AdaBoostClassifier", {"n_estimators": 100, "algorithm": "SAMME",
                                                 "estimator": "DecisionTreeClassifier(max_depth=1)"},
                          "train.csv", "test.csv", goal=Goal(predict=1.0, accuracy_points=0.3))],
         requires=("adaboost",)))
# issue 23: 200 stumps on multiclass sets, against scikit-learn's whole job (its CSV load
# and fit: the train stage), at its accuracy or better
for short, data, shape in (("multi7", "multi7_dense", "synthetic 46000 x 9, 7 classes (80% one class)"),
                           ("letter", "shared:letter", "letter 16000 x 16, 26 classes")):
    add(Task(f"adaboost_{short}", "trees", data,
             f"AdaBoost (SAMME), 200 decision stumps, {{threads}} threads; {shape}",
             kestrel=kestrel("adaboost", {"n_estimators": 200}, "train.csv", "test.csv"),
             anchors=[sklearn("AdaBoostClassifier", {"n_estimators": 200, "algorithm": "SAMME",
                                                     "estimator": "DecisionTreeClassifier(max_depth=1)"},
                              "train.csv", "test.csv", goal=Goal(train=0.5, accuracy_points=0.3))],
             requires=("adaboost",)))
# issue 23: both tools' defaults (tol 1e-3, n_iter_no_change 5, max_iter 1000, eta 1,
# shuffled; one-vs-rest over the 26 classes). The perceptron on unscaled, non-separable
# data ends wherever its last epochs leave it: accuracy varies by ±5 points from seed to
# seed in both tools (scikit-learn 1.2.1 over seeds 0-29: 35.3 % to 55.0 %), so quality is
# the mean over 20 seeds, not 3.
add(Task("perceptron_letter", "linear", "shared:letter",
         "perceptron with default parameters (one-vs-rest); letter 16000 x 16, 26 classes",
         kestrel=kestrel("perceptron", {}, "train.csv", "test.csv", extra="--seed {seed}"),
         anchors=[sklearn("Perceptron", {"random_state": "{seed}"}, "train.csv", "test.csv",
                          goal=Goal(train=1.0, accuracy_points=1.0))],
         requires=("perceptron",), quality_seeds=tuple(range(2, 21))))

# ---------------------------------------------------------------- selection (issue 8)
def kestrel_grid(name, model, fixed, grid, train_file, threads=T, goal=None):
    """kestrel-gridsearch; the best point is refit on all the data and written (-o)."""
    p = " ".join(f"-p {k}={v}" for k, v in fixed.items())
    g = " ".join(f"-g {axis}" for axis in grid)
    return Tool(name, train=_join("{kestrel}/kestrel-gridsearch -m", model, p, g, "-k 5", threads,
                                  f"{{data}}/{train_file} -o {{model}}"),
                goal=goal, extras=("cv_best",))


SVC_FIXED, SVC_GRID = {"eps": 0.001, "cache_mb": 200}, ("C=2^-1:2^7:2", "gamma=2^-13:2^5:2")
add(Task("gridsearch_svc_digits", "selection", "shared:digits",
         "grid search of C-SVC RBF over 5 C x 10 gamma = 50 points x 5-fold CV, digits scaled",
         quality=False,
         kestrel=kestrel_grid("kestrel", "svc", SVC_FIXED, SVC_GRID, "train.scaled.libsvm"),
         anchors=[Tool("LIBSVM grid.py",
                       train="svm-grid -log2c -1,7,2 -log2g -13,5,2 -v 5 -svmtrain /usr/bin/svm-train "
                             "-gnuplot null -out null -e 0.001 -m 200 {data}/train.scaled.libsvm",
                       goal=Goal(train=0.5), extras=("cv_best",)),
                  kestrel_grid("kestrel 1 thread", "svc", SVC_FIXED, SVC_GRID, "train.scaled.libsvm",
                               threads="--threads 1 -q", goal=Goal(train=0.6))],
         requires=("svc",), heavy=True))
LOGISTIC_FIXED, LOGISTIC_GRID = {"tol": LOGISTIC_TOL}, ("C=2^-5:2^5:1",)
add(Task("gridsearch_logistic", "selection", "svm_binary",
         "grid search of logistic C over 2^-5..2^5 (11 points) x 5-fold CV, synthetic binary 20000 x 50",
         quality=False,
         kestrel=kestrel_grid("kestrel", "logistic", LOGISTIC_FIXED, LOGISTIC_GRID, "train.libsvm"),
         anchors=[Tool("LIBLINEAR -v 5 loop",
                       train=f"bash {{anchors}}/liblinear_grid.sh {{data}}/train.libsvm -s 0 -e {LIBLINEAR_EPS} -B 1",
                       extras=("cv_best",)),
                  kestrel_grid("kestrel 1 thread", "logistic", LOGISTIC_FIXED, LOGISTIC_GRID, "train.libsvm",
                               threads="--threads 1 -q", goal=Goal(train=0.6))]))

# ---------------------------------------------------------------- simd (issue 23)
# The same kestrel binary twice: as built (AVX2 loops where the CPU has AVX2 and FMA) and with
# KESTREL_SIMD=generic (the portable loops, docs/reliability.md "Vector paths"). Both give
# identical models and predictions; only the time differs. The forest and gbdt
# rows have no dispatched loop yet (tree traversal is scalar on both paths): they show that.


def generic_path(tool, goal):
    """tool with the portable loops forced, as the anchor its own dispatched run is compared to"""
    env = "env KESTREL_SIMD=generic "
    return Tool("kestrel generic", train=env + tool.train, predict=env + tool.predict if tool.predict else None,
                goal=goal, extras=tool.extras)


def add_simd(name, dataset, what, tool, goal, requires, heavy=False):
    add(Task(name, "simd", dataset, what, kestrel=tool, anchors=[generic_path(tool, goal)], requires=requires,
             heavy=heavy))


SAME = dict(agreement=1.0)  # every prediction identical (classification); regression: max |diff| 0
add_simd("simd_knn_multi5", "multi5_dense",
         "k-NN k=5 euclidean, brute force, 50000 train / 12500 queries x 40 features: AVX2 screening vs portable",
         kestrel("knn", {"n_neighbors": 5, "algorithm": "brute"}, "train.csv", "test.csv"),
         Goal(predict=1.0, **SAME), ("knn",))
# One thread: at --threads 2 on a loaded machine the kernel rows' fork-joins (libgomp's
# spinning workers) cost more than the rows themselves and hide the loops compared here.
kt = kestrel("svc", {"C": 1, "gamma": 0.02, "eps": 0.001, "cache_mb": 200}, "train.scaled.libsvm",
             "test.scaled.libsvm")
kt.train = kt.train.replace("--threads {threads}", "--threads 1")
kt.extras = ("sv_count",)
add_simd("simd_svc_binary", "svm_binary",
         "C-SVC RBF C=1 gamma=1/50, synthetic binary 20000 x 50, training at --threads 1: kernel rows' dot "
         "products AVX2 vs portable",
         kt, Goal(train=1.0, **SAME), ("svc",))
FOREST_LETTER = kestrel("forest", {"n_estimators": 100}, "train.csv", "test.csv", extra="--seed {seed}")
GBDT_FRIEDMAN = kestrel("gbdt", {"n_estimators": 100, "max_depth": 6, "learning_rate": 0.1, "max_bins": 255,
                                 "lambda": 1, "min_data_in_leaf": 0}, "train.csv", "test.csv")
add_simd("simd_forest_letter", "shared:letter",
         "random forest, 100 trees, letter 16000 x 16: prediction of 4000 rows (the trees' walk: AVX-512 level "
         "tables, two tiers, vs the portable lockstep walk)",
         FOREST_LETTER, Goal(**SAME), ("forest",))
add_simd("simd_forest_letter_x10", "letter_x10",
         "the same forest predicting letter's test rows ten times over (40000 rows: the walk, not reading the "
         "model, is most of the process)",
         FOREST_LETTER, Goal(**SAME), ("forest",))
add_simd("simd_gbdt_friedman", "friedman",
         "gbdt, 100 rounds, depth 6, Friedman #1 10000 x 20: prediction of 2500 rows (the trees' walk: AVX-512 "
         "level tables vs the portable lockstep walk)",
         GBDT_FRIEDMAN, Goal(agreement=0.0), ("gbdt",))
add_simd("simd_gbdt_friedman_x20", "friedman_x20",
         "the same gbdt predicting Friedman's test rows twenty times over (50000 rows)",
         GBDT_FRIEDMAN, Goal(agreement=0.0), ("gbdt",))

FAMILIES = ["io", "linear", "svm", "kernel", "trees", "selection", "simd"]
