"""scikit-learn estimators over kestrel's models: Classifier, Regressor and Ranker.

A kestrel model has its own parameters (C, learning_rate, ...), so the estimators take them
as keywords and keep them in one dict: get_params lists the ones given, set_params accepts
any name, and the C interface alone checks them at fit (same names, defaults and messages as
kestrel-train -p). The preparation options of kestrel-train (scale, missing, ...) are taken
the same way and passed as options."""
import numbers
import os

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_consistent_length, check_is_fitted, column_or_1d

from ._data import Dataset, has_text_columns
from ._fit_call import StderrProgress
from .errors import KestrelError
from .model import Model

# kestrel_model_train's options (docs/c-api.md); a keyword with a dot in its name is written
# with an underscore here (poly_interaction_only). Listed here because the C interface has no
# call listing them (docs/python.md, Not done yet); every other keyword is a model parameter.
OPTIONS = {"scale", "missing", "missing_indicator", "encode", "max_categories", "min_frequency", "resample",
           "poly", "poly.interaction_only", "poly.max_width", "calibrate", "calibrate_folds"}
_OPTION_BY_KEYWORD = {o.replace(".", "_"): o for o in OPTIONS}
DEFAULT_SEED = 1  # kestrel-train's --seed default: random_state=None trains its model
_OWN_PARAMS = ("model", "n_jobs", "random_state", "verbose")  # the estimators' own; the rest go to kestrel


class _KestrelEstimator(BaseEstimator):
    _task = None

    def __init__(self, model="gbdt", *, n_jobs=None, random_state=None, verbose=0, **params):
        self.model = model
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose
        self.params = params

    def get_params(self, deep=True):
        return {"model": self.model, "n_jobs": self.n_jobs, "random_state": self.random_state,
                "verbose": self.verbose, **self.params}

    def set_params(self, **values):
        for key, value in values.items():
            if key in _OWN_PARAMS:
                setattr(self, key, value)
            else:
                self.params[key] = value  # checked by the library at fit
        return self

    def _threads(self):
        n = self.n_jobs
        if n is None or n == -1:
            return 0  # every core, kestrel-train's default
        if n < -1:
            return max(1, (os.cpu_count() or 1) + 1 + n)  # scikit-learn's -2 = all cores but one
        return int(n)

    def _seed(self):
        r = self.random_state
        if r is None:
            return DEFAULT_SEED
        if isinstance(r, numbers.Integral):
            return int(r) % 2**64
        return int(r.randint(np.iinfo(np.int32).max))  # a numpy RandomState: one draw

    def _progress(self):
        """verbose=0 (the default) is silent; verbose >= 1 shows the fit's progress on
        standard error (kestrel-train's progress line)."""
        return StderrProgress() if self.verbose else None

    def _train(self, data, params, options):
        return Model.train(self.model, params, options, data, self._threads(), self._seed(), progress=self._progress())

    def _split_params(self):
        params, options = {}, {"task": self._task}
        for key, value in self.params.items():
            if key in _OPTION_BY_KEYWORD:
                options[_OPTION_BY_KEYWORD[key]] = value
            else:
                params[key] = value
        return params, options

    def _check_X(self, X, reset, y="no_validation"):
        """scikit-learn's own checks and messages for the array's shape and type (2-D, numeric,
        not empty, the fitted column count, the DataFrame's column names); kestrel checks the
        values. float32 stays float32 (converted as the C interface copies it); NaN is a
        missing cell. A DataFrame with category, object or string columns goes to the library
        as it is (its text columns coded with their names), after scikit-learn's checks of
        its column names and count."""
        if has_text_columns(X):
            return self._check_frame(X, reset, y)
        kw = dict(accept_sparse="csr", dtype=[np.float64, np.float32], force_all_finite="allow-nan", reset=reset)
        if isinstance(y, str) and y == "no_validation":
            return self._validate_data(X, **kw)
        return self._validate_data(X, y, y_numeric=self._task == "regression", **kw)

    def _check_frame(self, X, reset, y):
        if X.shape[0] == 0:
            raise ValueError(f"Found array with 0 sample(s) (shape={X.shape}) while a minimum of 1 is required.")
        self._check_feature_names(X, reset=reset)
        self._check_n_features(X, reset=reset)
        if isinstance(y, str) and y == "no_validation":
            return X
        y = column_or_1d(y, warn=True)
        check_consistent_length(X, y)
        return X, (np.asarray(y, dtype=np.float64) if self._task == "regression" else y)

    def _fit(self, X, y, sample_weight):
        X, y = self._check_X(X, True, y)
        data = Dataset(X)
        self._set_labels(data, y)
        if sample_weight is not None:
            data.set_weights(_check_sample_weight(sample_weight, X, dtype=np.float64))
        if hasattr(self, "feature_names_in_"):
            data.set_feature_names(list(self.feature_names_in_))
        params, options = self._split_params()
        self.model_ = self._train(data, params, options)
        self._fitted()
        return self

    def _fitted(self):
        info = self.model_.info()
        self._can_ = {k: bool(info.get(k)) for k in ("has_predict_proba", "has_decision_function")}

    def _data(self, X):
        check_is_fitted(self, "model_")
        if _is_checked_already(self, X):
            try:
                return Dataset(X, reject_infinite=True)  # the C call looks for infinity
            except KestrelError:
                pass  # an infinite cell: scikit-learn's validation below raises its own message
        return Dataset(self._check_X(X, False))

    def save_model(self, path):
        """The model file kestrel-train writes; kestrel-predict scores it as this estimator does."""
        check_is_fitted(self, "model_")
        self.model_.save(path)

    def __getstate__(self):
        state = self.__dict__.copy()
        if "model_" in state:
            state["model_"] = state["model_"].to_text()  # the model file's JSON text
        return state

    def __setstate__(self, state):
        if "model_" in state:
            state["model_"] = Model.from_text(state["model_"])
        self.__dict__.update(state)

    def _more_tags(self):
        return {"allow_nan": True}


def _is_checked_already(est, X):
    """Whether rows to score pass every check scikit-learn's validation would make but the one
    for infinity, found without it: a 2-D float64 or float32 numpy array of the fitted width,
    not empty, to an estimator fitted without column names. Such rows go to the C interface
    with KESTREL_DENSE_REJECT_INFINITE, which refuses an infinite cell as it copies (no scan of
    the array here); rows it refuses then take scikit-learn's validation, which raises its own
    message. Its validation costs about 0.1 ms a call, the whole of a small prediction's own
    work; any other input takes it, for its messages and warnings."""
    return (type(X) is np.ndarray and X.ndim == 2 and X.dtype in _FAST_DTYPES and X.shape[0] > 0
            and X.shape[1] == getattr(est, "n_features_in_", -1) and not hasattr(est, "feature_names_in_"))


_FAST_DTYPES = (np.dtype(np.float64), np.dtype(np.float32))


def _model_has(what):
    """predict_proba and decision_function exist as attributes only when the fitted model gives
    them (scikit-learn asks hasattr); an unfitted estimator has them, to raise NotFittedError."""
    return lambda self: not hasattr(self, "_can_") or self._can_[what]


class Classifier(ClassifierMixin, _KestrelEstimator):
    """A kestrel classification model: Classifier(model="gbdt", learning_rate=0.1, ...)."""
    _task = "classification"

    def fit(self, X, y, sample_weight=None):
        return self._fit(X, y, sample_weight)

    def _set_labels(self, data, y):
        check_classification_targets(y)
        # classes_ are the original values, sorted as numpy sorts them; the model keeps its own
        # order (the commands'), mapped here by each class's text.
        self.classes_ = np.unique(y)
        data.set_labels(y)

    def _fitted(self):
        super()._fitted()
        # Index into classes_ of each of the model's classes.
        if self.classes_.dtype.kind in "biuf":
            where = {float(c): i for i, c in enumerate(self.classes_)}
            self.model_classes_order_ = np.array([where[float(n)] for n in self.model_.classes])
        else:
            where = {str(c): i for i, c in enumerate(self.classes_)}
            self.model_classes_order_ = np.array([where[n] for n in self.model_.classes])

    def _model_to_classes(self):
        return self.model_classes_order_

    def predict(self, X):
        data = self._data(X)
        index = self.model_.predict(data).astype(np.intp)
        return self.classes_[self._model_to_classes()[index]]

    @available_if(_model_has("has_predict_proba"))
    def predict_proba(self, X):
        data = self._data(X)
        p = self.model_.predict_proba(data)
        out = np.empty_like(p)
        out[:, self._model_to_classes()] = p
        return out

    @available_if(_model_has("has_decision_function"))
    def decision_function(self, X):
        data = self._data(X)
        d = self.model_.decision_function(data)
        if d.shape[1] == 1:
            return d[:, 0]
        out = np.empty_like(d)
        out[:, self._model_to_classes()] = d
        return out


class Regressor(RegressorMixin, _KestrelEstimator):
    """A kestrel regression model: Regressor(model="gbdt", ...)."""
    _task = "regression"

    def fit(self, X, y, sample_weight=None):
        return self._fit(X, y, sample_weight)

    def _set_labels(self, data, y):
        data.set_labels(np.asarray(y, dtype=np.float64))

    def predict(self, X):
        data = self._data(X)
        return self.model_.predict(data)


class Ranker(_KestrelEstimator):
    """A kestrel learning-to-rank model: Ranker(loss="lambdarank", ...) over gbdt.

    fit(X, y, qid=...) or fit(X, y, group=...) as XGBoost's XGBRanker takes them: `qid` one
    query id per row, `group` the sizes of consecutive queries (LightGBM's and XGBoost's
    `group`); a query's rows are contiguous. y holds relevance grades 0..31. `loss` defaults to
    "lambdarank" (LightGBM's LGBMRanker; XGBRanker's default is rank:pairwise, kestrel's
    "rank_pairwise"). predict gives one score per row; only their order within a query matters.
    Sample weights are refused, as by kestrel-train (XGBoost weighs whole queries)."""
    _task = "regression"  # a ranking loss is a regression task with query ids (docs/models/gbdt.md)

    def fit(self, X, y, *, qid=None, group=None):
        X, y = self._check_X(X, True, y)
        data = Dataset(X)
        data.set_labels(np.asarray(y, dtype=np.float64))
        data.set_groups(_query_ids(qid, group, X.shape[0]))
        if hasattr(self, "feature_names_in_"):
            data.set_feature_names(list(self.feature_names_in_))
        params, options = self._split_params()
        params.setdefault("loss", "lambdarank")
        self.model_ = self._train(data, params, options)
        self._fitted()
        return self

    def predict(self, X):
        return self.model_.predict(self._data(X))

    def score(self, X, y, *, qid=None, group=None):
        """Mean NDCG over the queries, as kestrel's `ndcg` metric: gain 2^y - 1, discount
        1 / log2(rank + 2), ties in score by row order, a query without a relevant row counts 1."""
        ids = _query_ids(qid, group, len(y))
        return mean_ndcg(np.asarray(y, dtype=np.float64), self.predict(X), ids)


def mean_ndcg(y, scores, qid):
    starts = np.flatnonzero(np.r_[True, qid[1:] != qid[:-1]])
    ends = np.r_[starts[1:], len(qid)]
    values = []
    for a, b in zip(starts, ends):
        grades, s = y[a:b], scores[a:b]
        discount = 1.0 / np.log2(np.arange(b - a) + 2.0)
        ideal = np.sum((2.0 ** np.sort(grades)[::-1] - 1.0) * discount)
        if ideal == 0:
            values.append(1.0)
            continue
        order = np.argsort(-s, kind="stable")  # ties by row order
        values.append(np.sum((2.0 ** grades[order] - 1.0) * discount) / ideal)
    return float(np.mean(values))


def _query_ids(qid, group, n_rows):
    if (qid is None) == (group is None):
        raise ValueError("kestrel: Ranker needs exactly one of qid (one id per row) and group (query sizes)")
    if group is not None:
        sizes = np.asarray(group, dtype=np.int64)
        if sizes.ndim != 1 or np.any(sizes <= 0) or sizes.sum() != n_rows:
            raise ValueError(f"kestrel: group must be positive query sizes summing to the {n_rows} rows, "
                             f"got {int(sizes.sum())} rows in {sizes.size} queries")
        return np.repeat(np.arange(sizes.size, dtype=np.float64), sizes)
    ids = np.asarray(qid, dtype=np.float64)
    if ids.shape != (n_rows,):
        raise ValueError(f"kestrel: qid must have one id per row ({n_rows}), got shape {ids.shape}")
    return ids
