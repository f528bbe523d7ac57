#!/bin/sh
# Builds mixed-type tables kestrel was never tuned on, from the public datasets of Debian's
# r-cran-modeldata package, as data/tables/ was built (docs/benchmarks.md, "Raw tables"): a
# random 80/20 split with R's set.seed(42), written with write.csv (header, original column
# order, categories as their strings, missing cells as NA). Installs r-base-core and
# r-cran-modeldata when Rscript or the package is missing (root only).
# Usage: make_debian_tables.sh [OUT_DIR]   (default bench/data/tables)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/bench/data/tables}
if ! command -v Rscript >/dev/null 2>&1 || ! Rscript -e 'library(modeldata)' >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends r-base-core r-cran-modeldata >/dev/null
fi
mkdir -p "$out"
OUT="$out" Rscript --vanilla - <<'R'
suppressMessages(library(modeldata))
out <- Sys.getenv("OUT")
# name -> label column (the task follows from the label: a factor is classes, a number a target)
tables <- c(attrition = "Attrition", mlc_churn = "churn", wa_churn = "churn", lending_club = "Class",
            hpc_data = "class", Sacramento = "price", stackoverflow = "Remote", scat = "Species")
for (name in names(tables)) {
  e <- new.env()
  data(list = name, package = "modeldata", envir = e)
  d <- as.data.frame(get(name, envir = e))
  # Factors (ordered ones too) are written as their level names; dates as text.
  for (col in names(d)) if (inherits(d[[col]], c("Date", "POSIXt"))) d[[col]] <- as.character(d[[col]])
  set.seed(42)
  train <- sort(sample(nrow(d), round(0.8 * nrow(d))))
  dir.create(file.path(out, name), showWarnings = FALSE, recursive = TRUE)
  write.csv(d[train, ], file.path(out, name, "train.csv"), row.names = FALSE)
  write.csv(d[-train, ], file.path(out, name, "test.csv"), row.names = FALSE)
  cat(sprintf("%s\t%s\t%d train\t%d test\t%d features\t%d text\t%d rows with NA\n", name, tables[[name]],
              length(train), nrow(d) - length(train), ncol(d) - 1,
              sum(sapply(d[names(d) != tables[[name]]], function(x) is.factor(x) || is.character(x))),
              sum(!complete.cases(d))))
}
R
