"""Shared fixtures: the repository's data/ and the build's commands (KESTREL_BUILD_DIR, or
the build/ beside the source)."""
import os
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def build_dir():
    return Path(os.environ.get("KESTREL_BUILD_DIR", ROOT / "build"))


def read_csv_xy(path):
    """A data/ CSV with a header and the label in the first column: (X, y as written)."""
    rows = [line.strip().split(",") for line in open(path, encoding="utf-8") if line.strip()]
    X = np.array([[float(v) for v in r[1:]] for r in rows[1:]])
    y = np.array([r[0] for r in rows[1:]])
    return X, y


def split(name):
    """(X_train, y_train, X_test, y_test, train path, test path) of data/NAME."""
    d = ROOT / "data" / name
    return (*read_csv_xy(d / "train.csv"), *read_csv_xy(d / "test.csv"), d / "train.csv", d / "test.csv")


@pytest.fixture(scope="session")
def iris():
    return split("iris")


@pytest.fixture(scope="session")
def diabetes():
    return split("diabetes")
