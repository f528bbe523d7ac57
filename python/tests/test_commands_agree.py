"""The estimators give what the commands give: the same predictions from the same model file,
the same accuracy, the same error messages."""
import numpy as np
import pytest

import kestrel
from commands import command_accuracy, predict_csv, train_error

MODELS = ["logistic", "svc", "forest", "gbdt"]


@pytest.mark.parametrize("model", MODELS)
def test_iris_accuracy_equals_the_commands(iris, model, tmp_path):
    X, y, Xt, yt, train_path, test_path = iris
    assert kestrel.Classifier(model).fit(X, y).score(Xt, yt) == command_accuracy(model, train_path, test_path,
                                                                                  tmp_path)


@pytest.mark.parametrize("model", ["logistic", "gbdt"])
def test_saved_model_predicts_in_kestrel_predict_as_in_python(iris, model, tmp_path):
    X, y, Xt, _, _, test_path = iris
    est = kestrel.Classifier(model, C=2) if model == "logistic" else kestrel.Classifier(model, learning_rate=0.2)
    est.fit(X, y)
    est.save_model(tmp_path / "m.json")
    header, rows = predict_csv(tmp_path / "m.json", test_path, "--proba")
    assert [r[0] for r in rows] == list(est.predict(Xt))
    expected = np.array([[float(v) for v in r[1:]] for r in rows])
    assert header[1:] == [f"proba_{c}" for c in est.classes_]
    assert np.array_equal(est.predict_proba(Xt), expected)  # the shortest round-trip texts: exact


def test_regressor_saved_model_predicts_as_kestrel_predict(diabetes, tmp_path):
    X, y, Xt, _, _, test_path = diabetes
    est = kestrel.Regressor("gbdt").fit(X, y.astype(float))
    est.save_model(tmp_path / "m.json")
    _, rows = predict_csv(tmp_path / "m.json", test_path)
    assert np.array_equal(est.predict(Xt), np.array([float(r[0]) for r in rows]))


def test_bad_parameter_message_is_kestrel_trains(iris):
    X, y, _, _, train_path, _ = iris
    message, code = train_error("-m", "logistic", "-p", "C=-1", str(train_path), "-o", "/dev/null")
    assert code == 1
    with pytest.raises(ValueError) as e:
        kestrel.Classifier("logistic", C=-1).fit(X, y)
    assert str(e.value) == message


def test_unknown_model_message_is_kestrel_trains(iris):
    X, y, _, _, train_path, _ = iris
    message, code = train_error("-m", "no_such_model", str(train_path), "-o", "/dev/null")
    with pytest.raises(ValueError) as e:
        kestrel.Classifier("no_such_model").fit(X, y)
    assert str(e.value) == message
