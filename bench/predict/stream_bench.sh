#!/bin/sh
# Streaming kestrel-predict (docs/cli.md, "Streaming"):
#  1. throughput: the same CSV scored from the file read whole (the hidden --chunk-bytes 0; the
#     path before streaming) and from a pipe (streamed in 1 MB pieces), median of 3
#     timings each, rows/s, ratio in one run;
#  2. memory: about GB gigabytes of CSV generated on the fly and piped through kestrel-predict,
#     peak RSS (GNU time) against the model file's size and the input size.
# On THREADS threads, 20 numeric features; the throughput for a logistic model (reading is
# the cost) and a gbdt model of 100 trees of depth 6 (scoring is the cost), the big stream
# with the logistic model (so that it takes minutes, not an hour).
# Prints the figures and writes them, with the machine's load, to bench/predict/results.md
# (copied into bench/RESULTS.md by `bench/run --report`).
#   bench/predict/stream_bench.sh BUILD_DIR [GB=10] [THREADS=2]
set -eu
build=${1:?usage: stream_bench.sh BUILD_DIR [GB] [THREADS]}
gb=${2:-10}; threads=${3:-2}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
out="$work/report"
say() { echo "$*"; echo "- $*" >> "$out"; }
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
/usr/bin/python3 "$here/stream_data.py" "$work"
train="$build/apps/kestrel-train"; predict="$build/apps/kestrel-predict"
"$train" -q -m gbdt -p n_estimators=100 -p max_depth=6 --threads "$threads" "$work/train.csv" -o "$work/gbdt.json"
"$train" -q -m logistic --threads "$threads" "$work/train.csv" -o "$work/logistic.json"
rows=$(($(wc -l < "$work/score.csv") - 1))
median3() { sort -n | sed -n 2p; }
time_it() {  # prints seconds of one run of "$@"
    s=$(date +%s.%N); "$@"; e=$(date +%s.%N); echo "$e - $s" | bc
}
whole() { "$predict" "$work/$model.json" "$work/score.csv" --chunk-bytes 0 --threads "$threads" -o /dev/null; }
piped() { cat "$work/score.csv" | "$predict" "$work/$model.json" - --threads "$threads" -o /dev/null; }
say "input: $rows rows x 20 features, $(du -m "$work/score.csv" | cut -f1) MB; threads $threads"
for model in logistic gbdt; do
    tw=$(for i in 1 2 3; do time_it whole; done | median3)
    tp=$(for i in 1 2 3; do time_it piped; done | median3)
    say "$model ($(du -k "$work/$model.json" | cut -f1) KB): whole file median ${tw}s = $(echo "$rows / $tw" | bc) rows/s;" \
         "streamed median ${tp}s = $(echo "$rows / $tp" | bc) rows/s; time ratio streamed/whole $(echo "scale=3; $tp / $tw" | bc)"
done

/usr/bin/time -f "%M" -o "$work/rss" "$predict" "$work/logistic.json" "$work/score.csv" --chunk-bytes 0 --threads "$threads" -o /dev/null
say "logistic, peak RSS reading the $(du -m "$work/score.csv" | cut -f1) MB file whole: $(( $(cat "$work/rss") / 1024 )) MB"

# The big stream: the header and the score rows, repeated until about GB gigabytes.
size=$(stat -c %s "$work/score.csv")
reps=$(( (gb * 1024 * 1024 * 1024 + size - 1) / size ))
tail -n +2 "$work/score.csv" > "$work/body.csv"
stream() { head -n 1 "$work/score.csv"; i=0; while [ $i -lt $reps ]; do cat "$work/body.csv"; i=$((i + 1)); done; }
s=$(date +%s.%N)
stream | /usr/bin/time -f "%M" -o "$work/rss" "$predict" "$work/logistic.json" - --threads "$threads" -o /dev/null
e=$(date +%s.%N)
total=$((rows * reps))
say "logistic, stream of $reps copies: $total rows, $(echo "$size * $reps / 1048576" | bc) MB in $(echo "$e - $s" | bc)s = $(echo "$total / ($e - $s)" | bc) rows/s; peak RSS $(( $(cat "$work/rss") / 1024 )) MB"

{
    echo "# Streaming kestrel-predict"
    echo
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), kestrel $(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown)" \
         "($("$predict" --version)), $(nproc) cores; load average (1, 5, 15 min) before: $load_before;" \
         "after: $(cut -d' ' -f1-3 /proc/loadavg). Command: \`bench/predict/stream_bench.sh BUILD $gb $threads\`."
    echo
    cat "$out"
    echo
    echo "Times are wall clock, medians of 3; when the load average exceeds the core count other work"
    echo "shares the cores and the absolute rates understate an idle machine's (the ratios hold better)."
    echo "Peak RSS is GNU time's maximum resident set size of the kestrel-predict process."
} > "$here/results.md"
