#!/usr/bin/env bash
# Drives the installed bash completion the way bash does: COMP_WORDS / COMP_CWORD set,
# the function registered with `complete -F` called, COMPREPLY compared word for word.
#   completion_test.sh PREFIX SCRATCH_DIR
set -euo pipefail
prefix=$1
scratch=$2
bin=$prefix/bin
# bash-completion loads a command's script by the command's name: each is installed.
for tool in train predict cv gridsearch select explain auto export; do
  [ -f "$prefix/share/bash-completion/completions/kestrel-$tool" ] || { echo "no completion for kestrel-$tool" >&2; exit 1; }
done
# shellcheck source=/dev/null
source "$prefix/share/bash-completion/completions/kestrel-train"

failures=0
# expect "EXPECTED WORDS" word0 word1 ... (the last word is the one being completed)
expect() {
  local expected=$1
  shift
  COMP_WORDS=("$@")
  COMP_CWORD=$(($# - 1))
  COMP_LINE="$*"
  COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  local spec fn
  spec=$(complete -p "$1")
  fn=${spec#*-F }
  fn=${fn%% *}
  # A completion function's status means nothing to bash; a failing one must still fill COMPREPLY.
  "$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" || true
  local got
  got=$(printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort | tr '\n' ' ' | sed 's/ $//')
  expected=$(tr ' ' '\n' <<<"$expected" | sed '/^$/d' | sort | tr '\n' ' ' | sed 's/ $//')
  if [ "$got" != "$expected" ]; then
    echo "completion of '$*': expected [$expected], got [$got]" >&2
    failures=$((failures + 1))
  fi
}

# Flags by prefix.
expect "--scale --seed --shard --shards" kestrel-train --s
expect "--proba" kestrel-predict --pro
# Choice values, after a space and after '=' (bash splits --scale=st into --scale = st).
expect "none standard minmax" kestrel-train --scale ""
expect "standard" kestrel-cv --scale = st
expect "auto csv libsvm" kestrel-predict --format ""
expect "forward backward" kestrel-select --direction ""
expect "--shap-summary" kestrel-explain --sha
# Model names after -m: exactly what --list-models prints.
expect "$("$bin/kestrel-train" --list-models | cut -d' ' -f1 | tr '\n' ' ')" kestrel-train -m ""
expect "$("$bin/kestrel-train" --list-models | cut -d' ' -f1 | grep '^log' | tr '\n' ' ')" kestrel-cv --model log
# Parameter names after -p, for the model chosen by -m: exactly what --help-params lists.
params=$("$bin/kestrel-train" -m svc --help-params | grep -E '^  [A-Za-z_][A-Za-z0-9_]*  ' | awk '{print $1 "="}' | tr '\n' ' ')
expect "$params" kestrel-train -m svc -p ""
expect "kernel=" kestrel-gridsearch -m svc -g ker
# A parameter's values after name= where they are a closed set: a choice's (as
# --help-params lists them, split by bash at '=' and not), a boolean's, a number's symbolic
# values (gamma=auto|median).
penalty_values=$("$bin/kestrel-train" -m logistic --help-params | grep -A1 -E '^  penalty  ' | tail -1 | sed -E 's/.*one of ([^];]*).*/\1/; s/,//g')
[ -n "$penalty_values" ] || { echo "cannot read logistic's penalty values from --help-params" >&2; exit 1; }
expect "$penalty_values" kestrel-train -m logistic -p penalty = ""
expect "$(tr ' ' '\n' <<<"$penalty_values" | grep '^l1' | sed 's/^/penalty=/' | tr '\n' ' ')" kestrel-cv -m logistic -p penalty=l1
expect "shrinking=true" kestrel-train -m svc -p shrinking=t
expect "auto median" kestrel-train -m svc -p gamma = ""
# No model chosen yet: no parameter names to offer.
expect "" kestrel-train -p ""
# Files where a file is expected: positionals, -o, --results; nothing after a number.
mkdir -p "$scratch/files"
touch "$scratch/files/train.csv" "$scratch/files/test.csv" "$scratch/files/model.json"
cd "$scratch/files"
expect "train.csv test.csv" kestrel-train -m logistic t
expect "model.json" kestrel-predict m
expect "model.json" kestrel-train -o mo
expect "model.json test.csv train.csv" kestrel-gridsearch -m svc --results = ""
expect "" kestrel-cv --seed ""
# Metric names after --metric include the defaults.
COMP_WORDS=(kestrel-cv --metric "")
COMP_CWORD=2
_kestrel_cv kestrel-cv "" --metric || true
printf '%s\n' "${COMPREPLY[@]}" | grep -qx accuracy || { echo "--metric does not offer accuracy" >&2; failures=$((failures + 1)); }
printf '%s\n' "${COMPREPLY[@]}" | grep -qx r2 || { echo "--metric does not offer r2" >&2; failures=$((failures + 1)); }

if [ "$failures" -gt 0 ]; then
  echo "completion_test: $failures failure(s)" >&2
  exit 1
fi
echo "completion_test: ok"
