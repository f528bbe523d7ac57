"""kestrel for Python: models of the kestrel library through its C interface (docs/python.md)."""
from .errors import KestrelError, KestrelWarning, ModelFileError
from .model import Model, load_model, list_models, library_version

__all__ = ["KestrelError", "KestrelWarning", "ModelFileError", "Model", "load_model", "list_models", "library_version"]
from .estimators import Classifier, Ranker, Regressor

__all__ += ["Classifier", "Ranker", "Regressor"]
