"""Prints the class of each row of a CSV test file (label first, 4 feature columns: iris) as
the Python package predicts it with a model file, after checking that `kestrel` was imported
from the given directory: the installed or unpacked package, not the source tree.
    python3 tests/install/python_labels.py PACKAGE_PARENT MODEL.json TEST.csv
Used by tests/install/check_install.sh and scripts/check_deb.sh."""
import sys

import numpy as np

import kestrel

parent, model_path, test_path = sys.argv[1:]
assert kestrel.__file__.startswith(parent), kestrel.__file__
model = kestrel.load_model(model_path)
rows = np.loadtxt(test_path, delimiter=",", skiprows=1, usecols=range(1, 5))
for i in model.predict(rows):
    print(model.classes[int(i)])
