# scikit-learn side of the raw-table rows (docs/benchmarks.md, "Raw tables"): the pipelines a
# scikit-learn user writes for a table with string columns and NA cells, fitted 3 times
# (median fit time) on data/tables/NAME/train.csv and scored on test.csv.
# Usage: python3 sklearn_tables.py NAME LABEL c|r   (c: classification, r: regression)
# TABLES=DIR reads DIR/NAME instead (the tables of make_debian_tables.sh).
import sys, time, numpy as np, pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.pipeline import make_pipeline
from sklearn.impute import SimpleImputer
from sklearn.preprocessing import OneHotEncoder, StandardScaler, OrdinalEncoder
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor, RandomForestClassifier, RandomForestRegressor
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import accuracy_score, r2_score
name, label, task = sys.argv[1], sys.argv[2], sys.argv[3]
import os
base = os.path.join(os.environ.get("TABLES") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "tables"), name) + "/"
t0=time.perf_counter()
tr = pd.read_csv(base+"train.csv"); te = pd.read_csv(base+"test.csv")
tr = tr.dropna(subset=[label]); te = te.dropna(subset=[label])
X, y = tr.drop(columns=[label]), tr[label]; Xt, yt = te.drop(columns=[label]), te[label]
cat = [c for c in X.columns if X[c].dtype == object]; num = [c for c in X.columns if c not in cat]
load=time.perf_counter()-t0
def onehot(scale):
    return ColumnTransformer([("num", make_pipeline(SimpleImputer(strategy="median"), *( [StandardScaler()] if scale else [])), num),
                              ("cat", make_pipeline(SimpleImputer(strategy="most_frequent"), OneHotEncoder(handle_unknown="ignore")), cat)])
cls = task == "c"
models = {
 "gbdt(hgb native cat)": make_pipeline(ColumnTransformer([("cat", OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=np.nan, encoded_missing_value=np.nan), cat)], remainder="passthrough"),
        (HistGradientBoostingClassifier if cls else HistGradientBoostingRegressor)(categorical_features=list(range(len(cat))), random_state=0)),
 "forest(rf onehot)": make_pipeline(onehot(False), (RandomForestClassifier if cls else RandomForestRegressor)(n_estimators=100, n_jobs=2, random_state=0)),
 "linear": make_pipeline(onehot(True), LogisticRegression(max_iter=1000) if cls else Ridge(alpha=1.0)),
}
for k, m in models.items():
    times=[]
    for _ in range(3):
        s=time.perf_counter(); m.fit(X, y); times.append(time.perf_counter()-s)
    p = m.predict(Xt)
    score = accuracy_score(yt, p) if cls else r2_score(yt, p)
    print(f"{name}\t{k}\t{score:.4f}\t{sorted(times)[1]:.3f}s fit (+{load:.3f}s load)")
