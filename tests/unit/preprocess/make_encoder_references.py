# Reference values for tests/unit/preprocess/encoders_test.cpp (scikit-learn 1.2.1, Debian 12).
import numpy as np, pandas as pd, io
from sklearn.impute import SimpleImputer
from sklearn.preprocessing import OneHotEncoder
from sklearn.linear_model import Ridge, LogisticRegression
from sklearn.compose import ColumnTransformer
from sklearn.pipeline import make_pipeline
csv = """colour,size,weight,label
red,S,1.5,1.0
blue,M,NA,2.0
red,L,2.5,1.5
green,M,3.0,3.5
NA,S,4.0,2.5
blue,S,2.0,0.5
red,M,7.0,4.0
"""
df = pd.read_csv(io.StringIO(csv))
X = df[["colour","size","weight"]]; y = df["label"]
for s in ["mean","median","most_frequent"]:
    print(s, SimpleImputer(strategy=s).fit(X[["weight"]]).statistics_)
print("cat mf", SimpleImputer(strategy="most_frequent").fit(X[["colour"]]).statistics_)
ct = ColumnTransformer([("num", SimpleImputer(strategy="median"), ["weight"]),
                        ("cat", make_pipeline(SimpleImputer(strategy="most_frequent"), OneHotEncoder(handle_unknown="ignore")), ["colour","size"])])
m = make_pipeline(ct, Ridge(alpha=1.0)).fit(X, y)
print("names", m[0].get_feature_names_out())
print("coef", repr(m[1].coef_), repr(m[1].intercept_))
t = pd.DataFrame({"colour":["purple","red"],"size":["S","XL"],"weight":[np.nan,2.0]})
print("pred", repr(m.predict(t)))
enc = OneHotEncoder(min_frequency=2, handle_unknown="infrequent_if_exist").fit(X[["size"]].fillna("S"))
print("infreq", enc.categories_, enc.infrequent_categories_, enc.transform([["L"],["M"]]).toarray())
enc = OneHotEncoder(max_categories=2, handle_unknown="infrequent_if_exist").fit(X[["size"]])
print("maxcat", enc.infrequent_categories_, enc.transform([["L"],["M"],["S"]]).toarray())
# --encode ordinal: most_frequent imputer + OrdinalEncoder (unknown -1) on colour, size; median on weight.
from sklearn.preprocessing import OrdinalEncoder
ct = ColumnTransformer([("cat", make_pipeline(SimpleImputer(strategy="most_frequent"),
                                              OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1)), ["colour", "size"]),
                        ("num", SimpleImputer(strategy="median"), ["weight"])])
m = make_pipeline(ct, Ridge(alpha=1.0)).fit(X, y)
print("ordinal coef (colour, size, weight)", repr(m[1].coef_), repr(m[1].intercept_))
print("ordinal pred", repr(m.predict(t)))
# logistic on a raw table: most_frequent imputer + OneHotEncoder on colour, size; median on
# weight; LogisticRegression(C=1) by newton-cg to tol 1e-14 (lbfgs stops on its relative
# objective decrease, 64 machine epsilons, with coefficients still 1e-5 off), binary (yes
# against the rest) and multinomial (three labels). encoders_test.cpp's table is this one.
csv3 = """colour,size,weight,label
red,S,1.5,no
blue,M,NA,yes
red,L,2.5,no
green,M,3.0,yes
NA,S,4.0,maybe
blue,S,2.0,no
red,M,7.0,yes
green,L,5.5,maybe
blue,L,1.0,no
red,S,6.0,maybe
green,S,NA,yes
blue,M,3.5,maybe
"""
df = pd.read_csv(io.StringIO(csv3))
X = df[["colour", "size", "weight"]]; y = df["label"]
ct = ColumnTransformer([("cat", make_pipeline(SimpleImputer(strategy="most_frequent"),
                                              OneHotEncoder(handle_unknown="ignore")), ["colour", "size"]),
                        ("num", SimpleImputer(strategy="median"), ["weight"])])
np.set_printoptions(precision=10)
for name, yy in [("binary", (y == "yes").map({True: "yes", False: "no"})), ("multinomial", y)]:
    m = make_pipeline(ct, LogisticRegression(C=1.0, tol=1e-14, max_iter=100000, solver="newton-cg")).fit(X, yy)
    print(name, "classes", m[1].classes_, "names", m[0].get_feature_names_out())
    print(name, "coef", repr(m[1].coef_), repr(m[1].intercept_))
    print(name, "proba", repr(m.predict_proba(t)))
