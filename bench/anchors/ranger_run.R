#!/usr/bin/env Rscript
# ranger (Debian r-cran-ranger) as a benchmark anchor, in two processes:
#   ranger_run.R train TRAIN MODEL.rds task num.trees=100 num.threads=2 [name=value ...]
#   ranger_run.R predict MODEL.rds TEST PRED.csv
# task is classification or regression; name=value pairs go to ranger() unchanged
# (mtry, max.depth, min.node.size, sample.fraction, replace, seed, ...).
suppressPackageStartupMessages({ library(ranger); library(data.table) })
args <- commandArgs(trailingOnly = TRUE)
dir <- local({
  a <- grep("^--file=", commandArgs(FALSE), value = TRUE)
  dirname(normalizePath(sub("^--file=", "", a[1])))
})
source(file.path(dir, "read_data.R"))

parse_value <- function(v) {
  n <- suppressWarnings(as.numeric(v))
  if (!is.na(n)) return(n)
  if (v %in% c("TRUE", "FALSE")) return(as.logical(v))
  v
}

t0 <- Sys.time()
if (args[1] == "train") {
  d <- read_bench_data(args[2])
  load_s <- as.numeric(Sys.time() - t0, units = "secs")
  classification <- args[4] == "classification"
  extra <- list()
  for (kv in args[-(1:4)]) {
    parts <- strsplit(kv, "=", fixed = TRUE)[[1]]
    extra[[parts[1]]] <- parse_value(paste(parts[-1], collapse = "="))
  }
  y <- if (classification) factor(d$y) else d$y
  t1 <- Sys.time()
  fit <- do.call(ranger, c(list(x = d$x, y = y, classification = classification, verbose = FALSE), extra))
  fit_s <- as.numeric(Sys.time() - t1, units = "secs")
  saveRDS(list(fit = fit, threads = extra[["num.threads"]]), args[3], compress = FALSE)
  report_timings(load_s = load_s, fit_s = fit_s, total_s = as.numeric(Sys.time() - t0, units = "secs"))
} else if (args[1] == "predict") {
  saved <- readRDS(args[2])
  d <- read_bench_data(args[3])
  load_s <- as.numeric(Sys.time() - t0, units = "secs")
  t1 <- Sys.time()
  threads <- if (is.null(saved$threads)) NULL else saved$threads
  p <- predict(saved$fit, data = d$x, num.threads = threads, verbose = FALSE)$predictions
  predict_s <- as.numeric(Sys.time() - t1, units = "secs")
  if (is.factor(p)) p <- as.character(p)
  write_predictions(args[4], p)
  report_timings(load_s = load_s, predict_s = predict_s, total_s = as.numeric(Sys.time() - t0, units = "secs"))
} else {
  stop("usage: ranger_run.R train|predict ...")
}
