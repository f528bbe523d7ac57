#!/usr/bin/env python3
"""Writes the bad-input corpus (tests/bad-inputs/*) deterministically.

The files are committed; this script documents how the binary ones were made and
regenerates them all. The expected outcome of each is in MANIFEST.tsv; the doctest
case "cli.bad_inputs" (tests/cli/bad_input_corpus_test.cpp) runs the executables on
every entry. Run from anywhere: python3 tests/bad-inputs/make_corpus.py
"""
import bz2
import gzip
import io
import lzma
import json
import os
import random
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, data):
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(os.path.join(HERE, name), mode, newline="" if mode == "w" else None) as f:
        f.write(data)


GOOD = "label,a,b\n0,1.5,2\n1,3,4.25\n0,1,2.5\n1,3.5,4\n"

# Data files.
write("libsvm_index0.libsvm", "1 1:0.5 2:1\n-1 0:1 2:3\n")
write("libsvm_decreasing.libsvm", "1 1:0.5 3:1\n-1 3:1 2:3\n")
write("libsvm_index_overflow.libsvm", "1 1:0.5\n-1 99999999999:1\n")
write("libsvm_huge_index.libsvm", "1 1:0.5 2000000000:1\n-1 1:1\n")
write("libsvm_no_label.libsvm", "1:0.5 2:1\n")
write("tabs.tsv", GOOD.replace(",", "\t"))
write("header.csv", GOOD)
write("huge_labels.csv", "label,a\n18446744073709551615,1\n18446744073709551614,2\n18446744073709551615,1.5\n18446744073709551614,2.5\n")
write("huge_target.csv", "label,a\n1e400,1\n2,2\n3,3\n")
write("decimal_comma.csv", "label;a;b\n0;1,5;2\n1;3;4,25\n0;1;2,5\n1;3,5;4\n")
write("decimal_comma_comma_delimited.csv", "label,a,b\n0,1,5,2\n1,3,4,25\n")
write("ragged.csv", "label,a,b\n0,1,2\n1,3\n0,1,2\n")
write("nan_text.csv", "label,a,b\n0,1,2\n1,NaN,4\n")
write("inf_text.csv", "label,a,b\n0,1,inf\n1,3,4\n")
write("overflow.csv", "label,a,b\n0,1,1e400\n1,3,4\n")
write("duplicate_names.csv", "label,a,a\n0,1,2\n1,3,4\n0,1,2\n1,3,4\n")
write("text_feature.csv", "label,a,b\n0,1,2\n1,x7,4\n")
write("unterminated_quote.csv", 'label,a,b\n0,1,2\n1,"3,4\n')
write("empty.csv", "")
write("blank_lines.csv", "\n\n  \n\n")
write("header_only.csv", "label,a,b\n")
write("label_only.csv", "label\n0\n1\n")
write("one_class.csv", "label,a\nx,1\nx,2\nx,3\n")
write("control_chars.csv", 'label,a\n0,1\n1,"\x1b[31mred\nline"\n')
write("escape_header.csv", "label,\x1b]0;title\x07a,b\n0,1.5,2\n1,3,4.25\n")  # a terminal title escape in a name
write("utf16.csv", GOOD.encode("utf-16"))

rng = random.Random(9)
write("binary.csv", bytes(rng.randrange(256) for _ in range(2048)))
gz = io.BytesIO()
with gzip.GzipFile(fileobj=gz, mode="wb", mtime=0) as f:
    f.write((GOOD * 200).encode())
write("truncated.csv.gz", gz.getvalue()[: len(gz.getvalue()) // 2])
# Compressed input is read (lib/src/io/compression.hpp); damaged, it is one error with the
# compressed byte offset. A flipped byte of gzip's CRC-32 (8 bytes from the end), and
# truncated bzip2 and xz streams.
corrupt = bytearray(gz.getvalue())
corrupt[-8] ^= 0x55
write("corrupt_crc.csv.gz", bytes(corrupt))
write("truncated.csv.bz2", bz2.compress((GOOD * 200).encode(), 9)[:60])
write("truncated.csv.xz", lzma.compress((GOOD * 200).encode())[:60])
# The other damage of each format: a flipped byte inside bzip2's and xz's compressed blocks
# (their CRCs catch it), and a truncated and a corrupt zstd frame (by the zstd tool: Python
# has no zstd module; a content checksum, as `zstd` writes by default, catches the flip).
bz = bytearray(bz2.compress((GOOD * 200).encode(), 9))
bz[len(bz) // 2] ^= 0x55
write("corrupt.csv.bz2", bytes(bz))
xz = bytearray(lzma.compress((GOOD * 200).encode()))
xz[len(xz) // 2] ^= 0x55
write("corrupt.csv.xz", bytes(xz))
zst = subprocess.run(["zstd", "-q", "-c", "-19", "--no-progress"], input=(GOOD * 200).encode(),
                     stdout=subprocess.PIPE, check=True).stdout
write("truncated.csv.zst", zst[: len(zst) // 2])
zst = bytearray(zst)
zst[len(zst) // 2] ^= 0x55
write("corrupt.csv.zst", bytes(zst))
# A file of neither format: numbers separated by spaces (format detection refuses it).
write("neither_format.txt", "1 2.5 3\n0 1.5 2\n")

# Model files. A small valid kestrel model (ridge on GOOD) is the base of the bad ones.
model = {
    "format": "kestrel-model",
    "version": 1,
    "kestrel_version": "0.1.0",
    "model": "ridge",
    "task": "regression",
    "params": {"alpha": 1.0, "fit_intercept": True, "solver": "auto"},
    "features": {"count": 2, "names": ["a", "b"]},
    "classes": [],
    "preprocessing": [],
    "state": {},  # never reached: each bad model fails on its envelope first
    "provenance": {},
}
write("empty_model.json", "")
write("whitespace_model.json", " \n\t\n")
future = dict(model, version=99)
write("future_version.json", json.dumps(future))
write("wrong_format.json", json.dumps(dict(model, format="other-tool")))
write("not_an_object.json", "[1, 2, 3]\n")
write("truncated_model.json", json.dumps(model)[:60])
write("unknown_model.json", json.dumps(dict(model, model="mystery")))
write("huge_feature_count.json", json.dumps(dict(model, features={"count": 4611686018427387904, "names": []})))
write("negative_feature_count.json", json.dumps(dict(model, features={"count": 18446744073709551615, "names": []})))
write("deep_nesting.json", "[" * 100000 + "]" * 100000)
# XGBoost 1.7 model files (Booster.save_model's JSON; boosting/xgboost_model.cpp reads them):
# one tree of three nodes, then broken copies of it.
xgb_tree = {"base_weights": [0, 1, -1], "categories": [], "categories_nodes": [], "categories_segments": [],
            "categories_sizes": [], "default_left": [1, 0, 0], "id": 0, "left_children": [1, -1, -1],
            "loss_changes": [3, 0, 0], "parents": [2147483647, 0, 0], "right_children": [2, -1, -1],
            "split_conditions": [0.5, 1, -1], "split_indices": [0, 0, 0], "split_type": [0, 0, 0],
            "sum_hessian": [10, 5, 5],
            "tree_param": {"num_deleted": "0", "num_feature": "4", "num_nodes": "3", "size_leaf_vector": "0"}}
xgb_model = {"learner": {"attributes": {}, "feature_names": [], "feature_types": [],
                         "gradient_booster": {"model": {"gbtree_model_param": {"num_parallel_tree": "1", "num_trees": "1",
                                                                               "size_leaf_vector": "0"},
                                                        "tree_info": [0], "trees": [xgb_tree]}, "name": "gbtree"},
                         "learner_model_param": {"base_score": "5E-1", "boost_from_average": "1", "num_class": "0",
                                                 "num_feature": "4", "num_target": "1"},
                         "objective": {"name": "reg:squarederror", "reg_loss_param": {"scale_pos_weight": "1"}}},
             "version": [1, 7, 4]}
write("xgboost_truncated.json", json.dumps(xgb_model)[:200])
write("xgboost_child_out_of_range.json", json.dumps(xgb_model).replace('"left_children": [1, -1, -1]', '"left_children": [7, -1, -1]'))
write("xgboost_gblinear.json", json.dumps(xgb_model).replace('"name": "gbtree"', '"name": "gblinear"'))
write("xgboost_unknown_objective.json", json.dumps(xgb_model).replace("reg:squarederror", "survival:aft"))
write("libsvm_model_garbage.model", "svm_type c_svc\nkernel_type rbf\ngamma 0.5\nnr_class 18446744073709551615\ntotal_sv 1\nrho 0\nlabel 1 -1\nnr_sv 1 0\nSV\n1 1:0.5\n")
