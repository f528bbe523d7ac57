#!/usr/bin/env python3
"""Writes the crafted model files of the bad-input corpus (issue 51, items 7 and 8).

Each is a small real model trained on data/iris (or data/tables/penguins) by
kestrel-train, then edited: a model file is input like any other, and every count,
index and size it declares must be checked against what it holds. The expected
outcome of each is in MANIFEST.tsv. The files are committed; this script documents
how they were made and makes them again:

    python3 tests/bad-inputs/make_model_fixtures.py build
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
IRIS = os.path.join(ROOT, "data", "iris", "train.csv")


def train(build, tmp, name, args):
    out = os.path.join(tmp, name + ".json")
    subprocess.run([os.path.join(build, "apps", "kestrel-train"), "-q", "--threads", "1"] + args + ["-o", out],
                   check=True)
    with open(out) as f:
        m = json.load(f)
    # Readable by a kestrel without the optional sections later versions add.
    m.pop("label", None)
    m["version"] = 4 if "feature_mean" in m or "calibration" in m else 3 if "categories" in m["features"] else 1
    m["provenance"] = {"crafted": "tests/bad-inputs/make_model_fixtures.py"}
    return m


FUZZ_SEEDS = os.path.join(ROOT, "tests", "fuzz", "corpus", "model_json")


def write(name, model):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(model, f, separators=(",", ":"))
        f.write("\n")
    # The same mutated real model seeds the model_json fuzz target (docs/fuzzing.md).
    with open(os.path.join(FUZZ_SEEDS, "hostile_" + name[len("model_"):]), "w") as f:
        json.dump(model, f, separators=(",", ":"))


def mark_splits_categorical(tree, count, nodes=None):
    """Tree-level category arrays: every split node (or `nodes`) categorical over `count` codes."""
    splits = [i for i, f in enumerate(tree["feature"]) if f >= 0] if nodes is None else nodes
    tree["category_node"] = splits
    tree["category_count"] = [count] * len(splits)
    tree["category_left"] = [[0] for _ in splits]


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
    with tempfile.TemporaryDirectory() as tmp:
        small = ["-p", "n_estimators=3", "-p", "max_depth=2"]
        # Item 7: category counts no feature declares (iris has no categorical column).
        m = train(build, tmp, "gbdt", ["-m", "gbdt", IRIS] + small)
        for t in m["state"]["trees"]:
            mark_splits_categorical(t, 100000000)
        write("model_gbdt_category_count_1e8.json", m)
        m = train(build, tmp, "forest", ["-m", "forest", IRIS] + small)
        for t in m["state"]["trees"]:
            mark_splits_categorical(t, 1000000000)
        write("model_forest_category_count_1e9.json", m)
        m = train(build, tmp, "tree", ["-m", "tree", "-p", "max_depth=2", IRIS])
        mark_splits_categorical(m["state"]["tree"], 1000000000)
        write("model_tree_category_count_1e9.json", m)
        # Item 8: one categorical node in a gbdt tree, no categorical_features (the
        # AVX-512 walk read past its tables).
        m = train(build, tmp, "gbdt1", ["-m", "gbdt", IRIS] + small)
        mark_splits_categorical(m["state"]["trees"][0], 3, nodes=[0])
        write("model_gbdt_one_categorical_node.json", m)
        # Covers: a Hessian sum is >= 0.
        m = train(build, tmp, "gbdt2", ["-m", "gbdt", IRIS] + small)
        m["state"]["trees"][1]["cover"][1] = -1
        write("model_gbdt_negative_cover.json", m)
        # Finite numbers that overflow a score: coefficients, a scale, leaf values.
        m = train(build, tmp, "logistic", ["-m", "logistic", IRIS])
        m["state"]["coef"] = [[1e308] * 4, [-1e308] * 4, [1e308] * 4]
        write("model_logistic_coef_1e308.json", m)
        m = train(build, tmp, "logistic_scaled", ["-m", "logistic", "--scale", "standard", IRIS])
        m["preprocessing"][0]["scale"] = [1e308] * 4
        write("model_standard_scale_1e308.json", m)
        m = train(build, tmp, "gbdt3", ["-m", "gbdt", IRIS] + small)
        for t in m["state"]["trees"]:
            t["leaf_value"] = [1e308 if i % 2 else -1e308 for i in range(len(t["leaf_value"]))]
        write("model_gbdt_leaf_value_1e308.json", m)
        # Lists that repeat a name.
        m = train(build, tmp, "logistic2", ["-m", "logistic", IRIS])
        m["classes"] = ["setosa", "versicolor", "setosa"]
        write("model_repeated_class.json", m)
        m = train(build, tmp, "logistic3", ["-m", "logistic", IRIS])
        m["features"]["names"][2] = m["features"]["names"][0]
        write("model_repeated_feature_name.json", m)
        # A one-vs-one state whose classes_seen claims 100000 classes over 3 members:
        # problems() built k(k-1)/2 = 5e9 class pairs before any check.
        m = train(build, tmp, "ovo", ["-m", "perceptron", "-p", "multiclass=ovo", IRIS])
        m["state"]["classes_seen"] = 100000
        write("model_ovo_classes_seen_1e5.json", m)
        # A width of 10^9 with a 4-feature scaler: the load-time probe row took 8 GB
        # (18 s) before the step's own width was compared.
        m = train(build, tmp, "wide", ["-m", "logistic", "--scale", "standard", IRIS])
        m["features"]["count"] = 1000000000
        m["features"]["names"] = []
        write("model_feature_count_1e9_with_scaler.json", m)
        # A state's class count sizes a tree's value rows: 10^9 in an adaboost learner took
        # 7.8 GB and 15 s; in a tree or forest state, std::bad_alloc.
        m = train(build, tmp, "ada", ["-m", "adaboost", "-p", "n_estimators=2", IRIS])
        for learner in m["state"]["learners"]:
            learner["n_classes"] = 1000000000
        write("model_adaboost_learner_n_classes_1e9.json", m)
        m = train(build, tmp, "tree2", ["-m", "tree", "-p", "max_depth=2", IRIS])
        m["state"]["n_classes"] = 1000000000
        write("model_tree_n_classes_1e9.json", m)
        # Category counts past what a feature declares (penguins' island: 3 categories).
        penguins = os.path.join(ROOT, "data", "tables", "penguins", "train.csv")
        m = train(build, tmp, "gbdt_cat", ["-m", "gbdt", "-p", "n_estimators=2", penguins])
        m["state"]["categorical_features"][0]["categories"] = 1000
        write("model_gbdt_category_count_past_declared.json", m)
        m = train(build, tmp, "forest_cat", ["-m", "forest", "-p", "n_estimators=2", "-p", "max_depth=3", penguins])
        for t in m["state"]["trees"]:
            t["feature"] = [0 if f >= 0 else f for f in t["feature"]]
            mark_splits_categorical(t, 4)
        write("model_forest_category_count_past_declared.json", m)
    # A fuzz seed only: gbdt's own category count past what the envelope declares (3).
    with open(os.path.join(FUZZ_SEEDS, "categories_gb.json")) as f:
        m = json.load(f)
    m["state"]["categorical_features"][0]["categories"] = 100000000
    with open(os.path.join(FUZZ_SEEDS, "hostile_gbdt_undeclared_category_count.json"), "w") as f:
        json.dump(m, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
