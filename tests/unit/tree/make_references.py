#!/usr/bin/python3
"""Reference figures for tests/unit/tree (scikit-learn 1.2.1, Debian python3-sklearn).

Run: /usr/bin/python3 tests/unit/tree/make_references.py  (from the repository root)
scikit-learn breaks ties between equally good splits at random (it shuffles the features
at every node), so each tree is fitted with 20 random_states and reported as "unique"
only when all 20 give the same tree: then kestrel's deterministic choice must agree.
"""
import numpy as np
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.metrics import accuracy_score, r2_score
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

ROOT = "tests/fixtures/reference/"


def load(name, split):
    d = np.loadtxt(ROOT + name + "/" + split + ".csv", delimiter=",", skiprows=1)
    return d[:, 1:], d[:, 0]


def same_trees(make, X, y):
    trees = [make(rs).fit(X, y).tree_ for rs in range(20)]
    t0 = trees[0]
    return all(t.node_count == t0.node_count and np.array_equal(t.feature, t0.feature)
               and np.allclose(t.threshold, t0.threshold) for t in trees)


Xi, yi = load("iris", "train")
Xit, yit = load("iris", "test")
for crit in ["gini", "entropy"]:
    for depth in [1, 2, 3, 4, None]:
        mk = lambda rs: DecisionTreeClassifier(criterion=crit, max_depth=depth, random_state=rs)
        m = mk(0).fit(Xi, yi)
        print(f"iris {crit} max_depth={depth}: unique={same_trees(mk, Xi, yi)} leaves={m.get_n_leaves()} "
              f"depth={m.get_depth()} train_acc={accuracy_score(yi, m.predict(Xi)):.6f} "
              f"test_pred={''.join(str(int(v)) for v in m.predict(Xit))}")
        if depth == 2:
            print("  features", list(m.tree_.feature), "thresholds", list(m.tree_.threshold))
            print("  importances", list(m.feature_importances_))
for mln in [3, 5]:
    mk = lambda rs: DecisionTreeClassifier(max_leaf_nodes=mln, random_state=rs)
    m = mk(0).fit(Xi, yi)
    print(f"iris max_leaf_nodes={mln}: unique={same_trees(mk, Xi, yi)} leaves={m.get_n_leaves()} "
          f"train_acc={accuracy_score(yi, m.predict(Xi)):.6f}")
for a in [0.01, 0.02, 0.05]:
    mk = lambda rs: DecisionTreeClassifier(ccp_alpha=a, random_state=rs)
    m = mk(0).fit(Xi, yi)
    print(f"iris ccp_alpha={a}: unique={same_trees(mk, Xi, yi)} leaves={m.get_n_leaves()} "
          f"train_acc={accuracy_score(yi, m.predict(Xi)):.6f}")

Xd, yd = load("diabetes", "train")
Xdt, ydt = load("diabetes", "test")
for depth in [1, 2, 3, 4]:
    mk = lambda rs: DecisionTreeRegressor(max_depth=depth, random_state=rs)
    m = mk(0).fit(Xd, yd)
    print(f"diabetes max_depth={depth}: unique={same_trees(mk, Xd, yd)} leaves={m.get_n_leaves()} "
          f"train_r2={r2_score(yd, m.predict(Xd)):.12f} test_pred_sum={m.predict(Xdt).sum():.10f}")
    if depth == 2:
        print("  features", list(m.tree_.feature), "thresholds", list(m.tree_.threshold))
        print("  test_pred[:5]", list(m.predict(Xdt)[:5]))

accs = [accuracy_score(yit, RandomForestClassifier(n_estimators=100, random_state=rs).fit(Xi, yi).predict(Xit))
        for rs in range(10)]
print("iris RandomForestClassifier(n_estimators=100) test accuracy over random_state 0..9:", accs,
      "mean", np.mean(accs))
oobs = [RandomForestClassifier(n_estimators=100, oob_score=True, random_state=rs).fit(Xi, yi).oob_score_
        for rs in range(10)]
print("iris oob_score_ over random_state 0..9: mean", np.mean(oobs), "min", min(oobs), "max", max(oobs))
r2s = [r2_score(ydt, RandomForestRegressor(n_estimators=100, max_features=1/3, random_state=rs).fit(Xd, yd).predict(Xdt))
       for rs in range(5)]
print("diabetes RandomForestRegressor(n_estimators=100, max_features=1/3) test R2 over random_state 0..4:", r2s,
      "mean", np.mean(r2s))

# AdaBoost: scikit-learn's SAMME with two classes gives the learners of Freund &
# Schapire's AdaBoost (its α is twice theirs, which leaves D_t and the sign unchanged).
from sklearn.ensemble import AdaBoostClassifier
for name in ["breast_cancer", "wine"]:
    X, y = load(name, "train")
    Xt, yt = load(name, "test")
    m = AdaBoostClassifier(n_estimators=20, algorithm="SAMME", random_state=0).fit(X, y)
    print(f"{name} AdaBoostClassifier(n_estimators=20, algorithm='SAMME'): rounds={len(m.estimators_)} "
          f"errors[:4]={list(m.estimator_errors_[:4])} weights[:4]={list(m.estimator_weights_[:4])} "
          f"train_acc={accuracy_score(y, m.predict(X)):.6f} test_acc={accuracy_score(yt, m.predict(Xt)):.6f}")
