#!/bin/sh
# Searches across MPI ranks (docs/distributed.md): the same kestrel-gridsearch / kestrel-cv
# run as one process on 1 and on 2 threads, and as `mpirun -np 2` ranks of 1 thread each,
# median of 3 wall times each, interleaved. Efficiency = (one process, 2 threads) /
# (2 ranks x 1 thread): 1.0 means the ranks cost nothing over threads. The outputs of the
# three runs are compared (fit times aside) and must be identical.
# Writes the figures, with the machine's load, to bench/distributed/results.md (copied
# into bench/RESULTS.md by `bench/run --report`).
#   bench/distributed/search_bench.sh BUILD_DIR [DATA_DIR=../shared/data]
set -eu
build=${1:?usage: search_bench.sh BUILD_DIR [DATA_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
data=${2:-$here/../../../shared/data}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
out="$work/report"
say() { echo "$*"; echo "- $*" >> "$out"; }
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
export PATH="$build/apps:$PATH"
mpi="mpirun --allow-run-as-root --oversubscribe -np 2"
median3() { sort -n | sed -n 2p; }
time_it() { s=$(date +%s.%N); "$@" > "$work/last.out"; e=$(date +%s.%N); echo "$e - $s" | bc; }
strip_times() { sed -E 's/ +[0-9.]+$//; s/"[a-z_]*seconds[a-z_]*": [-0-9.e]+//g' "$1"; }

run_case() {  # name, then the command (without --threads)
    name=$1; shift
    : > "$work/t1"; : > "$work/t2"; : > "$work/tm"
    for i in 1 2 3; do
        time_it "$@" --threads 1 >> "$work/t1"; strip_times "$work/last.out" > "$work/o1"
        time_it "$@" --threads 2 >> "$work/t2"; strip_times "$work/last.out" > "$work/o2"
        time_it $mpi "$@" --threads 1 >> "$work/tm"; strip_times "$work/last.out" > "$work/om"
    done
    same=identical; cmp -s "$work/o1" "$work/om" && cmp -s "$work/o2" "$work/om" || same=DIFFERENT
    t1=$(median3 < "$work/t1"); t2=$(median3 < "$work/t2"); tm=$(median3 < "$work/tm")
    say "$name: 1 process x 1 thread ${t1}s; 1 process x 2 threads ${t2}s; 2 ranks x 1 thread ${tm}s;" \
        "speed-up of the 2 ranks over 1 thread $(echo "scale=2; $t1 / $tm" | bc)x;" \
        "efficiency against 2 threads $(echo "scale=2; $t2 / $tm" | bc); outputs $same"
}

run_case "svc grid, digits (1,437 x 64, 10 classes), 5 C x 4 gamma x 5 folds = 100 fits" \
    kestrel-gridsearch -q -m svc -g 'C=2^0:2^4:1' -g 'gamma=2^-12:2^-6:2' -k 5 --seed 1 "$data/digits/train.csv"
run_case "logistic halving search, digits, 12 C x 5 folds" \
    kestrel-gridsearch -q -m logistic -g 'C=2^-6:2^5:1' --halving -k 5 --seed 1 "$data/digits/train.csv"
run_case "forest 5-fold cv, letter" kestrel-cv -q -m forest -p n_estimators=50 -k 5 --seed 1 "$data/letter/train.csv"

{
    echo "# Searches across MPI ranks"
    echo
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), kestrel $(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown)," \
         "$(mpirun --version | head -1), $(nproc) cores; load average (1, 5, 15 min) before: $load_before;" \
         "after: $(cut -d' ' -f1-3 /proc/loadavg). Command: \`bench/distributed/search_bench.sh BUILD\`."
    echo
    cat "$out"
} > "$here/results.md"
