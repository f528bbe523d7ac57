"""A trained model handle: train, load, save, predict, and the model's own description."""
import ctypes
import json
import os

import numpy as np

from . import _lib
from ._data import Dataset
from ._fit_call import run_fit
from .errors import ModelFileError


class Model:
    """Owns a KestrelModel handle; freed when collected. Predictions are in the model's own
    class order (class indices for predict), as kestrel-predict writes them."""

    def __init__(self, handle):
        self._handle = handle

    # The free function is bound at definition: at interpreter exit the module's globals may
    # already be gone when the last objects are collected.
    def __del__(self, _free=_lib.lib.kestrel_model_free):
        if getattr(self, "_handle", None):
            _free(self._handle)
            self._handle = None

    @classmethod
    def train(cls, model_name, params, options, data, threads=0, seed=1, progress=None):
        """kestrel_model_train. Ctrl-C stops the fit (KeyboardInterrupt); its warnings are
        KestrelWarning; `progress(label, done, total)`, when given, sees its progress."""
        out = ctypes.c_void_p()
        p = [f"{k}={_text(v)}" for k, v in params.items()]
        o = [f"{k}={_text(v)}" for k, v in options.items()]
        run_fit("kestrel_model_train", str(model_name).encode(), _lib.texts(p), len(p), _lib.texts(o), len(o),
                data.handle, int(threads), int(seed), ctypes.byref(out), progress=progress)
        return cls(out)

    def save(self, path):
        _lib.call("kestrel_model_save", self._handle, os.fsencode(path), error=ModelFileError)

    def to_text(self):
        """The model file's text: the bytes save() writes (kestrel_model_to_string)."""
        text, length = ctypes.c_void_p(), ctypes.c_size_t()
        _lib.call("kestrel_model_to_string", self._handle, ctypes.byref(text), ctypes.byref(length))
        return ctypes.string_at(text.value, length.value).decode("utf-8")

    @classmethod
    def from_text(cls, text):
        """A model from a model file's text or bytes, read as load_model reads a file."""
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        out = ctypes.c_void_p()
        _lib.call("kestrel_model_from_string", data, len(data), ctypes.byref(out), error=ModelFileError)
        return cls(out)

    def info(self):
        j = ctypes.c_char_p()
        _lib.call("kestrel_model_info_json", self._handle, ctypes.byref(j))
        return json.loads(j.value.decode("utf-8"))

    @property
    def n_features(self):
        n = ctypes.c_size_t()
        _lib.call("kestrel_model_n_features", self._handle, ctypes.byref(n))
        return n.value

    @property
    def classes(self):
        """The class labels as the training data wrote them (texts), [] for a regressor."""
        n = ctypes.c_size_t()
        _lib.call("kestrel_model_n_classes", self._handle, ctypes.byref(n))
        names = []
        for i in range(n.value):
            s = ctypes.c_char_p()
            _lib.call("kestrel_model_class_name", self._handle, i, ctypes.byref(s))
            names.append(s.value.decode("utf-8"))
        return names

    def _output(self, X, kind, function):
        data = X if isinstance(X, Dataset) else Dataset(X)
        rows, cols = ctypes.c_size_t(), ctypes.c_size_t()
        _lib.call("kestrel_model_output_shape", self._handle, data.handle, kind, ctypes.byref(rows),
                  ctypes.byref(cols))
        out = np.empty((rows.value, cols.value), dtype=np.float64)
        _lib.call(function, self._handle, data.handle, out.ctypes.data_as(ctypes.POINTER(ctypes.c_double)),
                  out.size)
        return out

    def predict(self, X):
        """Per row the class index into `classes`, or the value (1-D)."""
        return self._output(X, _lib.OUTPUT_PREDICTION, "kestrel_model_predict")[:, 0]

    def predict_proba(self, X):
        return self._output(X, _lib.OUTPUT_PROBA, "kestrel_model_predict_proba")

    def decision_function(self, X):
        return self._output(X, _lib.OUTPUT_DECISION, "kestrel_model_decision_function")

    def contributions(self, X):
        """Per row each column's contribution to the raw score, then the bias (XGBoost's
        pred_contribs; K blocks of n_features + 1 for K raw scores)."""
        return self._output(X, _lib.OUTPUT_CONTRIB, "kestrel_model_contributions")


def _text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def load_model(path):
    """A model file any kestrel command (or save_model) wrote."""
    out = ctypes.c_void_p()
    _lib.call("kestrel_model_load", os.fsencode(path), ctypes.byref(out), error=ModelFileError)
    return Model(out)


def cross_validate(model, data, params=None, options=None, folds=5, threads=0, seed=1, progress=None):
    """kestrel-cv -m MODEL -k FOLDS --seed SEED --json on a Dataset: its JSON object (model,
    task, rows, seed, scheme, metrics with mean, std and folds, the out-of-fold report).
    Ctrl-C, warnings and `progress` as Model.train."""
    p = [f"{k}={_text(v)}" for k, v in (params or {}).items()]
    o = [f"{k}={_text(v)}" for k, v in (options or {}).items()]
    j = ctypes.c_char_p()
    text = run_fit("kestrel_cross_validate", str(model).encode(), _lib.texts(p), len(p), _lib.texts(o), len(o),
                   data.handle, int(folds), int(threads), int(seed), ctypes.byref(j), progress=progress,
                   result=lambda: j.value.decode("utf-8"))
    return json.loads(text)


def list_models():
    """Every model of the registry with its summary and tasks (kestrel-train --list-models --json)."""
    j = ctypes.c_char_p()
    _lib.call("kestrel_models_json", ctypes.byref(j))
    return json.loads(j.value.decode("utf-8"))


def library_version():
    return _lib.lib.kestrel_library_version().decode()
