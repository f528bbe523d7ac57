# Writes public R datasets as the raw tables of data/tables/ were written (docs/benchmarks.md,
# "Raw tables"): a random 80/20 split with set.seed(42) per table, write.csv (header, original
# column order, factors, ordered ones too, as their level names, dates as text, missing cells
# and missing labels as NA, no row names). One line per table on stdout says what it holds.
# Usage: Rscript --vanilla split_tables.R OUT_DIR PACKAGE:NAME:LABEL...
# (the task follows from the label: a factor is classes, a number a target)
args <- commandArgs(trailingOnly = TRUE)
out <- args[1]
for (spec in args[-1]) {
  t <- strsplit(spec, ":", fixed = TRUE)[[1]]
  package <- t[1]; name <- t[2]; label <- t[3]
  suppressMessages(library(package, character.only = TRUE))
  e <- new.env()
  data(list = name, package = package, envir = e)
  d <- as.data.frame(get(name, envir = e))
  for (col in names(d)) if (inherits(d[[col]], c("Date", "POSIXt"))) d[[col]] <- as.character(d[[col]])
  set.seed(42)
  train <- sort(sample(nrow(d), round(0.8 * nrow(d))))
  dir.create(file.path(out, name), showWarnings = FALSE, recursive = TRUE)
  write.csv(d[train, ], file.path(out, name, "train.csv"), row.names = FALSE)
  write.csv(d[-train, ], file.path(out, name, "test.csv"), row.names = FALSE)
  cat(sprintf("%s\t%s\t%d train\t%d test\t%d features\t%d text\t%d rows with NA\t%d without a label\n", name, label,
              length(train), nrow(d) - length(train), ncol(d) - 1,
              sum(sapply(d[names(d) != label], function(x) is.factor(x) || is.character(x))),
              sum(!complete.cases(d)), sum(is.na(d[[label]]))))
}
