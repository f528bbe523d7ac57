"""Turns numpy arrays, scipy sparse matrices and pandas DataFrames into C datasets.
A C-contiguous float64 array is kestrel's own layout: the C dataset borrows it
(KESTREL_DENSE_BORROW, read in place, no copy), and the Dataset keeps a reference to it for
as long as the handle lives. Other arrays are copied by the C interface (docs/c-api.md,
Copies); an array made here for the call (a DataFrame's values, another dtype converted) is
borrowed and kept the same way."""
import ctypes

import numpy as np

from . import _lib


class Dataset:
    """Owns a KestrelDataset handle; freed when collected."""

    def __init__(self, X, reject_infinite=False):
        """reject_infinite: the C call refuses an infinite cell of a numpy array
        (KestrelError naming its row and column), so the caller need not scan for one.
        A float64 C-contiguous X is read in place while the Dataset lives: do not change it
        meanwhile."""
        self.handle = ctypes.c_void_p()
        self._borrowed = None  # the array the C dataset reads in place, kept alive with it
        self.feature_names = None
        coded = {}
        if is_frame(X):
            self.feature_names = [str(c) for c in X.columns]
            X, coded = _frame_values(X)
        flags = _lib.DENSE_REJECT_INFINITE if reject_infinite else 0
        self.n_rows, self.n_cols, self._borrowed = _from_any(X, self.handle, flags)
        for column, names in coded.items():
            _lib.call("kestrel_dataset_set_categories", self.handle, column, _lib.texts(names), len(names))

    # The free function is bound at definition: at interpreter exit the module's globals may
    # already be gone when the last objects are collected. The borrowed array is released
    # only after the handle that reads it is freed.
    def __del__(self, _free=_lib.lib.kestrel_dataset_free):
        if getattr(self, "handle", None):
            _free(self.handle)
            self.handle = None
        self._borrowed = None

    def set_labels(self, y):
        y = np.asarray(y)
        if y.dtype.kind in "biuf":
            v = np.ascontiguousarray(y, dtype=np.float64)
            _lib.call("kestrel_dataset_set_labels", self.handle, _dbl(v), len(v))
        else:
            _lib.call("kestrel_dataset_set_label_strings", self.handle, _lib.texts(y), len(y))

    def set_weights(self, w):
        v = np.ascontiguousarray(w, dtype=np.float64)
        _lib.call("kestrel_dataset_set_weights", self.handle, _dbl(v), len(v))

    def set_groups(self, qid):
        v = np.ascontiguousarray(qid, dtype=np.float64)
        _lib.call("kestrel_dataset_set_groups", self.handle, _dbl(v), len(v))

    def set_feature_names(self, names):
        _lib.call("kestrel_dataset_set_feature_names", self.handle, _lib.texts(names), len(names))


def _dbl(a):
    return a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))


def is_frame(X):
    return hasattr(X, "columns") and hasattr(X, "dtypes")  # a pandas.DataFrame


def has_text_columns(X):
    """A DataFrame with a category, object or string column: kestrel reads it as categories."""
    return is_frame(X) and any(t.kind not in "biuf" for t in X.dtypes)


def _frame_values(frame):
    """The frame as float64 values, each category/object/string column as codes (-1 or NaN
    missing), and {column: category names} for those columns. An object column's categories
    are its distinct values as text; the library sorts them as a CSV column's are."""
    import pandas as pd

    values = np.empty(frame.shape, dtype=np.float64)
    coded = {}
    for j, (name, column) in enumerate(frame.items()):
        if column.dtype.kind in "biuf":
            values[:, j] = column.to_numpy(dtype=np.float64, na_value=np.nan)
            continue
        if not isinstance(column.dtype, pd.CategoricalDtype):
            column = column.astype(str).where(column.notna()).astype("category")
        names = [str(c) for c in column.cat.categories]
        if not names:  # every cell missing: a categorical column needs a name to code against
            values[:, j] = np.nan
            continue
        values[:, j] = column.cat.codes.to_numpy(dtype=np.float64)
        coded[j] = names
    return values, coded


def _from_any(X, out, flags=0):
    """Makes the C dataset `out`: (rows, columns, the array it borrows or None)."""
    if hasattr(X, "tocsr") and hasattr(X, "nnz"):  # scipy.sparse, any format
        return (*_from_csr(X.tocsr(), out), None)
    if is_frame(X):
        X = X.to_numpy(dtype=np.float64, na_value=np.nan)
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"Expected a 2D array, got {X.ndim}D array instead (reshape a single "
                         "feature with X.reshape(-1, 1), a single sample with X.reshape(1, -1))")
    if X.dtype.kind not in "biuf":
        raise ValueError(f"kestrel: X must be numeric, got dtype {X.dtype}")
    if X.dtype == np.float32:  # copied (converted) by the C call
        if X.flags.f_contiguous and not X.flags.c_contiguous:
            a, layout = X, _lib.COL_MAJOR
        else:
            a, layout = np.ascontiguousarray(X), _lib.ROW_MAJOR
        _lib.call("kestrel_dataset_from_dense_f32_ex", a.ctypes.data_as(ctypes.POINTER(ctypes.c_float)),
                  X.shape[0], X.shape[1], layout, flags, ctypes.byref(out))
        return (*X.shape, None)
    if _is_float64(X) and X.flags.f_contiguous and not X.flags.c_contiguous:  # copied by the C call
        _lib.call("kestrel_dataset_from_dense_ex", _dbl(X), X.shape[0], X.shape[1], _lib.COL_MAJOR, flags,
                  ctypes.byref(out))
        return (*X.shape, None)
    # C-contiguous float64 (the array itself, or numpy's one copy of another dtype or layout):
    # borrowed, read in place.
    a = np.ascontiguousarray(X, dtype=np.float64)
    _lib.call("kestrel_dataset_from_dense_ex", _dbl(a), a.shape[0], a.shape[1], _lib.ROW_MAJOR,
              flags | _lib.DENSE_BORROW, ctypes.byref(out))
    return (*a.shape, a)


def _is_float64(X):
    return X.dtype == np.float64 and X.flags.aligned


def _from_csr(X, out):
    X = X.copy() if not X.has_sorted_indices else X
    X.sum_duplicates()  # sorts and merges: the C interface wants strictly increasing columns
    indptr = np.ascontiguousarray(X.indptr, dtype=np.int64)
    indices = np.ascontiguousarray(X.indices, dtype=np.int32)
    values = np.ascontiguousarray(X.data, dtype=np.float64)
    _lib.call("kestrel_dataset_from_csr", indptr.ctypes.data_as(ctypes.POINTER(ctypes.c_int64)),
              indices.ctypes.data_as(ctypes.POINTER(ctypes.c_int32)), _dbl(values), X.shape[0], X.shape[1],
              ctypes.byref(out))
    return X.shape
