#!/bin/sh
# Shared by stream_bench.sh and stream_10g.sh (sourced; needs $here).

# The generator is gen_linear.py (its docstring says how the rows are made).
gen() {  # rows features task file seed
    /usr/bin/python3 "$here/gen_linear.py" "$@"
}
metric() {  # task test.csv predictions.csv -> accuracy or RMSE
    /usr/bin/python3 - "$@" <<'PY'
import sys, numpy as np, pandas as pd
task, test, pred = sys.argv[1:4]
y = pd.read_csv(test, usecols=["label"])["label"].to_numpy()
p = pd.read_csv(pred).iloc[:, 0].to_numpy()
print(f"{np.mean(y == p):.4f}" if task == "clf" else f"{np.sqrt(np.mean((y - p) ** 2)):.4f}")
PY
}
maxdiff() {  # two prediction files with a score column -> largest absolute difference
    /usr/bin/python3 - "$@" <<'PY'
import sys, pandas as pd
a, b = (pd.read_csv(f).select_dtypes("number") for f in sys.argv[1:3])
print(f"{(a - b).abs().to_numpy().max():.2e}")
PY
}
rss_wall() {  # time -v output -> "RSS_MB WALL_S"
    awk '/Maximum resident/ {r=$6/1024} /Elapsed \(wall/ {split($8,t,":"); w=(t[1]*60)+t[2]; if (length(t)==3) w=t[1]*3600+t[2]*60+t[3]} END {printf "%.0f %.1f", r, w}' "$1"
}

