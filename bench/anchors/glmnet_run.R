#!/usr/bin/env Rscript
# glmnet (Debian r-cran-glmnet) as a benchmark anchor for the lasso / elastic-net path:
#   glmnet_run.R train TRAIN MODEL.rds nlambda=100 lambda.min.ratio=1e-4 alpha=1 [name=value ...]
#   glmnet_run.R predict MODEL.rds TEST PRED.csv
# name=value pairs go to glmnet() unchanged (family defaults to gaussian), except those
# glmnet.control() takes (fdev=0 turns off the early end of the path, so that glmnet
# fits all nlambda values as kestrel does). Prediction uses the
# last (smallest) lambda of the path, as kestrel's lasso predicts with its final path point.
suppressPackageStartupMessages({ library(glmnet); library(data.table) })
args <- commandArgs(trailingOnly = TRUE)
dir <- local({
  a <- grep("^--file=", commandArgs(FALSE), value = TRUE)
  dirname(normalizePath(sub("^--file=", "", a[1])))
})
source(file.path(dir, "read_data.R"))

t0 <- Sys.time()
if (args[1] == "train") {
  d <- read_bench_data(args[2], sparse = grepl("\\.libsvm$", args[2]))
  load_s <- as.numeric(Sys.time() - t0, units = "secs")
  extra <- list()
  for (kv in args[-(1:3)]) {
    parts <- strsplit(kv, "=", fixed = TRUE)[[1]]
    v <- suppressWarnings(as.numeric(parts[2]))
    extra[[parts[1]]] <- if (is.na(v)) parts[2] else v
  }
  control <- names(extra) %in% names(glmnet.control())
  if (any(control)) do.call(glmnet.control, extra[control])
  t1 <- Sys.time()
  fit <- do.call(glmnet, c(list(x = d$x, y = d$y), extra[!control]))
  fit_s <- as.numeric(Sys.time() - t1, units = "secs")
  saveRDS(list(fit = fit, n_features = ncol(d$x)), args[3], compress = FALSE)
  report_timings(load_s = load_s, fit_s = fit_s, n_lambda = length(fit$lambda),
                 total_s = as.numeric(Sys.time() - t0, units = "secs"))
} else if (args[1] == "predict") {
  saved <- readRDS(args[2])
  d <- read_bench_data(args[3], sparse = grepl("\\.libsvm$", args[3]), n_features = saved$n_features)
  load_s <- as.numeric(Sys.time() - t0, units = "secs")
  t1 <- Sys.time()
  p <- predict(saved$fit, newx = d$x, s = min(saved$fit$lambda), type = "response")
  predict_s <- as.numeric(Sys.time() - t1, units = "secs")
  if (is.matrix(p)) p <- p[, 1]
  write_predictions(args[4], p)
  report_timings(load_s = load_s, predict_s = predict_s, total_s = as.numeric(Sys.time() - t0, units = "secs"))
} else {
  stop("usage: glmnet_run.R train|predict ...")
}
