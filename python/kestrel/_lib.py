"""Finds and loads libkestrel.so.0 and declares the C functions this package calls.

ctypes.CDLL (not PyDLL) releases the GIL for the length of every foreign call, so a fit or
a predict in one thread leaves the other Python threads running (docs/python.md).
"""
import ctypes
import os
from pathlib import Path

from .errors import raise_for

_SONAME = "libkestrel.so.0"
_here = Path(__file__).resolve().parent


def _candidates():
    """Where the library may be, first found wins: the user's choice, then the install, then
    a build tree beside the source, then the loader's own search (LD_LIBRARY_PATH, ld.so.cache)."""
    env = os.environ.get("KESTREL_LIBRARY")
    if env:
        yield Path(env)
        return  # an explicit choice that fails must fail, not fall back to another library
    yield _here / _SONAME
    try:
        from ._install_location import LIBRARY_RELATIVE_TO_PACKAGE  # written by cmake --install
        yield Path(os.path.normpath(_here / LIBRARY_RELATIVE_TO_PACKAGE))
    except ImportError:
        pass
    yield _here.parent.parent / "build" / "lib" / _SONAME  # python/kestrel -> repo/build/lib
    yield Path(_SONAME)


def _load():
    tried = []
    for path in _candidates():
        if path.name == str(path) or path.exists():
            try:
                return ctypes.CDLL(str(path))
            except OSError as e:
                tried.append(f"{path}: {e}")
        else:
            tried.append(f"{path}: not found")
    raise ImportError("kestrel: cannot load " + _SONAME + " (set KESTREL_LIBRARY to its path); tried "
                      + "; ".join(tried))


lib = _load()

_p = ctypes.c_void_p
_s = ctypes.c_size_t
_str = ctypes.c_char_p
_strs = ctypes.POINTER(ctypes.c_char_p)
_dbl = ctypes.POINTER(ctypes.c_double)


def _declare(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)


_i = ctypes.c_int
_declare("kestrel_last_error", _str)
_declare("kestrel_library_version", _str)
_declare("kestrel_models_json", _i, ctypes.POINTER(_str))
_declare("kestrel_dataset_from_dense", _i, _dbl, _s, _s, _i, ctypes.POINTER(_p))
_declare("kestrel_dataset_from_dense_f32", _i, ctypes.POINTER(ctypes.c_float), _s, _s, _i, ctypes.POINTER(_p))
_declare("kestrel_dataset_from_dense_ex", _i, _dbl, _s, _s, _i, _i, ctypes.POINTER(_p))
_declare("kestrel_dataset_from_dense_f32_ex", _i, ctypes.POINTER(ctypes.c_float), _s, _s, _i, _i, ctypes.POINTER(_p))
_declare("kestrel_dataset_from_csr", _i, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int32), _dbl,
         _s, _s, ctypes.POINTER(_p))
_declare("kestrel_dataset_set_labels", _i, _p, _dbl, _s)
_declare("kestrel_dataset_set_label_strings", _i, _p, _strs, _s)
_declare("kestrel_dataset_set_weights", _i, _p, _dbl, _s)
_declare("kestrel_dataset_set_feature_names", _i, _p, _strs, _s)
_declare("kestrel_dataset_set_groups", _i, _p, _dbl, _s)
_declare("kestrel_dataset_set_categories", _i, _p, _s, _strs, _s)
# kestrel_set_callbacks' function types; the library may call them from its worker threads
# (ctypes takes the GIL for such a call).
WARNING_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_void_p)
PROGRESS_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_uint64, ctypes.c_uint64, ctypes.c_void_p)
_declare("kestrel_set_callbacks", _i, WARNING_CALLBACK, PROGRESS_CALLBACK, _p)
_declare("kestrel_interrupt", None)
_declare("kestrel_dataset_free", None, _p)
_declare("kestrel_model_train", _i, _str, _strs, _s, _strs, _s, _p, _i, ctypes.c_uint64, ctypes.POINTER(_p))
_declare("kestrel_model_load", _i, _str, ctypes.POINTER(_p))
_declare("kestrel_model_save", _i, _p, _str)
_declare("kestrel_model_info_json", _i, _p, ctypes.POINTER(_str))
_declare("kestrel_model_n_features", _i, _p, ctypes.POINTER(_s))
_declare("kestrel_model_n_classes", _i, _p, ctypes.POINTER(_s))
_declare("kestrel_model_class_name", _i, _p, _s, ctypes.POINTER(_str))
_declare("kestrel_model_output_shape", _i, _p, _p, _i, ctypes.POINTER(_s), ctypes.POINTER(_s))
for _f in ("kestrel_model_predict", "kestrel_model_predict_proba", "kestrel_model_decision_function",
           "kestrel_model_contributions"):
    _declare(_f, _i, _p, _p, _dbl, _s)
_declare("kestrel_model_to_string", _i, _p, ctypes.POINTER(_p), ctypes.POINTER(_s))
_declare("kestrel_model_from_string", _i, ctypes.c_char_p, _s, ctypes.POINTER(_p))
_declare("kestrel_model_free", None, _p)
_declare("kestrel_cross_validate", _i, _str, _strs, _s, _strs, _s, _p, _i, _i, ctypes.c_uint64, ctypes.POINTER(_str))

OUTPUT_PREDICTION, OUTPUT_PROBA, OUTPUT_DECISION, OUTPUT_CONTRIB = 0, 1, 2, 3
ROW_MAJOR, COL_MAJOR = 0, 1
DENSE_BORROW, DENSE_REJECT_INFINITE = 1, 2


def call(name, *args, error=None):
    """Calls a C function that returns an error class and turns a failure into an exception
    carrying kestrel_last_error()'s message unchanged."""
    code = getattr(lib, name)(*args)
    if code != 0:
        raise_for(code, lib.kestrel_last_error().decode("utf-8", "replace"), error)


def texts(values):
    """A C array of UTF-8 strings (kept alive by the returned array itself)."""
    arr = (ctypes.c_char_p * len(values))(*[str(v).encode("utf-8") for v in values])
    return arr
