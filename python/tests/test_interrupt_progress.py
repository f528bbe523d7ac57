"""Ctrl-C during a fit, and a fit's progress: docs/python.md (Interrupting a fit, Progress)."""
import os
import subprocess
import sys
import textwrap

import numpy as np

import kestrel
from kestrel._data import Dataset

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(kestrel.__file__)))

# A fit of 10^5 boosting rounds of depth 8 on 3,000 rows (minutes) that a SIGINT, as Ctrl-C
# sends it, stops after a second.
_INTERRUPTED_FIT = textwrap.dedent("""
    import os, signal, threading, time
    import numpy as np
    import kestrel
    rng = np.random.RandomState(0)
    X = rng.rand(3000, 10)
    y = (X[:, 0] + X[:, 1] + 0.3 * rng.rand(3000) > 1.15).astype(int)
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    start = time.monotonic()
    try:
        kestrel.Classifier("gbdt", n_estimators=10**5, max_depth=8, n_jobs=2).fit(X, y)
        print("finished")
    except KeyboardInterrupt:
        print("interrupted after %.1f s" % (time.monotonic() - start))
    timer.cancel()
    # The library forgot the request: the next fit runs to its end.
    model = kestrel.Classifier("gbdt", n_estimators=5).fit(X, y)
    print("next fit", model.score(X, y) > 0.8)
""")


def test_ctrl_c_stops_a_long_fit_with_keyboard_interrupt():
    env = dict(os.environ, PYTHONPATH=_PACKAGE + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-c", _INTERRUPTED_FIT], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("interrupted after "), r.stdout
    assert float(lines[0].split()[2]) < 30  # 1 s to the signal, then the next round's end
    assert lines[1] == "next fit True"


def test_progress_callable_sees_every_round(iris):
    X, y, _, _, _, _ = iris
    d = Dataset(X)
    d.set_labels(y)
    seen = []
    kestrel.Model.train("gbdt", {"n_estimators": 7}, {"task": "classification"}, d, threads=1,
                        progress=lambda label, done, total: seen.append((label, done, total)))
    assert seen == [("gbdt", i, 7) for i in range(1, 8)]


def test_cross_validation_progress_counts_the_folds(iris):
    X, y, _, _, _, _ = iris
    d = Dataset(X)
    d.set_labels(y)
    seen = []
    kestrel.model.cross_validate("logistic", d, folds=4, threads=1,
                                 progress=lambda label, done, total: seen.append((done, total)))
    assert seen == [(i, 4) for i in range(0, 5)]


def test_verbose_estimator_shows_progress_on_stderr(iris, capsys):
    X, y, _, _, _, _ = iris
    kestrel.Classifier("gbdt", n_estimators=20, n_jobs=1, verbose=1).fit(X, y)
    err = capsys.readouterr().err.splitlines()
    # Not a terminal: a line per tenth of the rounds, the last at the end.
    assert err[-1] == "kestrel: gbdt 20/20"
    assert err == [f"kestrel: gbdt {i}/20" for i in (1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20)]
    kestrel.Classifier("gbdt", n_estimators=20, n_jobs=1).fit(X, y)
    assert capsys.readouterr().err == ""  # verbose=0, the default: silent


def test_verbose_is_an_estimator_parameter():
    est = kestrel.Classifier("gbdt", verbose=1, learning_rate=0.2)
    assert est.get_params() == {"model": "gbdt", "n_jobs": None, "random_state": None, "verbose": 1,
                                "learning_rate": 0.2}
    assert est.set_params(verbose=0).verbose == 0
    assert "verbose" not in est.params
