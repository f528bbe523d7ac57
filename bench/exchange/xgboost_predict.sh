#!/bin/sh
# kestrel-predict on an imported XGBoost model against XGBoost predicting the same rows
# (docs/exchange.md "XGBoost JSON"): the same model file (XGBoost 1.7's JSON), the same CSV,
# whole processes on THREADS threads: kestrel-predict, the xgboost command line (task=pred)
# and a Python process (pandas.read_csv, Booster.predict, write). REPS interleaved
# repetitions (kestrel, CLI, Python, kestrel, ...), medians and time ratios. Writes the
# figures, with the machine's load, to bench/exchange/results.md.
#   bench/exchange/xgboost_predict.sh BUILD_DIR [ROWS=200000] [TREES=200] [DEPTH=6] [THREADS=2] [REPS=5]
set -eu
build=${1:?usage: xgboost_predict.sh BUILD_DIR [ROWS] [TREES] [DEPTH] [THREADS] [REPS]}
rows=${2:-200000}; trees=${3:-200}; depth=${4:-6}; threads=${5:-2}; reps=${6:-5}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$here/xgboost_predict.py" gen "$work" "$rows" "$trees" "$depth"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
elapsed() { s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# The CLI takes a configuration file first (its arguments then override it), and its CSV
# reader has no header line: it reads the same rows without it.
tail -n +2 "$work/test.csv" > "$work/test-noheader.csv"
printf 'task=pred\nmodel_in=%s\ntest:data="%s?format=csv&label_column=0"\nname_pred=%s\n' \
    "$work/model.json" "$work/test-noheader.csv" "$work/c.txt" > "$work/pred.conf"
k=""; c=""; p=""
for i in $(seq "$reps"); do
    k="$k $(elapsed "$build/apps/kestrel-predict" "$work/model.json" "$work/test.csv" --threads "$threads" -o "$work/k.csv")"
    c="$c $(elapsed xgboost "$work/pred.conf" nthread="$threads")"
    p="$p $(elapsed /usr/bin/python3 "$here/xgboost_predict.py" predict "$work/model.json" "$work/test.csv" "$work/p.txt" "$threads")"
done
# The three predict the same numbers (the CLI and Python print float32).
/usr/bin/python3 - "$work" <<'PY'
import sys, numpy as np, pandas as pd
w = sys.argv[1]
k = pd.read_csv(f"{w}/k.csv")["prediction"].to_numpy()
# The CLI parses the CSV's text into float32 with its own reader, which can put a value one
# float32 step from the correctly rounded one and so across a threshold: a looser bound.
for name, bound in (("c.txt", 1e-3), ("p.txt", 1e-5)):
    x = np.loadtxt(f"{w}/{name}")
    # Relative to the predictions' scale: XGBoost adds 200 trees in float32, so a prediction
    # near 0 carries an absolute error of about 1e-6.
    d = np.max(np.abs(k - x)) / np.abs(x).max()
    print(f"largest difference kestrel vs {name}, relative to the largest prediction: {d:.3g}")
    assert d < bound, d
PY
km=$(echo "$k" | median); cm=$(echo "$c" | median); pm=$(echo "$p" | median)
report="rows=$rows trees=$trees depth=$depth threads=$threads reps=$reps (interleaved)
- kestrel-predict MODEL.json (XGBoost's file) test.csv -o: median ${km}s (runs:$k)
- xgboost task=pred (the CLI, CSV input): median ${cm}s (runs:$c)
- python3: pandas.read_csv + Booster.predict + write: median ${pm}s (runs:$p)
- time ratio kestrel / xgboost CLI: $(echo "scale=2; $km / $cm" | bc)x; kestrel / Python: $(echo "scale=2; $km / $pm" | bc)x"
echo "$report"
{
    echo "# kestrel-predict on an imported XGBoost model against XGBoost"
    echo
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), kestrel $(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown)," \
         "XGBoost $(/usr/bin/python3 -c 'import xgboost; print(xgboost.__version__)'), $(nproc) cores; load average" \
         "(1, 5, 15 min) before: $load_before; after: $(cut -d' ' -f1-3 /proc/loadavg)." \
         "Command: \`bench/exchange/xgboost_predict.sh BUILD $rows $trees $depth $threads $reps\`."
    echo
    echo "$report"
    echo
    echo "One model file, XGBoost 1.7.4's JSON (hist, squared error, 10 features, 5% missing cells),"
    echo "and one CSV for all three (the CLI's copy without its header line, which its CSV reader"
    echo "would read as a row); each time is a whole process: start, read the model and the rows,"
    echo "predict, write the predictions. kestrel and Python agree to 1e-5 of the largest prediction (checked); the CLI,"
    echo "whose CSV reader rounds some values to a neighbouring float32, to 1e-3."
} > "$here/results.md"
