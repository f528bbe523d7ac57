"""The handle layer: loading the library, errors with kestrel_last_error()'s message, load/save."""
import numpy as np
import pytest

import kestrel
from kestrel._data import Dataset


def test_list_models_names_the_registry():
    names = [m["name"] for m in kestrel.list_models()]
    assert {"logistic", "svc", "forest", "gbdt"} <= set(names)


def test_train_save_load_predicts_the_same(iris, tmp_path):
    X, y, Xt, _, _, _ = iris
    d = Dataset(X)
    d.set_labels(y)
    m = kestrel.Model.train("logistic", {"C": 1}, {"task": "classification"}, d)
    assert m.classes == ["setosa", "versicolor", "virginica"]
    m.save(tmp_path / "m.json")
    back = kestrel.load_model(tmp_path / "m.json")
    assert np.array_equal(back.predict_proba(Xt), m.predict_proba(Xt))
    assert back.info()["model"] == "logistic"


def test_usage_error_is_value_error_with_the_library_message(iris):
    X, y, _, _, _, _ = iris
    d = Dataset(X)
    d.set_labels(y)
    with pytest.raises(ValueError, match=r"^parameter C=-1 of model logistic is out of range"):
        kestrel.Model.train("logistic", {"C": -1}, {}, d)


def test_unreadable_model_file_is_os_error_and_value_error(tmp_path):
    with pytest.raises(kestrel.ModelFileError) as e:
        kestrel.load_model(tmp_path / "absent.json")
    assert isinstance(e.value, OSError) and isinstance(e.value, ValueError)
    assert str(e.value).startswith(str(tmp_path / "absent.json"))


def test_rows_of_another_width_are_kestrel_error(iris):
    X, y, _, _, _, _ = iris
    d = Dataset(X)
    d.set_labels(y)
    m = kestrel.Model.train("logistic", {}, {}, d)
    with pytest.raises(kestrel.KestrelError):
        m.predict(X[:, :2])


def test_model_text_round_trips_without_a_file(iris, tmp_path):
    X, y, Xt, _, _, _ = iris
    d = Dataset(X)
    d.set_labels(y)
    m = kestrel.Model.train("forest", {"n_estimators": 5}, {}, d)
    text = m.to_text()
    m.save(tmp_path / "m.json")
    assert text == (tmp_path / "m.json").read_text(encoding="utf-8")  # the bytes save() writes
    back = kestrel.Model.from_text(text)
    assert np.array_equal(back.predict_proba(Xt), m.predict_proba(Xt))
    with pytest.raises(kestrel.ModelFileError, match=r"^<model text>: "):
        kestrel.Model.from_text(text[: len(text) // 2])


def test_contributions_are_kestrel_predict_contrib(diabetes, tmp_path):
    from commands import command, run

    X, y, Xt, _, _, test_path = diabetes
    d = Dataset(X)
    d.set_labels(y.astype(float))
    m = kestrel.Model.train("gbdt", {"n_estimators": 10, "max_depth": 3}, {}, d)
    c = m.contributions(Xt)
    assert c.shape == (len(Xt), X.shape[1] + 1)
    assert np.allclose(c.sum(axis=1), m.predict(Xt), rtol=1e-12, atol=1e-9)  # squared loss: the sum is the prediction
    m.save(tmp_path / "g.json")
    p = run(command("kestrel-predict"), "-q", "--contrib", str(tmp_path / "g.json"), str(test_path))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.strip().split("\n")
    header = lines[0].split(",")
    cols = [i for i, h in enumerate(header) if h != "prediction"]  # each column's, then bias
    want = np.array([[float(r.split(",")[i]) for i in cols] for r in lines[1:]])
    assert want.shape == c.shape and np.array_equal(want, c)


def test_cross_validate_is_kestrel_cv_json(iris):
    import json

    from commands import command, run

    X, y, _, _, train_path, _ = iris
    d = Dataset(X)
    d.set_labels(y)
    got = kestrel.model.cross_validate("logistic", d, {"C": 0.5}, {"scale": "standard"}, folds=4, threads=1, seed=7)
    p = run(command("kestrel-cv"), "-q", "-m", "logistic", "-p", "C=0.5", "--scale", "standard", "-k", "4", "--seed",
            "7", "--threads", "1", "--json", str(train_path))
    assert p.returncode == 0, p.stderr
    want = json.loads(p.stdout)
    assert got["metrics"] == want["metrics"]
    assert len(got["metrics"]["accuracy"]["folds"]) == 4


def test_a_c_contiguous_float64_array_is_read_in_place_and_never_written(iris):
    """KESTREL_DENSE_BORROW: the C dataset reads the array itself (a change to it shows in
    the predictions), the Dataset keeps it alive, and a fit with scaling and imputation
    leaves it as it was."""
    X, y, Xt, *_ = iris
    rows = np.array(Xt, dtype=np.float64, order="C")
    d = Dataset(rows)
    assert d._borrowed is rows  # no copy
    train = np.array(X, order="C")
    train[::9, 2] = np.nan  # missing cells, imputed by the model's preparation
    before = train.copy()
    t = Dataset(train)
    t.set_labels(y)
    m = kestrel.Model.train("logistic", {"C": 1}, {"task": "classification", "scale": "standard",
                                                   "missing": "mean"}, t)
    assert np.array_equal(train, before, equal_nan=True)
    copied = Dataset(np.asfortranarray(train))  # column-major: copied by the C call
    assert copied._borrowed is None
    copied.set_labels(y)
    again = kestrel.Model.train("logistic", {"C": 1}, {"task": "classification", "scale": "standard",
                                                       "missing": "mean"}, copied)
    assert _without_provenance(again.to_text()) == _without_provenance(m.to_text())
    p = m.predict_proba(d)
    assert np.array_equal(p, m.predict_proba(np.asfortranarray(Xt)))
    rows[0] = rows[-1]  # read in place: the dataset sees the change
    assert np.array_equal(m.predict_proba(d)[0], p[-1])
    del rows
    assert np.array_equal(m.predict_proba(d)[0], p[-1])  # the Dataset keeps the array alive


def _without_provenance(text):
    import json
    j = json.loads(text)
    j.pop("provenance", None)
    return j
