#!/bin/sh
# Builds the tables kestrel-auto was kept from until its last check (issue 22: "public tables
# you build from Debian packages, different from the ones you tune on: keep some unseen until
# the end"): datasets of Debian's r-cran-mlbench, r-cran-cardata and r-cran-modeldata that no
# bench or tuning run read before, split and written as make_debian_tables.sh writes its own
# (split_tables.R). Installs r-base-core and the three
# packages when one is missing (root only).
# Usage: make_unseen_tables.sh [OUT_DIR]   (default bench/data/unseen)
# HELD_BACK="PACKAGE:NAME:LABEL ..." builds another held-back set the same way
# (make_fresh_tables.sh).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/bench/data/unseen}
if ! command -v Rscript >/dev/null 2>&1 ||
   ! Rscript -e 'library(mlbench); library(carData); library(modeldata)' >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    r-base-core r-cran-mlbench r-cran-cardata r-cran-modeldata >/dev/null
fi
mkdir -p "$out"
# shellcheck disable=SC2086 # the list is words on purpose
Rscript --vanilla "$(dirname "$0")/split_tables.R" "$out" ${HELD_BACK:-\
  mlbench:Soybean:Class mlbench:HouseVotes84:Class mlbench:PimaIndiansDiabetes2:diabetes \
  mlbench:BreastCancer:Class mlbench:Ozone:V4 carData:TitanicSurvival:survived carData:SLID:wages \
  carData:Chile:vote modeldata:concrete:compressive_strength}
