#!/usr/bin/python3
"""Times one reference loader on one file, in process, and prints one JSON line
{seconds, rows, cols}. usage: anchors.py numpy|pandas FILE.csv"""
import json
import sys
import time


def main() -> None:
    tool, path = sys.argv[1], sys.argv[2]
    if tool == "numpy":
        import numpy as np

        t0 = time.perf_counter()
        a = np.loadtxt(path, delimiter=",", skiprows=1, dtype=np.float64)
        seconds = time.perf_counter() - t0
        shape = a.shape
    elif tool == "pandas":
        import pandas as pd

        t0 = time.perf_counter()
        df = pd.read_csv(path)
        seconds = time.perf_counter() - t0
        shape = df.shape
    else:
        raise SystemExit(f"unknown tool {tool}")
    print(json.dumps({"seconds": seconds, "rows": shape[0], "cols": shape[1]}))


if __name__ == "__main__":
    main()
