"""The exceptions a failing C call becomes, by its error class (docs/c-api.md, Errors)."""

USAGE, BAD_INPUT, INTERNAL, INTERRUPTED = 1, 2, 3, 130


class KestrelError(ValueError):
    """Input kestrel could not use: rows that do not fit the model, a malformed file.
    A ValueError, as scikit-learn expects of bad data."""


class ModelFileError(KestrelError, OSError):
    """A model file that could not be read or written (also an OSError)."""


class KestrelWarning(UserWarning):
    """What the library reports during a fit and a command prints as a warning (a solver
    stopped before its tolerance, a numerical guard); raised after the fit returns."""


def raise_for(code, message, bad_input_class=None):
    if code == USAGE:
        raise ValueError(message)
    if code == BAD_INPUT:
        raise (bad_input_class or KestrelError)(message)
    if code == INTERRUPTED:
        raise KeyboardInterrupt
    raise RuntimeError(message)
