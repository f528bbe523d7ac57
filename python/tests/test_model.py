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
