#!/usr/bin/python3
"""Writes the loading benchmark's data: a dense CSV (header, integer label first,
then features with 7 significant digits) and its LIBSVM twin with the same values.
Deterministic: numpy's PCG64 stream from a fixed seed.

usage: generate.py ROWS COLS SEED OUT.csv OUT.libsvm
"""
import sys

import numpy as np


def main() -> None:
    rows, cols, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    csv_path, svm_path = sys.argv[4], sys.argv[5]
    rng = np.random.default_rng(seed)
    block = 20000
    with open(csv_path, "w", newline="\n") as csv, open(svm_path, "w", newline="\n") as svm:
        csv.write("label," + ",".join(f"f{j + 1}" for j in range(cols)) + "\n")
        for start in range(0, rows, block):
            n = min(block, rows - start)
            X = rng.standard_normal((n, cols)) * rng.choice([0.01, 1.0, 100.0], size=cols)
            y = (X[:, 0] + rng.standard_normal(n) > 0).astype(int)
            text = np.char.mod("%.7g", X)
            # Columns of "j:value" built once per block, then joined row by row.
            sparse = np.char.add(np.array([f"{j + 1}:" for j in range(cols)]), text)
            csv.write("".join(f"{label}," + ",".join(r) + "\n" for label, r in zip(y, text)))
            svm.write("".join(f"{label} " + " ".join(r) + "\n" for label, r in zip(y, sparse)))


if __name__ == "__main__":
    main()
