#!/bin/sh
# Builds the second held-back set of kestrel-auto (issue 22: "keep some unseen until the
# end"): the tables of make_unseen_tables.sh were read once, at 626c64b, and are now seen,
# so these take their place for the next final check. Datasets of Debian's r-cran-mlbench,
# r-cran-cardata and r-cran-modeldata that no bench or tuning run read before, split and
# written as make_debian_tables.sh writes its own (split_tables.R). Installs r-base-core and
# the three packages when one is missing (root only).
# Usage: make_fresh_tables.sh [OUT_DIR]   (default bench/data/fresh)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/bench/data/fresh}
if ! command -v Rscript >/dev/null 2>&1 ||
   ! Rscript -e 'library(mlbench); library(carData); library(modeldata)' >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    r-base-core r-cran-mlbench r-cran-cardata r-cran-modeldata >/dev/null
fi
mkdir -p "$out"
Rscript --vanilla "$(dirname "$0")/split_tables.R" "$out" \
  mlbench:Glass:Type mlbench:Vehicle:Class mlbench:Sonar:Class mlbench:Ionosphere:Class mlbench:Servo:Class \
  carData:Wells:switch carData:Mroz:lfp carData:Salaries:salary modeldata:car_prices:Price
