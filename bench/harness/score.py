"""Quality on the test split, computed the same way for every tool from its prediction file.

Truth comes from the test file (CSV `label` column or the first LIBSVM token); predictions
from whatever the tool wrote: kestrel's CSV (`prediction` header, maybe score columns),
svm-predict / liblinear-predict (one label per line; a `labels ...` header with -b 1), or the
runners' `prediction` CSV. Labels compare as numbers when both parse as numbers ("1" == "1.0").
"""

import math


def read_truth(path):
    labels = []
    with open(path) as fh:
        if path.endswith(".csv"):
            header = fh.readline().rstrip("\n").split(",")
            col = header.index("label") if "label" in header else 0
            for line in fh:
                if line.strip():
                    labels.append(line.rstrip("\n").split(",")[col])
        else:
            for line in fh:
                if line.strip():
                    labels.append(line.split(None, 1)[0])
    return labels


def read_predictions(path):
    values = []
    with open(path) as fh:
        for i, line in enumerate(fh):
            line = line.strip()
            if not line:
                continue
            first = line.replace(",", " ").split()[0].strip('"')
            if i == 0 and (first in ("prediction", "labels", "x") or not _is_number(first)):
                continue  # a header row
            values.append(first)
    return values


def _is_number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def _norm(label):
    try:
        v = float(label)
        return repr(v)
    except ValueError:
        return label


def classification_scores(truth, pred):
    t = [_norm(x) for x in truth]
    p = [_norm(x) for x in pred]
    correct = sum(a == b for a, b in zip(t, p))
    f1s = []
    for c in sorted(set(t)):
        tp = sum(a == c and b == c for a, b in zip(t, p))
        fp = sum(a != c and b == c for a, b in zip(t, p))
        fn = sum(a == c and b != c for a, b in zip(t, p))
        denom = 2 * tp + fp + fn
        f1s.append(2 * tp / denom if denom else 0.0)
    return {"accuracy": 100.0 * correct / len(t), "macro_f1": sum(f1s) / len(f1s)}


def regression_scores(truth, pred):
    t = [float(x) for x in truth]
    p = [float(x) for x in pred]
    n = len(t)
    mean = sum(t) / n
    sse = sum((a - b) ** 2 for a, b in zip(t, p))
    sst = sum((a - mean) ** 2 for a in t)
    return {"rmse": math.sqrt(sse / n), "r2": 1.0 - sse / sst if sst > 0 else float("nan")}


def _deviance_terms(power):
    """The unit deviance d(y, mu) of the Tweedie family with this power (scikit-learn's
    mean_tweedie_deviance: 1 Poisson, 2 Gamma, 1 < p < 2 compound Poisson-Gamma)."""
    if power == 1:
        return lambda y, mu: 2 * ((y * math.log(y / mu) if y > 0 else 0.0) - y + mu)
    if power == 2:
        return lambda y, mu: 2 * (math.log(mu / y) + y / mu - 1)
    p = power
    return lambda y, mu: 2 * (max(y, 0.0) ** (2 - p) / ((1 - p) * (2 - p)) - y * mu ** (1 - p) / (1 - p)
                              + mu ** (2 - p) / (2 - p))


def task_metric(truth, pred, metric):
    """(name, value) of a task's own loss, averaged over the test rows (lower is better):
    poisson_deviance, gamma_deviance, tweedie_deviance:P (scikit-learn's mean_*_deviance) or
    pinball:ALPHA (mean_pinball_loss). A prediction outside the loss's domain is an error."""
    name, _, arg = metric.partition(":")
    t = [float(x) for x in truth]
    p = [float(x) for x in pred]
    if name == "pinball":
        alpha = float(arg)
        loss = sum(alpha * (a - b) if a >= b else (1 - alpha) * (b - a) for a, b in zip(t, p)) / len(t)
        return f"pinball loss α={arg}", loss
    power = {"poisson_deviance": 1.0, "gamma_deviance": 2.0, "tweedie_deviance": float(arg or 0)}[name]
    if any(b <= 0 for b in p):
        raise ValueError(f"{name} needs positive predictions")
    unit = _deviance_terms(power)
    label = {"poisson_deviance": "Poisson deviance", "gamma_deviance": "Gamma deviance"}.get(
        name, f"Tweedie deviance p={arg}")
    return label, sum(unit(a, b) for a, b in zip(t, p)) / len(t)


def score(truth_path, pred_path, task, metric=None):
    """{'accuracy', 'macro_f1'} or {'rmse', 'r2'} (plus {'metric', 'metric_value'}: the task's
    own loss, see task_metric); {'error': ...} when the file does not fit."""
    truth = read_truth(truth_path)
    try:
        pred = read_predictions(pred_path)
    except OSError as e:
        return {"error": f"no predictions: {e}"}
    if len(pred) != len(truth):
        return {"error": f"{len(pred)} predictions for {len(truth)} test rows"}
    try:
        if task != "regression":
            return classification_scores(truth, pred)
        out = regression_scores(truth, pred)
        if metric:
            out["metric"], out["metric_value"] = task_metric(truth, pred, metric)
        return out
    except ValueError as e:
        return {"error": f"unreadable prediction: {e}"}
