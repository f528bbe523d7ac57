#!/usr/bin/python3
"""Writes the mixed-table reading benchmark's file: a header, an integer label first,
then NUM numeric columns (6 significant digits) and STR string columns of 50
categories each ("north_17"), ROWS rows. Deterministic: numpy's PCG64 stream from a
fixed seed.

usage: generate_mixed.py ROWS NUM STR SEED OUT.csv
"""
import sys

import numpy as np

WORDS = ["north", "south", "east", "west", "centre", "upper", "lower", "inner", "outer", "mid"]


def main() -> None:
    rows, num, strs, seed = (int(a) for a in sys.argv[1:5])
    path = sys.argv[5]
    rng = np.random.default_rng(seed)
    levels = np.array([f"{WORDS[k % len(WORDS)]}_{k}" for k in range(50)])
    block = 20000
    with open(path, "w", newline="\n") as out:
        out.write("label," + ",".join([f"x{j + 1}" for j in range(num)] + [f"s{j + 1}" for j in range(strs)]) + "\n")
        for start in range(0, rows, block):
            n = min(block, rows - start)
            X = rng.standard_normal((n, num)) * rng.choice([0.01, 1.0, 100.0], size=num)
            S = levels[rng.integers(0, len(levels), size=(n, strs))]
            y = (X[:, 0] + rng.standard_normal(n) > 0).astype(int)
            cells = np.concatenate([np.char.mod("%.6g", X), S], axis=1)
            out.write("".join(f"{label}," + ",".join(r) + "\n" for label, r in zip(y, cells)))


if __name__ == "__main__":
    main()
