"""kestrel.Ranker gives what kestrel-train -p loss=... and kestrel-predict give on the same
LIBSVM file with qid: tokens, scores its NDCG as kestrel's `ndcg` metric, and refuses bad
query ids with the library's messages."""
import json

import numpy as np
import pytest

import kestrel
from commands import command, run
from kestrel.estimators import mean_ndcg


@pytest.fixture(scope="module")
def letor(tmp_path_factory):
    """40 queries of 6 to 14 documents, 5 features; grades 0..3 from a noisy linear score."""
    rng = np.random.default_rng(7)
    sizes = rng.integers(6, 15, size=40)
    n = int(sizes.sum())
    X = np.round(rng.normal(size=(n, 5)), 4)
    latent = X @ np.array([1.0, -0.5, 0.25, 0.0, 0.75]) + rng.normal(scale=0.5, size=n)
    y = np.digitize(latent, [-0.5, 0.5, 1.5]).astype(float)
    qid = np.repeat(np.arange(1, sizes.size + 1), sizes)
    path = tmp_path_factory.mktemp("letor") / "train.rank"
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            cells = " ".join(f"{j + 1}:{X[i, j]:.4f}" for j in range(5))
            f.write(f"{int(y[i])} qid:{qid[i]} {cells}\n")
    return X, y, qid, sizes, path


@pytest.mark.parametrize("loss", ["lambdarank", "rank_pairwise"])
def test_scores_equal_the_commands(letor, loss, tmp_path):
    X, y, qid, _, path = letor
    model = tmp_path / "m.json"
    p = run(command("kestrel-train"), "-q", "-m", "gbdt", "-p", f"loss={loss}", "-p", "n_estimators=20",
            "--format", "libsvm", str(path), "-o", str(model))
    assert p.returncode == 0, p.stderr
    p = run(command("kestrel-predict"), "-q", str(model), "--format", "libsvm", str(path))
    assert p.returncode == 0, p.stderr
    expected = np.array([float(v) for v in p.stdout.split()[1:]])
    ranker = kestrel.Ranker("gbdt", loss=loss, n_estimators=20).fit(X, y, qid=qid)
    assert np.array_equal(ranker.predict(X), expected)  # the same model: the same bytes of every score


def test_group_sizes_are_the_same_queries_as_qid(letor):
    X, y, qid, sizes, _ = letor
    a = kestrel.Ranker(n_estimators=10).fit(X, y, qid=qid).predict(X)
    b = kestrel.Ranker(n_estimators=10).fit(X, y, group=sizes).predict(X)
    assert np.array_equal(a, b)


def test_score_is_the_ndcg_kestrel_predict_reports(letor, tmp_path):
    X, y, qid, _, path = letor
    ranker = kestrel.Ranker(n_estimators=15).fit(X, y, qid=qid)
    ranker.save_model(tmp_path / "m.json")
    p = run(command("kestrel-predict"), "-q", str(tmp_path / "m.json"), "--format", "libsvm", str(path),
            "--metrics", "--json")
    assert p.returncode == 0, p.stderr
    assert ranker.score(X, y, qid=qid) == pytest.approx(json.loads(p.stdout)["ndcg"], abs=1e-12)


def test_mean_ndcg_by_hand():
    # Query 1: grades (2, 0, 1) scored (0.1, 0.3, 0.2): order 0-based rows 1, 2, 0.
    # DCG = 0/log2(2) + 1/log2(3) + 3/log2(4); IDCG = 3/log2(2) + 1/log2(3). Query 2: no
    # relevant document, NDCG 1.
    y = np.array([2.0, 0.0, 1.0, 0.0, 0.0])
    s = np.array([0.1, 0.3, 0.2, 0.5, 0.4])
    q = np.array([1, 1, 1, 2, 2])
    first = (1 / np.log2(3) + 3 / 2) / (3 + 1 / np.log2(3))
    assert mean_ndcg(y, s, q) == pytest.approx((first + 1.0) / 2, abs=1e-15)


def test_bad_query_ids_raise(letor):
    X, y, qid, sizes, _ = letor
    with pytest.raises(ValueError, match="exactly one of qid"):
        kestrel.Ranker().fit(X, y)
    with pytest.raises(ValueError, match="summing to the"):
        kestrel.Ranker().fit(X, y, group=sizes[:-1])
    back = qid.copy()
    back[-1] = 1  # query 1 comes back after the others: not contiguous
    with pytest.raises(ValueError) as e:
        kestrel.Ranker().fit(X, y, qid=back)
    assert "query" in str(e.value)


def test_ranker_round_trips_get_params():
    r = kestrel.Ranker("gbdt", loss="rank_pairwise", max_depth=3)
    assert r.get_params()["loss"] == "rank_pairwise"
    assert kestrel.Ranker(**r.get_params()).get_params() == r.get_params()
