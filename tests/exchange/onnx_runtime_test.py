#!/usr/bin/python3
"""kestrel-export --to onnx against ONNX Runtime (issue 48; docs/exchange.md).

For each case: kestrel-train fits a model on a bundled set (kestrel-cv --tune-threshold f1 -o
for a model with a saved decision threshold), kestrel-export writes it as
ONNX, onnx.checker.check_model(full_check=True) (Debian's python3-onnx 1.12) accepts the
file, ONNX Runtime (npm's onnxruntime-node, through ort_score.js) scores the set's test
rows given as float32 (numeric columns) and strings (categorical ones), and kestrel-predict
scores the same rows. Asserted: the labels are identical, and the largest absolute
difference of the probabilities, of the decision values (`scores`, against kestrel-predict
--decision) and of the regression outputs is at most 1e-5. The
per-case largest differences are printed. Then the refusals: a model or setting ONNX
cannot express exits 2 with one line on stderr and writes no file.

  onnx_runtime_test.py BIN_DIR SOURCE_DIR ORT_PACKAGE_DIR

Exit 77 (skipped) when onnx, node or onnxruntime-node is missing, unless CI is set: there
the exchange tests must run, so a missing runtime fails.
"""
import csv
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile

TOLERANCE = 1e-5
# A case whose 1e-5 is asserted against kestrel-predict on the float32 values ONNX Runtime
# is given (the export's own error), its difference from the file's doubles only printed.
FLOAT32_ANCHOR = "float32 anchor"
# A case fitted by kestrel-cv --tune-threshold f1 -o (the model file keeps the tuned decision
# threshold, which kestrel-predict applies) instead of kestrel-train.
TUNED_THRESHOLD = "tuned threshold"
# A case fitted by kestrel-auto ... -o (a model of kind ensemble: a bag of fold models, an
# --ensemble's weighted members, or a --stack) instead of kestrel-train.
AUTO = "kestrel-auto"
MISSING = {"", "NA", "N/A", "NaN", "nan", "NAN", "?"}

# name, kestrel-train arguments, train file, test file (relative to the source tree)
IRIS = ("data/iris/train.csv", "data/iris/test.csv")
HEART = ("data/heart_scale/train.csv", "data/heart_scale/test.csv")
DIABETES = ("data/diabetes/train.csv", "data/diabetes/test.csv")
PENGUINS = ("data/tables/penguins/train.csv", "data/tables/penguins/test.csv")
CREDIT = ("data/tables/credit_data/train.csv", "data/tables/credit_data/test.csv")
CASES = [
    ("tree iris", ["-m", "tree"], IRIS),
    ("forest iris", ["-m", "forest", "-p", "n_estimators=25"], IRIS),
    ("gbdt iris softmax", ["-m", "gbdt", "-p", "n_estimators=30"], IRIS),
    ("gbdt iris standard", ["-m", "gbdt", "-p", "n_estimators=20", "--scale", "standard"], IRIS),
    ("gbdt heart logistic", ["-m", "gbdt", "-p", "n_estimators=40"], HEART),
    ("forest heart minmax", ["-m", "forest", "-p", "n_estimators=20", "--scale", "minmax"], HEART),
    ("tree diabetes", ["-m", "tree", "-p", "max_depth=6"], DIABETES),
    ("forest diabetes", ["-m", "forest", "-p", "n_estimators=20"], DIABETES),
    ("gbdt diabetes squared", ["-m", "gbdt", "-p", "n_estimators=50"], DIABETES),
    ("gbdt diabetes poisson", ["-m", "gbdt", "-p", "n_estimators=50", "-p", "loss=poisson"], DIABETES),
    ("gbdt diabetes poly 2", ["-m", "gbdt", "-p", "n_estimators=20", "--poly", "2"], DIABETES),
    ("gbdt penguins native categories", ["-m", "gbdt", "-p", "n_estimators=30", "--label-col", "species"], PENGUINS),
    ("forest penguins native categories", ["-m", "forest", "-p", "n_estimators=20", "--label-col", "species"], PENGUINS),
    ("tree penguins onehot, median, indicator",
     ["-m", "tree", "--label-col", "species", "--encode", "onehot", "--missing", "median", "--missing-indicator"], PENGUINS),
    ("gbdt credit native categories", ["-m", "gbdt", "-p", "n_estimators=40", "--label-col", "Status"], CREDIT),
    ("tree credit native categories", ["-m", "tree", "-p", "max_depth=8", "--label-col", "Status"], CREDIT),
    ("gbdt credit ordinal", ["-m", "gbdt", "-p", "n_estimators=20", "--label-col", "Status", "--encode", "ordinal"], CREDIT),
    ("forest credit onehot, mean", ["-m", "forest", "-p", "n_estimators=15", "--label-col", "Status", "--encode", "onehot",
                                    "--missing", "mean"], CREDIT),
    ("logistic iris multinomial standard", ["-m", "logistic", "--scale", "standard"], IRIS),
    ("logistic heart binary", ["-m", "logistic"], HEART),
    ("logistic credit onehot, median, indicator, standard",
     ["-m", "logistic", "--label-col", "Status", "--missing", "median", "--missing-indicator", "--scale", "standard"], CREDIT),
    ("linear_svm heart (labels, scores)", ["-m", "linear_svm"], HEART),
    ("perceptron heart minmax (labels, scores)", ["-m", "perceptron", "--scale", "minmax"], HEART),
    # A linear prediction of a few hundred moves by 2e-5 to 5e-5 when its inputs are rounded
    # to float32: asserted against kestrel on those float32 values (FLOAT32_ANCHOR).
    ("ridge diabetes", ["-m", "ridge"], DIABETES, FLOAT32_ANCHOR),
    ("lasso diabetes poly 2 standard", ["-m", "lasso", "--poly", "2", "--scale", "standard"], DIABETES, FLOAT32_ANCHOR),
    ("elastic_net diabetes", ["-m", "elastic_net"], DIABETES, FLOAT32_ANCHOR),
    ("least_squares diabetes", ["-m", "least_squares"], DIABETES, FLOAT32_ANCHOR),
    ("huber diabetes standard", ["-m", "huber", "--scale", "standard"], DIABETES, FLOAT32_ANCHOR),
    ("lad diabetes", ["-m", "lad"], DIABETES, FLOAT32_ANCHOR),
    ("quantile diabetes", ["-m", "quantile", "-p", "alpha=0.8"], DIABETES, FLOAT32_ANCHOR),
    ("linear_svr diabetes standard", ["-m", "linear_svr", "--scale", "standard"], DIABETES, FLOAT32_ANCHOR),
    ("lp_svm heart (labels, scores)", ["-m", "lp_svm"], HEART),
    # Multiclass wrappers of linear members: one column per member, then the strategy.
    ("linear_svm iris one-vs-rest standard (labels, scores)", ["-m", "linear_svm", "--scale", "standard"], IRIS),
    ("perceptron iris one-vs-one standard (labels, scores)",
     ["-m", "perceptron", "-p", "multiclass=ovo", "--scale", "standard"], IRIS),
    # Error-correcting output codes: the members' decision values decoded against each
    # class's codeword (loss-based, or Hamming); two classes keep their two columns.
    ("linear_svm iris ecoc standard (labels, scores)",
     ["-m", "linear_svm", "-p", "multiclass=ecoc", "--scale", "standard"], IRIS),
    ("perceptron iris ecoc hamming, code_size 3 (labels, scores)",
     ["-m", "perceptron", "-p", "multiclass=ecoc", "-p", "decoding=hamming", "-p", "code_size=3", "--scale",
      "standard"], IRIS),
    ("linear_svm heart ecoc, two classes (labels, scores)", ["-m", "linear_svm", "-p", "multiclass=ecoc"], HEART),
    ("linear_svm penguins one-vs-one, onehot, median (labels, scores)",
     ["-m", "linear_svm", "-p", "multiclass=ovo", "--label-col", "species", "--missing", "median"], PENGUINS),
    # Wrappers with probabilities (logistic, kernel_logistic members): one-vs-rest's P(positive)
    # over their sum, one-vs-one's pairwise coupling (the svc's Loop); the label stays the
    # decisions'. Measured with ONNX Runtime 1.31.1 (2026-12-07), against the file's doubles /
    # on the float32 values: logistic ovr 5.4e-8 / 3.0e-8, ovo 8.3e-8 / 2.9e-8, penguins ovo
    # 3.0e-7 / 2.9e-8, five classes (below) 1.2e-7 / 2.9e-8; kernel_logistic ovo 6.5e-8 /
    # 2.8e-8, ovr 6.3e-8 / 3.0e-8.
    ("logistic iris one-vs-rest standard (probabilities)", ["-m", "logistic", "-p", "multiclass=ovr", "--scale",
                                                            "standard"], IRIS),
    ("logistic iris one-vs-one standard (pairwise coupling)", ["-m", "logistic", "-p", "multiclass=ovo", "--scale",
                                                               "standard"], IRIS),
    ("logistic penguins one-vs-one, onehot, median (pairwise coupling)",
     ["-m", "logistic", "-p", "multiclass=ovo", "--label-col", "species", "--missing", "median"], PENGUINS),
    ("kernel_logistic iris one-vs-one standard (pairwise coupling)",
     ["-m", "kernel_logistic", "-p", "multiclass=ovo", "--scale", "standard"], IRIS),
    ("kernel_logistic iris one-vs-rest standard, laplacian (probabilities)",
     ["-m", "kernel_logistic", "-p", "multiclass=ovr", "-p", "kernel=laplacian", "--scale", "standard"], IRIS),
    # Calibrated: the decisions mapped (3.0e-8 / 2.9e-8 measured).
    ("logistic iris one-vs-one standard, sigmoid calibration",
     ["-m", "logistic", "-p", "multiclass=ovo", "--scale", "standard", "--calibrate", "sigmoid"], IRIS),
    # The kernel SVMs: labels by the one-vs-one votes, as kestrel predicts.
    ("svc iris standard (labels, scores)", ["-m", "svc", "--scale", "standard"], IRIS),
    ("svc heart probability=1", ["-m", "svc", "-p", "probability=1"], HEART),
    # probability=1 over three classes or more: the pairs' Platt sigmoids coupled by a Loop
    # (LIBSVM's multiclass_probability as kestrel computes it, each row stopping at kestrel's
    # iteration: a row stopping one iteration early or late would move by about the stopping
    # rule's 0.005 / k, far above 1e-5). Five classes: diabetes_classes below. Measured with
    # ONNX Runtime 1.31.1 (2026-12-07), against the file's doubles / on the float32 values:
    # svc iris 2.2e-7 / 3.0e-8, nu_svc iris 1.3e-7 / 2.9e-8, svc penguins 3.9e-8 / 3.0e-8;
    # five classes svc 9.1e-8 / 1.9e-8, nu_svc 6.6e-8 / 1.8e-8 (the float32 outputs' rounding).
    ("svc iris probability=1 (pairwise coupling)", ["-m", "svc", "-p", "probability=1"], IRIS),
    ("nu_svc iris probability=1, laplacian, standard (pairwise coupling)",
     ["-m", "nu_svc", "-p", "probability=1", "-p", "kernel=laplacian", "--scale", "standard"], IRIS),
    ("svc penguins probability=1, onehot, median, standard (pairwise coupling)",
     ["-m", "svc", "-p", "probability=1", "--label-col", "species", "--missing", "median", "--scale", "standard"],
     PENGUINS),
    ("svc heart poly (labels, scores)", ["-m", "svc", "-p", "kernel=poly(degree=2,coef0=1)"], HEART),
    ("nu_svc iris laplacian standard (labels, scores)", ["-m", "nu_svc", "-p", "kernel=laplacian", "--scale", "standard"],
     IRIS),
    ("svc credit onehot, median, standard, 0.7*rbf+0.3*anova (labels, scores)",
     ["-m", "svc", "--label-col", "Status", "--missing", "median", "--scale", "standard", "-p",
      "kernel=0.7*rbf+0.3*anova(degree=1)"], CREDIT),
    ("svr diabetes standard, scale_target", ["-m", "svr", "--scale", "standard", "-p", "scale_target=1"], DIABETES,
     FLOAT32_ANCHOR),
    ("nu_svr diabetes minmax, min kernel", ["-m", "nu_svr", "--scale", "minmax", "-p", "kernel=min"], DIABETES,
     FLOAT32_ANCHOR),
    # one_class: +1 / -1 as kestrel-predict's prediction (`variable`), the decision value beside it.
    ("one_class heart (prediction, scores)", ["-m", "one_class"], HEART),
    ("one_class iris standard, nu 0.2 (prediction, scores)", ["-m", "one_class", "--scale", "standard", "-p", "nu=0.2"],
     IRIS),
    # The kernel expansions: K(X, rows) coef + intercept.
    ("kernel_ridge diabetes standard", ["-m", "kernel_ridge", "--scale", "standard"], DIABETES, FLOAT32_ANCHOR),
    ("kernel_logistic heart", ["-m", "kernel_logistic"], HEART),
    ("kernel_logistic iris standard, laplacian", ["-m", "kernel_logistic", "--scale", "standard", "-p",
                                                  "kernel=laplacian"], IRIS),
    ("kernel_perceptron heart poly (labels, scores)", ["-m", "kernel_perceptron", "-p", "kernel=poly(degree=2)"], HEART),
    ("kernel_perceptron iris one-vs-rest standard (labels, scores)", ["-m", "kernel_perceptron", "--scale", "standard"],
     IRIS),
    ("kernel_perceptron iris ecoc standard (labels, scores)",
     ["-m", "kernel_perceptron", "-p", "multiclass=ecoc", "--scale", "standard"], IRIS),
    # adaboost over trees: each tree's α to the class it predicts (decision_function's values).
    ("adaboost heart stumps (labels, scores)", ["-m", "adaboost"], HEART),
    ("adaboost iris SAMME, depth 2, standard (labels, scores)",
     ["-m", "adaboost", "-p", "base=tree(max_depth=2)", "-p", "n_estimators=30", "--scale", "standard"], IRIS),
    ("adaboost penguins native categories (labels, scores)",
     ["-m", "adaboost", "-p", "base=tree(max_depth=3)", "-p", "n_estimators=20", "--label-col", "species"], PENGUINS),
    ("adaboost heart, sigmoid calibration", ["-m", "adaboost", "-p", "n_estimators=20", "--calibrate", "sigmoid"], HEART),
    # adaboost over linear weak learners: each learner's class from its scores (z > 0, or the
    # first largest), its α to that class. Measured with ONNX Runtime 1.31.1 (2026-12-07),
    # against the file's doubles: heart 3.7e-8, iris SAMME 7.6e-7 (sums of α of about 10 as
    # float32 scores), calibrated 2.2e-8.
    ("adaboost heart base=logistic (labels, scores)", ["-m", "adaboost", "-p", "base=logistic", "-p", "n_estimators=10"],
     HEART),
    ("adaboost iris SAMME base=logistic, standard (labels, scores)",
     ["-m", "adaboost", "-p", "base=logistic", "-p", "n_estimators=10", "--scale", "standard"], IRIS),
    ("adaboost heart base=linear_svm, sigmoid calibration",
     ["-m", "adaboost", "-p", "base=linear_svm", "-p", "n_estimators=10", "--calibrate", "sigmoid"], HEART),
    # knn: exact distances to the kept rows, TopK, the weighted vote or mean.
    ("knn iris standard", ["-m", "knn", "--scale", "standard"], IRIS),
    ("knn iris", ["-m", "knn", "-p", "n_neighbors=7"], IRIS),
    ("knn heart distance weights", ["-m", "knn", "-p", "weights=distance"], HEART),
    ("knn heart manhattan", ["-m", "knn", "-p", "metric=manhattan", "-p", "n_neighbors=9"], HEART),
    ("knn iris cosine, distance weights", ["-m", "knn", "-p", "metric=cosine", "-p", "weights=distance"], IRIS),
    ("knn diabetes standard", ["-m", "knn", "--scale", "standard"], DIABETES, FLOAT32_ANCHOR),
    ("knn diabetes manhattan, distance weights", ["-m", "knn", "-p", "metric=manhattan", "-p", "weights=distance"],
     DIABETES, FLOAT32_ANCHOR),
    ("knn penguins onehot, median, standard", ["-m", "knn", "--label-col", "species", "--encode", "onehot", "--missing",
                                               "median", "--scale", "standard"], PENGUINS),
    ("knn heart, isotonic calibration", ["-m", "knn", "--calibrate", "isotonic"], HEART),
    # metric=kernel: max(0, k(x, x) - 2 k(x, z) + k(z, z)), k(z, z) as kestrel's Kernel gives it.
    # Measured with ONNX Runtime 1.31.1 (2026-12-07), against the file's doubles: rbf iris
    # 2.4e-8, poly heart with distance weights 6.6e-7 (the kernel values' rounding, amplified
    # by 1/distance), laplacian diabetes 0, calibrated heart 3.0e-8.
    ("knn iris metric=kernel (rbf), standard", ["-m", "knn", "-p", "metric=kernel", "--scale", "standard"], IRIS),
    ("knn heart metric=kernel, poly(2), distance weights",
     ["-m", "knn", "-p", "metric=kernel", "-p", "kernel=poly(degree=2)", "-p", "weights=distance"], HEART),
    ("knn diabetes metric=kernel, laplacian, standard",
     ["-m", "knn", "-p", "metric=kernel", "-p", "kernel=laplacian", "--scale", "standard"], DIABETES),
    ("knn heart metric=kernel, sigmoid calibration",
     ["-m", "knn", "-p", "metric=kernel", "--calibrate", "sigmoid"], HEART),
    # Probability calibration (--calibrate) on the estimator's decision values or probabilities.
    ("logistic heart, sigmoid calibration", ["-m", "logistic", "--calibrate", "sigmoid"], HEART),
    ("gbdt heart logistic, isotonic calibration", ["-m", "gbdt", "-p", "n_estimators=20", "--calibrate", "isotonic"],
     HEART),
    ("forest heart, sigmoid calibration", ["-m", "forest", "-p", "n_estimators=20", "--calibrate", "sigmoid"], HEART),
    ("forest iris, isotonic calibration", ["-m", "forest", "-p", "n_estimators=20", "--calibrate", "isotonic"], IRIS),
    ("gbdt iris softmax, sigmoid calibration", ["-m", "gbdt", "-p", "n_estimators=20", "--calibrate", "sigmoid"], IRIS),
    ("linear_svm iris one-vs-rest standard, isotonic calibration",
     ["-m", "linear_svm", "--scale", "standard", "--calibrate", "isotonic"], IRIS),
    ("svc iris standard, sigmoid calibration", ["-m", "svc", "--scale", "standard", "--calibrate", "sigmoid"], IRIS),
    # A calibration maps the decision values (no coupling in the file): 3.9e-8 / 3.0e-8 measured.
    ("svc iris probability=1, sigmoid calibration", ["-m", "svc", "-p", "probability=1", "--calibrate", "sigmoid"],
     IRIS),
    ("svc heart probability=1, isotonic calibration", ["-m", "svc", "-p", "probability=1", "--calibrate", "isotonic"],
     HEART),
    ("kernel_logistic heart, isotonic calibration", ["-m", "kernel_logistic", "--calibrate", "isotonic"], HEART),
    ("logistic credit onehot, median, standard, isotonic calibration",
     ["-m", "logistic", "--label-col", "Status", "--missing", "median", "--scale", "standard", "--calibrate",
      "isotonic"], CREDIT),
    # A saved decision threshold (kestrel-cv --tune-threshold): the label is score > threshold.
    ("logistic heart, tuned threshold", ["-m", "logistic"], HEART, TUNED_THRESHOLD),
    ("linear_svm heart, tuned threshold (labels, scores)", ["-m", "linear_svm"], HEART, TUNED_THRESHOLD),
    ("gbdt heart, isotonic calibration, tuned threshold",
     ["-m", "gbdt", "-p", "n_estimators=20", "--calibrate", "isotonic"], HEART, TUNED_THRESHOLD),
    # Thresholds over the newly exported: 3.7e-8 and 2.4e-8 measured (2026-12-07).
    ("adaboost heart base=logistic, tuned threshold (labels, scores)",
     ["-m", "adaboost", "-p", "base=logistic", "-p", "n_estimators=10"], HEART, TUNED_THRESHOLD),
    ("knn heart metric=kernel, tuned threshold", ["-m", "knn", "-p", "metric=kernel"], HEART, TUNED_THRESHOLD),
    # Multiclass wrappers of members of any family (onnx_wrapper_scores): each member's nodes as
    # its family exports it alone, its decision value (else P(positive) - 1/2) and its
    # P(positive) side by side, then the wrapper's combination as for the linear members.
    # Measured with ONNX Runtime 1.31.1 (2026-12-07), against the file's doubles: gbdt ovr
    # 2.9e-8, gbdt ovo penguins 2.9e-8, forest ovr 2.7e-8, tree ovo penguins 2.9e-8, svc ovo
    # probability=1 1.1e-7, svc ovr probability=1 1.1e-7, nu_svc ovr scores 1.7e-7, knn ovr
    # 2.4e-8, adaboost ovr scores 4.6e-7, gbdt ecoc 2.0e-7, forest ecoc hamming 1.2e-7,
    # calibrated gbdt ovr 2.7e-8; adaboost base=svc 8.8e-8, base=gbdt SAMME 4.1e-7, base=svc
    # calibrated 3.0e-8. Labels identical throughout.
    ("gbdt iris one-vs-rest (probabilities)", ["-m", "gbdt", "-p", "multiclass=ovr", "-p", "n_estimators=20"], IRIS),
    ("gbdt penguins one-vs-one, native categories (pairwise coupling)",
     ["-m", "gbdt", "-p", "multiclass=ovo", "-p", "n_estimators=15", "--label-col", "species"], PENGUINS),
    ("forest iris one-vs-rest (probabilities)", ["-m", "forest", "-p", "multiclass=ovr", "-p", "n_estimators=15"], IRIS),
    ("tree penguins one-vs-one, native categories (pairwise coupling)",
     ["-m", "tree", "-p", "multiclass=ovo", "-p", "max_depth=4", "--label-col", "species"], PENGUINS),
    ("svc iris one-vs-one probability=1, standard (pairwise coupling of svc members)",
     ["-m", "svc", "-p", "multiclass=ovo", "-p", "probability=1", "--scale", "standard"], IRIS),
    ("svc iris one-vs-rest probability=1, standard (probabilities)",
     ["-m", "svc", "-p", "multiclass=ovr", "-p", "probability=1", "--scale", "standard"], IRIS),
    ("nu_svc iris one-vs-rest, laplacian, standard (labels, scores)",
     ["-m", "nu_svc", "-p", "multiclass=ovr", "-p", "kernel=laplacian", "--scale", "standard"], IRIS),
    ("knn iris one-vs-rest standard (probabilities)", ["-m", "knn", "-p", "multiclass=ovr", "--scale", "standard"],
     IRIS),
    # Distance weights on iris, whose test rows repeat training rows: on the file's doubles a
    # zero distance takes all the weight, on the float32 inputs a distance of ~1e-7 nearly all
    # (0.11 apart, as knn alone); asserted on the float32 values (FLOAT32_ANCHOR).
    ("knn iris one-vs-one, distance weights (pairwise coupling)",
     ["-m", "knn", "-p", "multiclass=ovo", "-p", "weights=distance"], IRIS, FLOAT32_ANCHOR),
    ("adaboost iris one-vs-rest, stumps (labels, scores)", ["-m", "adaboost", "-p", "multiclass=ovr"], IRIS),
    ("gbdt iris ecoc (labels, scores)", ["-m", "gbdt", "-p", "multiclass=ecoc", "-p", "n_estimators=15"], IRIS),
    ("forest iris ecoc hamming (labels, scores: the members' logits)",
     ["-m", "forest", "-p", "multiclass=ecoc", "-p", "decoding=hamming", "-p", "n_estimators=15"], IRIS),
    ("gbdt iris one-vs-rest, sigmoid calibration",
     ["-m", "gbdt", "-p", "multiclass=ovr", "-p", "n_estimators=20", "--calibrate", "sigmoid"], IRIS),
    # Two classes: the wrapper's one member as it is (2.97e-8); knn under ecoc, whose members'
    # probabilities of 0 or 1 become logits of ±27.6 and decoded scores of tens (3.8e-6: their
    # float32 rounding); a calibration over a wrapper with probabilities (1.1e-7).
    ("gbdt credit one-vs-rest, two classes, native categories",
     ["-m", "gbdt", "-p", "multiclass=ovr", "-p", "n_estimators=10", "--label-col", "Status"], CREDIT),
    ("knn penguins ecoc, onehot, median, standard (labels, scores)",
     ["-m", "knn", "-p", "multiclass=ecoc", "--label-col", "species", "--encode", "onehot", "--missing", "median",
      "--scale", "standard"], PENGUINS),
    ("svc iris one-vs-one probability=1, isotonic calibration",
     ["-m", "svc", "-p", "multiclass=ovo", "-p", "probability=1", "--calibrate", "isotonic"], IRIS),
    # adaboost over weak learners of other families: each learner's class from its own
    # nodes (onnx_label_index: svc's votes, gbdt's first most probable class), its α there.
    ("adaboost heart base=svc (labels, scores)", ["-m", "adaboost", "-p", "base=svc", "-p", "n_estimators=5"], HEART),
    ("adaboost iris SAMME base=gbdt (labels, scores)",
     ["-m", "adaboost", "-p", "base=gbdt(n_estimators=5)", "-p", "n_estimators=5"], IRIS),
    ("adaboost heart base=svc, sigmoid calibration",
     ["-m", "adaboost", "-p", "base=svc", "-p", "n_estimators=5", "--calibrate", "sigmoid"], HEART),
    # A forest learner (3.9e-7), and learners that are themselves one-vs-rest wrappers of svc
    # members (3.5e-7).
    ("adaboost iris SAMME base=forest (labels, scores)",
     ["-m", "adaboost", "-p", "base=forest(n_estimators=5,max_depth=2)", "-p", "n_estimators=4"], IRIS),
    ("adaboost iris SAMME base=svc(multiclass=ovr), standard (labels, scores)",
     ["-m", "adaboost", "-p", "base=svc(multiclass=ovr)", "-p", "n_estimators=4", "--scale", "standard"], IRIS),
    # kestrel-auto's models (kind ensemble): each member's subgraph on the same inputs, their
    # probabilities or predictions weighted and added in the members' order; a stack's groups
    # side by side, then its second layer. Measured with ONNX Runtime 1.31.1 (2026-12-07),
    # against the file's doubles (asserted): bag 6.5e-8, heart ensemble 2.9e-8, iris ensemble
    # 1.1e-7, heart stack 3.1e-8; diabetes ensemble 1.4e-6, stack 2.8e-6 (knn's distance
    # weights carry the inputs' float32 rounding). On the float32 values the trees' float
    # ties move them by up to 0.66 (diabetes), as for the trees alone.
    ("auto bag of 5 fold models (iris)", ["--max-evals", "6", "--models", "logistic,forest,knn"], IRIS, AUTO),
    ("auto --ensemble, log_loss: logistic, knn, gbdt fold models (heart)",
     ["--metric", "log_loss", "--max-evals", "12", "--models", "logistic,forest,gbdt,knn,svc", "--ensemble"], HEART,
     AUTO),
    ("auto --ensemble, log_loss: logistic, gbdt fold models (iris)",
     ["--metric", "log_loss", "--max-evals", "12", "--models", "logistic,forest,gbdt,knn,svc", "--ensemble"], IRIS, AUTO),
    ("auto --stack, log_loss: logistic, forest, knn, gbdt under a bagged logistic (heart)",
     ["--metric", "log_loss", "--max-evals", "12", "--models", "logistic,forest,gbdt,knn,svc", "--stack"], HEART, AUTO),
    # Regression: members without the linear models' float32 caveat (which, with the trees'
    # float ties on the float32 values, would leave neither anchor within 1e-5).
    ("auto --ensemble: forest, knn fold models (diabetes)",
     ["--seed", "1", "--max-evals", "12", "--models", "gbdt,knn,forest", "--ensemble"], DIABETES, AUTO),
    ("auto --stack: forest, knn, gbdt under a bagged ridge (diabetes)",
     ["--seed", "1", "--max-evals", "12", "--models", "gbdt,knn,forest", "--stack"], DIABETES, AUTO),
    # --stack-features: the second layer also reads the table's own columns (the raw matrix,
    # string columns as their category codes) after the groups' columns. Measured with ONNX
    # Runtime 1.31.1 (2026-12-07) against the file's doubles: heart 3.6e-8, credit_data 3.0e-8
    # (both stacks kept, stack_features recorded).
    ("auto --stack --stack-features, log_loss (heart)",
     ["--metric", "log_loss", "--max-evals", "12", "--models", "logistic,forest,gbdt,knn,svc", "--stack",
      "--stack-features"], HEART, AUTO),
    ("auto --stack --stack-features, log_loss, string columns and missing cells (credit_data)",
     ["--seed", "1", "--metric", "log_loss", "--max-evals", "10", "--models", "logistic,forest,gbdt", "--stack",
      "--stack-features"], CREDIT, AUTO),
]
# Models or settings ONNX cannot express (yet): kestrel-export refuses them.
REFUSED = [
    ("linear_svm iris --zipmap (no probabilities to map)", ["-m", "linear_svm"], IRIS, ["--zipmap"]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def check(ok, what):
    if not ok:
        print("FAIL: " + what)
        sys.exit(1)


def read_table(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def ort_inputs(model, test_path):
    """The test rows as the graph inputs ask for them: float32 numbers (None: missing) or text."""
    header, rows = read_table(test_path)
    columns = {}
    for value_info in model.graph.input:
        name = value_info.name
        j = header.index(name)
        is_string = value_info.type.tensor_type.elem_type == 8
        if is_string:
            columns[name] = {"type": "string", "values": [r[j] for r in rows]}
        else:
            columns[name] = {"type": "float", "values": [None if r[j].strip() in MISSING else float(r[j]) for r in rows]}
    return columns


def kestrel_scores(args, model_json, test_path, work, classification, proba):
    pred = os.path.join(work, "pred.csv")
    cmd = [os.path.join(args.bin, "kestrel-predict"), model_json, test_path, "-o", pred, "-q"]
    if classification:
        cmd.append("--proba" if proba else "--decision")
    r = run(cmd)
    check(r.returncode == 0, "kestrel-predict: " + r.stderr)
    header, rows = read_table(pred)
    return header, rows


def float32_table(model, test_path, out_path):
    """The test file with each numeric input cell replaced by the double its float32 rounding is."""
    header, rows = read_table(test_path)
    numeric = [header.index(v.name) for v in model.graph.input if v.type.tensor_type.elem_type != 8]
    for r in rows:
        for j in numeric:
            if r[j].strip() not in MISSING:
                r[j] = repr(struct.unpack("f", struct.pack("f", float(r[j])))[0])
    with open(out_path, "w", newline="") as f:
        csv.writer(f).writerows([header] + rows)


def differences(name, ort, header, rows):
    """(labels differing, largest absolute difference) of ONNX Runtime against kestrel-predict's table."""
    if "variable" in ort:
        got = ort["variable"]["data"]
        want = [float(r[header.index("prediction")]) for r in rows]
        check(len(got) == len(want), name + ": row counts differ")
        if "scores" in ort:  # one_class: +1 exactly where its decision value is above 0
            check(all((s > 0) == (v == 1) for s, v in zip(ort["scores"]["data"], got)),
                  name + ": the prediction is not the sign of the scores")
        return 0, max(abs(a - b) for a, b in zip(got, want))
    labels = [str(x) for x in ort["label"]["data"]]
    want_labels = [r[header.index("prediction")] for r in rows]
    check(len(labels) == len(want_labels), name + ": row counts differ")
    mismatched = sum(a != b for a, b in zip(labels, want_labels))
    # A classifier without probabilities: its scores against kestrel-predict --decision.
    output, prefix = ("scores", "decision") if "scores" in ort else ("probabilities", "proba_")
    proba_columns = [i for i, h in enumerate(header) if h.startswith(prefix)]
    k = len(proba_columns)
    got = ort[output]["data"]
    check(len(got) == k * len(rows), name + ": output sizes differ")
    return mismatched, max(abs(got[i * k + c] - float(r[j])) for i, r in enumerate(rows) for c, j in enumerate(proba_columns))


def diabetes_classes(args, work, classes=5):
    """diabetes with its target cut at the training target's quantiles into `classes` classes
    (c0 ... c4): a set of more than three classes for the pairwise coupling, whose p·Qp Eigen
    adds in another order from four terms up. Returns the (train, test) paths."""
    paths = []
    header, train_rows = read_table(os.path.join(args.source, DIABETES[0]))
    targets = sorted(float(r[0]) for r in train_rows)
    cuts = [targets[len(targets) * c // classes] for c in range(1, classes)]
    for path in DIABETES:
        _, rows = read_table(os.path.join(args.source, path))
        out = os.path.join(work, "diabetes_classes_" + os.path.basename(path))
        with open(out, "w", newline="") as f:
            csv.writer(f).writerows([header] + [["c%d" % sum(float(r[0]) >= c for c in cuts)] + r[1:] for r in rows])
        paths.append(out)
    return tuple(paths)


def precomputed_iris(args, work):
    """iris's training rows in the precomputed-kernel layout (docs/models/svc.md): the label, the
    row's serial number, then its linear kernel values against every training row. Returns the
    (train, test) paths, both this file: a test row's kernel values are against the training rows."""
    header, rows = read_table(os.path.join(args.source, IRIS[0]))
    x = [[float(v) for v in r[1:]] for r in rows]
    out = os.path.join(work, "iris_precomputed.csv")
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([header[0], "serial"] + ["k%d" % (j + 1) for j in range(len(x))])
        for i, r in enumerate(rows):
            w.writerow([r[0], i + 1] + [repr(sum(a * b for a, b in zip(x[i], z))) for z in x])
    return out, out


def compare(case, args, onnx_mod, work):
    """Asserted against kestrel-predict on the file's own doubles (the trees' float
    thresholds make float32 inputs split as those doubles do), or for a FLOAT32_ANCHOR case
    on the float32 values ONNX Runtime was given; both printed. Labels must agree with both."""
    name, train_args, (train, test) = case[:3]
    float32_anchor = FLOAT32_ANCHOR in case[3:]
    trainer, extra = ("kestrel-cv", ["--tune-threshold", "f1"]) if TUNED_THRESHOLD in case[3:] else ("kestrel-train", [])
    if AUTO in case[3:]:
        trainer = AUTO
    train_path, test_path = os.path.join(args.source, train), os.path.join(args.source, test)
    model_json, model_onnx = os.path.join(work, "model.json"), os.path.join(work, "model.onnx")
    r = run([os.path.join(args.bin, trainer), "-q", *train_args, *extra, train_path, "-o", model_json])
    check(r.returncode == 0, f"{name}: {trainer}: {r.stderr}")
    if extra:
        with open(model_json) as f:
            check("threshold" in json.load(f), name + ": the model file keeps no threshold")
    if trainer == AUTO:
        with open(model_json) as f:
            saved = json.load(f)
        kinds = sorted({m["model"]["model"] for m in saved["state"]["members"]})
        check(saved["model"] == "ensemble", name + ": kestrel-auto saved no ensemble")
        stacker = saved["state"].get("stacker")
        print(f"{name}: members {kinds}" + (f", stacked by {stacker['model']}" if stacker else "") +
              (" over the table's columns too" if saved["state"].get("stack_features") else ""))
    r = run([os.path.join(args.bin, "kestrel-export"), model_json, "--to", "onnx", "-o", model_onnx])
    check(r.returncode == 0, name + ": kestrel-export: " + r.stderr)
    model = onnx_mod.load(model_onnx)
    onnx_mod.checker.check_model(model, full_check=True)
    inputs_json, outputs_json = os.path.join(work, "in.json"), os.path.join(work, "out.json")
    with open(inputs_json, "w") as f:
        json.dump({"columns": ort_inputs(model, test_path)}, f)
    r = run(["node", os.path.join(args.source, "tests/exchange/ort_score.js"), args.ort, model_onnx, inputs_json, outputs_json])
    check(r.returncode == 0, name + ": ONNX Runtime: " + r.stderr)
    with open(outputs_json) as f:
        ort = json.load(f)
    classification, proba = "label" in ort, "probabilities" in ort
    f32_path = os.path.join(work, "test_f32.csv")
    float32_table(model, test_path, f32_path)
    header, rows = kestrel_scores(args, model_json, f32_path, work, classification, proba)
    bad, diff = differences(name, ort, header, rows)
    header, rows = kestrel_scores(args, model_json, test_path, work, classification, proba)
    bad_doubles, diff_doubles = differences(name, ort, header, rows)
    what = "regression" if not classification else ("labels and probabilities" if proba else "labels and decision values")
    print(f"{name}: {len(rows)} rows, {what}: largest |difference| {diff_doubles:.3g} against kestrel on the file's "
          f"doubles, {diff:.3g} on the float32 values{' (asserted)' if float32_anchor else ''}; labels differing: "
          f"{bad_doubles}, {bad}")
    check(bad_doubles == 0, f"{name}: labels differ")
    asserted = diff if float32_anchor else diff_doubles
    check(asserted <= TOLERANCE, f"{name}: difference {asserted} above {TOLERANCE}")


def refused(case, args, work):
    name, train_args, (train, _) = case[:3]
    export_args = case[3] if len(case) > 3 else []
    model_json, out = os.path.join(work, "refused.json"), os.path.join(work, "refused.onnx")
    r = run([os.path.join(args.bin, "kestrel-train"), "-q", *train_args, os.path.join(args.source, train), "-o", model_json])
    check(r.returncode == 0, name + ": kestrel-train: " + r.stderr)
    r = run([os.path.join(args.bin, "kestrel-export"), model_json, "--to", "onnx", "-o", out, *export_args])
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2, f"{name}: exit {r.returncode}, expected 2 ({r.stderr.strip()})")
    check(len(lines) == 1 and "ONNX" in lines[0], f"{name}: expected one line naming ONNX, got {r.stderr!r}")
    check(not os.path.exists(out), name + ": a file was written")
    print(f"{name}: refused: {lines[0]}")


def zipmap(args, onnx_mod, work):
    """--zipmap: the checker accepts the file and ONNX Runtime loads and runs it, its labels
    those of the plain file. onnxruntime-node returns no non-tensor output, so the maps
    themselves are not read here (docs/exchange.md)."""
    model_json = os.path.join(work, "zip.json")
    r = run([os.path.join(args.bin, "kestrel-train"), "-q", "-m", "tree", os.path.join(args.source, IRIS[0]), "-o", model_json])
    check(r.returncode == 0, "zipmap: kestrel-train: " + r.stderr)
    plain, zipped = os.path.join(work, "plain.onnx"), os.path.join(work, "zip.onnx")
    for path, extra in ((plain, []), (zipped, ["--zipmap"])):
        r = run([os.path.join(args.bin, "kestrel-export"), model_json, "--to", "onnx", "-o", path, *extra])
        check(r.returncode == 0, "zipmap: kestrel-export: " + r.stderr)
        # onnx 1.12's shape inference cannot merge a sequence of maps ("type case unsupported
        # for symbolic shape inference. inferred=5", the map type case), for any ZipMap model:
        # a two-tensor graph of onnx.helper with one ZipMap node fails alike. The ZipMap file
        # gets the checker's structural check.
        onnx_mod.checker.check_model(onnx_mod.load(path), full_check=not extra)
    zipped_model = onnx_mod.load(zipped)
    out = zipped_model.graph.output[1].type
    check(out.HasField("sequence_type") and out.sequence_type.elem_type.map_type.key_type == 8,
          "zipmap: probabilities is not a sequence of maps keyed by string")
    inputs_json = os.path.join(work, "zin.json")
    with open(inputs_json, "w") as f:
        json.dump({"columns": ort_inputs(zipped_model, os.path.join(args.source, IRIS[1]))}, f)
    labels = []
    for path in (plain, zipped):
        out_json = os.path.join(work, "zout.json")
        r = run(["node", os.path.join(args.source, "tests/exchange/ort_score.js"), args.ort, path, inputs_json, out_json, "label"])
        check(r.returncode == 0, "zipmap: ONNX Runtime: " + r.stderr)
        with open(out_json) as f:
            labels.append(json.load(f)["label"]["data"])
    check(labels[0] == labels[1], "zipmap: the labels differ from the plain file's")
    print(f"zipmap: checked, and run by ONNX Runtime: {len(labels[1])} labels equal to the plain file's")


def main():
    import argparse

    p = argparse.ArgumentParser()
    p.add_argument("bin")
    p.add_argument("source")
    p.add_argument("ort")
    args = p.parse_args()
    args.bin, args.source, args.ort = (os.path.abspath(x) for x in (args.bin, args.source, args.ort))
    ci = os.environ.get("CI", "") not in ("", "0", "false")
    try:
        import onnx as onnx_mod
    except ImportError:
        onnx_mod = None
    node = shutil.which("node") is not None
    missing = [what for what, ok in (("python3-onnx", onnx_mod is not None), ("node", node),
                                     ("onnxruntime-node at " + args.ort, os.path.isdir(args.ort))) if not ok]
    if missing:
        print("onnx_runtime_test: missing " + ", ".join(missing) + " (scripts/setup.sh installs them)")
        sys.exit(1 if ci else 77)
    with tempfile.TemporaryDirectory(prefix="kestrel-onnx-") as work:
        five = diabetes_classes(args, work)
        more = [("svc diabetes, 5 classes, probability=1, standard (pairwise coupling)",
                 ["-m", "svc", "-p", "probability=1", "--scale", "standard"], five),
                ("nu_svc diabetes, 5 classes, probability=1, minmax, poly (pairwise coupling)",
                 ["-m", "nu_svc", "-p", "probability=1", "-p", "nu=0.3", "-p", "kernel=poly(degree=2)", "--scale",
                  "minmax"], five),
                ("logistic diabetes, 5 classes, one-vs-one, standard (pairwise coupling)",
                 ["-m", "logistic", "-p", "multiclass=ovo", "--scale", "standard"], five),
                # Ten gbdt members coupled; five svc members with probability=1 over their sum.
                ("gbdt diabetes, 5 classes, one-vs-one (pairwise coupling of gbdt members)",
                 ["-m", "gbdt", "-p", "multiclass=ovo", "-p", "n_estimators=10"], five),
                ("svc diabetes, 5 classes, one-vs-rest probability=1, standard (probabilities)",
                 ["-m", "svc", "-p", "multiclass=ovr", "-p", "probability=1", "--scale", "standard"], five)]
        pre = precomputed_iris(args, work)
        more += [("svc iris kernel=precomputed, probability=1 (pairwise coupling)",
                  ["-m", "svc", "-p", "kernel=precomputed", "-p", "probability=1"], pre),
                 # Kernel values up to about 100: float32 inputs move the decision values by
                 # up to 4e-5 (rounding, not the graph: 4.6e-7 against kestrel on those values).
                 ("svc iris one-vs-rest over precomputed-kernel members",
                  ["-m", "svc", "-p", "kernel=precomputed", "-p", "multiclass=ovr"], pre, FLOAT32_ANCHOR)]
        for case in CASES + more:
            compare(case, args, onnx_mod, work)
        zipmap(args, onnx_mod, work)
        for case in REFUSED:
            refused(case, args, work)
    print("onnx_runtime_test: every exported model agrees with kestrel-predict")


if __name__ == "__main__":
    main()
