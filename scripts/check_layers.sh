#!/usr/bin/env bash
# Checks the floors of docs/architecture.md: every `#include "kestrel/<dir>/..."` in the
# library must point at a folder its own folder may use. Prints one line per forbidden
# include (file:line: what may not include what) and exits 1 if there is any.
# ctest runs it as the `layering` test, so the layering cannot drift unnoticed.
set -euo pipefail
cd "$(dirname "$0")/.."

# What each folder of lib/include/kestrel and lib/src may include, besides itself.
ground="core"
shared="$ground common"
below_families="$shared optim kernels io metrics report preprocess multiclass calibration"
families="linear svm kernel_methods tree boosting"
declare -A allowed=(
  [core]=""
  [common]="$ground"
  [optim]="$shared"
  [kernels]="$shared"
  [io]="$shared"
  [metrics]="$shared"
  [report]="$shared"
  [preprocess]="$shared"
  [multiclass]="$shared"
  [calibration]="$shared"
  [linear]="$below_families"
  [svm]="$below_families"
  [kernel_methods]="$below_families"
  [tree]="$below_families"
  [boosting]="$below_families"
  [pipeline]="$below_families $families"
  [exchange]="$below_families $families pipeline"
  [model_selection]="$below_families pipeline"
  [tasks]="$below_families pipeline model_selection"
)

status=0
complain() {
  echo "$1" >&2
  status=1
}

# Every folder must be placed on a floor: a new one is a decision for docs/architecture.md.
for dir in lib/include/kestrel/*/ lib/src/*/; do
  d=$(basename "$dir")
  [ -n "${allowed[$d]+set}" ] || complain "$dir: folder not placed on a floor (scripts/check_layers.sh, docs/architecture.md)"
done
for f in lib/src/*.cpp; do
  [ -e "$f" ] && complain "$f: a source outside every floor (put it in the folder of its floor)"
done

include_re='#[[:space:]]*include[[:space:]]*"kestrel/([a-z_]+)/'
while IFS= read -r hit; do
  file=${hit%%:*}
  rest=${hit#*:}
  line=${rest%%:*}
  [[ $rest =~ $include_re ]] && target=${BASH_REMATCH[1]}
  case "$file" in
    lib/include/kestrel/*) from=${file#lib/include/kestrel/} ;;
    lib/src/*) from=${file#lib/src/} ;;
  esac
  from=${from%%/*}
  [ "$from" = "$target" ] && continue
  ok=0
  for a in ${allowed[$from]:-}; do [ "$a" = "$target" ] && ok=1; done
  [ $ok = 1 ] || complain "$file:$line: $from may not include kestrel/$target/ (docs/architecture.md)"
done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"kestrel/[a-z_]+/' lib/include lib/src)

# The library knows no command line: no CLI11, no header of apps/.
while IFS= read -r hit; do
  complain "${hit%%:*}: the library may not include the command line (${hit#*:})"
done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](CLI/|common/)' lib/include lib/src | cut -d: -f1,3-)

# The commands are front ends: they reach models through pipeline/ (the registry, Model) and
# the task floor, never a family's own header.
while IFS= read -r hit; do
  complain "${hit%%:*}:$(echo "$hit" | cut -d: -f2): a command may not include a model family (${hit##*include }): go through pipeline/ or tasks/ (docs/architecture.md)"
done < <(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"kestrel/(${families// /|})/" apps)

[ $status = 0 ] && echo "layering: every include of lib/ and apps/ respects docs/architecture.md"
exit $status
