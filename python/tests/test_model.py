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
