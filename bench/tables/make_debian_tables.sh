#!/bin/sh
# Builds mixed-type tables kestrel was never tuned on, from the public datasets of Debian's
# r-cran-modeldata package, as data/tables/ was built (split_tables.R says how). Installs
# r-base-core and r-cran-modeldata when Rscript or the package is missing (root only).
# Usage: make_debian_tables.sh [OUT_DIR]   (default bench/data/tables)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/bench/data/tables}
if ! command -v Rscript >/dev/null 2>&1 || ! Rscript -e 'library(modeldata)' >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends r-base-core r-cran-modeldata >/dev/null
fi
mkdir -p "$out"
# package:name:label
Rscript --vanilla "$(dirname "$0")/split_tables.R" "$out" \
  modeldata:attrition:Attrition modeldata:mlc_churn:churn modeldata:wa_churn:churn modeldata:lending_club:Class \
  modeldata:hpc_data:class modeldata:Sacramento:price modeldata:stackoverflow:Remote modeldata:scat:Species
