#!/usr/bin/env bash
# gbdt's fit before and after a change to its loop (issue 45 split Gbdt::do_fit into
# prepare, continue, boost and finish): the same data, the same parameters, the two builds'
# kestrel-train run alternately (old, new; then new, old; ...), RUNS runs each on one
# thread (a shared machine's other load hits both alike). Prints each run's wall and user
# CPU seconds, then the medians and the ratios new/old (below 1 is faster now), and
# whether the two model files agree but for their date.
#   bench/train/gbdt_before_after.sh OLD_BUILD NEW_BUILD DATA_FILE [RUNS=5] [-p name=value ...]
set -euo pipefail
old=${1:?usage: gbdt_before_after.sh OLD_BUILD NEW_BUILD DATA_FILE [RUNS] [-p name=value ...]}
new=${2:?}; data=${3:?}; runs=${4:-5}
shift $(( $# < 4 ? $# : 4 ))
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
declare -A bin=([old]="$old/apps/kestrel-train" [new]="$new/apps/kestrel-train") wall cpu
for i in $(seq 1 "$runs"); do
  order="old new"; (( i % 2 == 0 )) && order="new old"
  for b in $order; do
    TIMEFORMAT='%R %U'
    read -r w u < <({ time "${bin[$b]}" -q -m gbdt "$@" "$data" -o "$work/$b.json" --threads 1; } 2>&1)
    wall[$b]+=" $w"; cpu[$b]+=" $u"
    echo "run $i $b: wall $w s, user $u s"
  done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", b / a}'; }
wo=$(echo "${wall[old]}" | median); wn=$(echo "${wall[new]}" | median)
co=$(echo "${cpu[old]}" | median); cn=$(echo "${cpu[new]}" | median)
echo "median wall: old $wo s, new $wn s, new/old $(ratio "$wo" "$wn")"
echo "median user CPU: old $co s, new $cn s, new/old $(ratio "$co" "$cn")"
if diff <(grep -v '"date"' "$work/old.json") <(grep -v '"date"' "$work/new.json") > /dev/null; then
  echo "model files: identical but for their date"
else
  echo "model files: DIFFER"
fi
