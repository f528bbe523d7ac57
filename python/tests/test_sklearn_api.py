"""The estimators in scikit-learn's machinery: clone, set_params with model parameters,
GridSearchCV, cross_val_score, Pipeline, pickle, labels, inputs."""
import pickle

import numpy as np
import pytest
import scipy.sparse
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import kestrel


def test_get_params_lists_the_model_parameters_given():
    est = kestrel.Classifier("logistic", C=2, scale="standard")
    assert est.get_params() == {"model": "logistic", "n_jobs": None, "random_state": None, "verbose": 0, "C": 2,
                                "scale": "standard"}
    assert est.set_params(C=3, tol=1e-6) is est and est.get_params()["tol"] == 1e-6


def test_clone_keeps_model_parameters_and_drops_the_fit(iris):
    X, y, *_ = iris
    est = kestrel.Classifier("gbdt", learning_rate=0.2, random_state=3).fit(X, y)
    c = clone(est)
    assert c.get_params() == est.get_params() and not hasattr(c, "model_")


def test_grid_search_over_a_model_parameter(iris):
    X, y, Xt, yt, *_ = iris
    search = GridSearchCV(kestrel.Classifier("logistic"), {"C": [0.01, 1.0]}, cv=3).fit(X, y)
    assert search.best_params_["C"] in (0.01, 1.0) and search.score(Xt, yt) > 0.8


def test_cross_val_score_and_pipeline(iris):
    X, y, *_ = iris
    scores = cross_val_score(make_pipeline(StandardScaler(), kestrel.Classifier("svc", C=1)), X, y, cv=3)
    assert scores.shape == (3,) and scores.min() > 0.8


def test_pickle_round_trip_predicts_the_same(iris):
    X, y, Xt, *_ = iris
    est = kestrel.Classifier("gbdt").fit(X, y)
    back = pickle.loads(pickle.dumps(est))
    assert np.array_equal(back.predict_proba(Xt), est.predict_proba(Xt))
    assert list(back.predict(Xt)) == list(est.predict(Xt))


def test_string_labels_are_kept_and_numbers_stay_numbers(iris):
    X, y, Xt, *_ = iris
    est = kestrel.Classifier("logistic").fit(X, y)
    assert list(est.classes_) == ["setosa", "versicolor", "virginica"]
    assert set(est.predict(Xt)) <= set(y)
    codes = np.where(y == "setosa", 10, np.where(y == "versicolor", 9, 100))
    est = kestrel.Classifier("logistic").fit(X, codes)
    assert list(est.classes_) == [9, 10, 100] and est.predict(Xt).dtype == codes.dtype
    assert set(est.predict(Xt)) <= {9, 10, 100}


def test_sparse_float32_and_dataframe_inputs_agree(iris):
    pd = pytest.importorskip("pandas")
    X, y, Xt, *_ = iris
    dense = kestrel.Classifier("gbdt").fit(X, y).predict_proba(Xt)
    frame = pd.DataFrame(X, columns=["sl", "sw", "pl", "pw"])
    est = kestrel.Classifier("gbdt").fit(frame, y)
    assert list(est.feature_names_in_) == ["sl", "sw", "pl", "pw"]
    assert est.model_.info()["feature_names"] == ["sl", "sw", "pl", "pw"]
    assert np.array_equal(est.predict_proba(pd.DataFrame(Xt, columns=frame.columns)), dense)
    rounded = X.astype(np.float32)  # converted to float64 as the C interface copies it
    assert np.array_equal(kestrel.Classifier("gbdt").fit(rounded, y).predict_proba(Xt),
                          kestrel.Classifier("gbdt").fit(rounded.astype(np.float64), y).predict_proba(Xt))
    sparse = kestrel.Classifier("logistic").fit(scipy.sparse.csr_matrix(X), y)
    assert np.allclose(sparse.predict_proba(Xt), kestrel.Classifier("logistic").fit(X, y).predict_proba(Xt))


def test_nan_is_a_missing_cell_for_gbdt(iris):
    X, y, Xt, *_ = iris
    X = X.copy()
    X[::7, 1] = np.nan
    assert kestrel.Classifier("gbdt").fit(X, y).predict(Xt).shape == (len(Xt),)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_an_infinite_cell_to_score_raises_scikit_learns_message(iris, dtype, monkeypatch):
    """The C call finds the infinity (KESTREL_DENSE_REJECT_INFINITE): finite rows are scored
    without a numpy scan, and rows with an infinite cell still raise scikit-learn's message."""
    X, y, Xt, *_ = iris
    est = kestrel.Classifier("logistic").fit(X, y)
    scans = []
    isinf = np.isinf
    monkeypatch.setattr(np, "isinf", lambda *a, **k: scans.append(1) or isinf(*a, **k))
    assert est.predict(Xt.astype(dtype)).shape == (len(Xt),)
    assert scans == []
    rows = Xt.astype(dtype)
    rows[3, 2] = -np.inf
    with pytest.raises(ValueError, match=r"^Input X contains infinity or a value too large for "
                                         + rf"dtype\('{np.dtype(dtype).name}'\)\.$"):
        est.predict(rows)


def test_n_jobs_and_random_state_map_to_threads_and_seed(iris):
    X, y, Xt, *_ = iris
    a = kestrel.Classifier("forest", n_jobs=1, random_state=5).fit(X, y).predict_proba(Xt)
    b = kestrel.Classifier("forest", n_jobs=2, random_state=5).fit(X, y).predict_proba(Xt)
    assert np.array_equal(a, b)  # kestrel's results do not depend on the thread count


def test_regressor_scores_r2(diabetes):
    X, y, Xt, yt, *_ = diabetes
    assert kestrel.Regressor("ridge").fit(X, y.astype(float)).score(Xt, yt.astype(float)) > 0.3


def test_fit_warnings_are_kestrel_warnings_at_the_callers_line(iris):
    X, y, *_ = iris
    with pytest.warns(kestrel.KestrelWarning) as record:
        kestrel.Classifier("logistic", max_iter=2, n_jobs=2).fit(X * 100, y)
    messages = [str(w.message) for w in record]
    assert len(messages) == 1  # one per distinct message, whatever the threads reported
    assert messages[0].startswith("logistic: TRON reached max_iter=2 iterations")
    assert record[0].filename == __file__


def test_a_fit_without_warnings_issues_none(iris):
    import warnings
    X, y, *_ = iris
    with warnings.catch_warnings():
        warnings.simplefilter("error", kestrel.KestrelWarning)
        kestrel.Classifier("gbdt", n_estimators=5).fit(X, y)
