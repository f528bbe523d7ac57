"""A DataFrame's text columns (object, string or category dtype) are categories, as the
commands read a CSV's text columns: the estimator trains kestrel-train's model on the same
table and scores as kestrel-predict does, whatever order the categories are coded in."""
import numpy as np
import pytest

import kestrel
from commands import command, predict_csv, run
from conftest import ROOT

pd = pytest.importorskip("pandas")
PENGUINS = ROOT / "data" / "tables" / "penguins"


def frame(name):
    """The penguins CSV as pandas reads it: island and sex object columns with NaN cells."""
    table = pd.read_csv(PENGUINS / name, na_values=["NA"], keep_default_na=False)
    return table.drop(columns="species"), table["species"].to_numpy()


@pytest.mark.parametrize("model", ["gbdt", "logistic", "forest"])
def test_text_columns_train_kestrel_trains_model(model, tmp_path):
    X, y = frame("train.csv")
    Xt, _ = frame("test.csv")
    out = tmp_path / "m.json"
    p = run(command("kestrel-train"), "-q", "-m", model, str(PENGUINS / "train.csv"), "-o", str(out))
    assert p.returncode == 0, p.stderr
    header, rows = predict_csv(out, PENGUINS / "test.csv", "--proba")
    est = kestrel.Classifier(model).fit(X, y)
    assert header[1:] == [f"proba_{c}" for c in est.classes_]
    assert np.array_equal(est.predict_proba(Xt), np.array([[float(v) for v in r[1:]] for r in rows]))
    assert list(est.predict(Xt)) == [r[0] for r in rows]


def test_category_dtype_in_any_order_gives_the_same_model():
    X, y = frame("train.csv")
    Xt, _ = frame("test.csv")
    reordered = X.copy()
    reordered["island"] = pd.Categorical(X["island"], categories=["Torgersen", "Dream", "Biscoe"])
    scored = Xt.copy()
    scored["sex"] = pd.Categorical(Xt["sex"], categories=["male", "female", "unknown"])
    expected = kestrel.Classifier("gbdt").fit(X, y).predict_proba(Xt)
    assert np.array_equal(kestrel.Classifier("gbdt").fit(reordered, y).predict_proba(scored), expected)


def test_a_category_unseen_in_training_scores_as_kestrel_predict_scores_it(tmp_path):
    X, y = frame("train.csv")
    Xt, _ = frame("test.csv")
    Xt.loc[Xt.index[:5], "island"] = "Anvers"  # not an island of the training rows
    est = kestrel.Classifier("gbdt").fit(X, y)
    est.save_model(tmp_path / "m.json")
    changed = tmp_path / "test.csv"
    Xt.assign(species="Adelie")[["species", *X.columns]].to_csv(changed, index=False, na_rep="NA")
    _, rows = predict_csv(tmp_path / "m.json", changed, "--proba")
    assert np.array_equal(est.predict_proba(Xt), np.array([[float(v) for v in r[1:]] for r in rows]))


def test_text_column_in_training_and_numbers_at_predict_is_refused():
    X, y = frame("train.csv")
    est = kestrel.Classifier("gbdt").fit(X, y)
    numeric = X.assign(island=0.0)
    with pytest.raises(ValueError, match="column 1 is categorical for the model but numeric here"):
        est.predict(numeric)
