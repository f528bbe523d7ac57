#!/usr/bin/python3
# Reference values for tests/unit/preprocess/polynomial_features_test.cpp, recorded with
# scikit-learn 1.2.1 (Debian python3-sklearn): PolynomialFeatures(degree, interaction_only,
# include_bias=False) on a 4 x 3 fixture with zeros (so that the sparse path has rows of
# 1, 2 and 3 non-zeros). Prints the C++ initialisers pasted into the test.
import numpy as np
import sklearn
from sklearn.preprocessing import PolynomialFeatures

X = np.array([[0.3, -1.7, 0.0], [0.0, 2.9, 0.45], [1.1, 0.0, -0.6], [-0.25, 1.3, 3.7]])
print("// sklearn", sklearn.__version__)
for degree, io in ((3, False), (3, True), (2, False)):
    p = PolynomialFeatures(degree, interaction_only=io, include_bias=False).fit(X)
    T = p.transform(X)
    print(f"// degree={degree} interaction_only={io}: {p.n_output_features_} columns")
    print("names:", ", ".join('"%s"' % n for n in p.get_feature_names_out(["a", "b", "c"])))
    for row in T:
        print(", ".join(repr(float(v)) for v in row) + ",")
