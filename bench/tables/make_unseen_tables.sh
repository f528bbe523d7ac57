#!/bin/sh
# Builds the tables kestrel-auto was kept from until its last check (issue 22: "public tables
# you build from Debian packages, different from the ones you tune on: keep some unseen until
# the end"): datasets of Debian's r-cran-mlbench, r-cran-cardata and r-cran-modeldata that no
# bench or tuning run read before, split and written as make_debian_tables.sh writes its own
# (R's set.seed(42), 80/20, write.csv: header, original column order, categories as their
# strings, missing cells as NA, missing labels kept). Installs r-base-core and the three
# packages when one is missing (root only).
# Usage: make_unseen_tables.sh [OUT_DIR]   (default bench/data/unseen)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/bench/data/unseen}
if ! command -v Rscript >/dev/null 2>&1 ||
   ! Rscript -e 'library(mlbench); library(carData); library(modeldata)' >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    r-base-core r-cran-mlbench r-cran-cardata r-cran-modeldata >/dev/null
fi
mkdir -p "$out"
OUT="$out" Rscript --vanilla - <<'R'
suppressMessages({library(mlbench); library(carData); library(modeldata)})
out <- Sys.getenv("OUT")
# name, package, label column (a factor label is classes, a number a target)
tables <- list(c("Soybean", "mlbench", "Class"), c("HouseVotes84", "mlbench", "Class"),
               c("PimaIndiansDiabetes2", "mlbench", "diabetes"), c("BreastCancer", "mlbench", "Class"),
               c("Ozone", "mlbench", "V4"), c("TitanicSurvival", "carData", "survived"),
               c("SLID", "carData", "wages"), c("Chile", "carData", "vote"), c("concrete", "modeldata", "compressive_strength"))
for (t in tables) {
  name <- t[1]; label <- t[3]
  e <- new.env()
  data(list = name, package = t[2], envir = e)
  d <- as.data.frame(get(name, envir = e))
  set.seed(42)
  train <- sort(sample(nrow(d), round(0.8 * nrow(d))))
  dir.create(file.path(out, name), showWarnings = FALSE, recursive = TRUE)
  # TitanicSurvival's row names are the passengers' names: kept out, as the other tables' are.
  write.csv(d[train, ], file.path(out, name, "train.csv"), row.names = FALSE)
  write.csv(d[-train, ], file.path(out, name, "test.csv"), row.names = FALSE)
  cat(sprintf("%s\t%s\t%d train\t%d test\t%d features\t%d text\t%d rows with NA\t%d without a label\n", name, label,
              length(train), nrow(d) - length(train), ncol(d) - 1,
              sum(sapply(d[names(d) != label], function(x) is.factor(x) || is.character(x))),
              sum(!complete.cases(d)), sum(is.na(d[[label]]))))
}
R
