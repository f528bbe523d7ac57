"""Runs the build's kestrel-train and kestrel-predict, for comparing the package with them."""
import csv
import io
import json
import subprocess

import pytest

from conftest import build_dir


def command(name):
    path = build_dir() / "apps" / name
    if not path.exists():
        pytest.skip(f"{path} not built (set KESTREL_BUILD_DIR)")
    return str(path)


def run(*args):
    return subprocess.run(args, check=False, capture_output=True, text=True)


def predict_csv(model_path, data_path, *flags):
    """kestrel-predict's CSV output as (header, rows of texts)."""
    p = run(command("kestrel-predict"), "-q", str(model_path), str(data_path), *flags)
    assert p.returncode == 0, p.stderr
    rows = list(csv.reader(io.StringIO(p.stdout)))
    return rows[0], rows[1:]


def command_accuracy(model, train_path, test_path, tmp_path):
    out = tmp_path / f"{model}.json"
    p = run(command("kestrel-train"), "-q", "-m", model, str(train_path), "-o", str(out))
    assert p.returncode == 0, p.stderr
    p = run(command("kestrel-predict"), "-q", str(out), str(test_path), "--metrics", "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)["accuracy"]


def train_error(*args):
    """The message kestrel-train prints after its program name, and its exit code."""
    p = run(command("kestrel-train"), *args)
    return p.stderr.strip().removeprefix("kestrel-train: "), p.returncode
