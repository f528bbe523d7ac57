# Shared by the R anchors: read a benchmark data file into list(x = numeric matrix, y = labels).
# CSV (header, `label` first) through data.table::fread, the fast reader R users would pick;
# LIBSVM through a vectorised parse of the tokens (glmnet takes the sparse matrix as it is).
read_bench_data <- function(path, sparse = FALSE, n_features = NULL) {
  if (grepl("\\.(libsvm|svm|txt)$", path)) {
    lines <- readLines(path)
    tokens <- strsplit(lines, " ", fixed = TRUE)
    y <- as.numeric(vapply(tokens, `[`, "", 1L))
    counts <- lengths(tokens) - 1L
    pairs <- unlist(lapply(tokens, `[`, -1L), use.names = FALSE)
    pairs <- pairs[nzchar(pairs)]
    colon <- regexpr(":", pairs, fixed = TRUE)
    j <- as.integer(substr(pairs, 1L, colon - 1L))
    v <- as.numeric(substr(pairs, colon + 1L, nchar(pairs)))
    i <- rep.int(seq_along(lines), counts)
    p <- if (is.null(n_features)) max(j) else n_features
    x <- Matrix::sparseMatrix(i = i, j = j, x = v, dims = c(length(lines), p))
    if (!sparse) x <- as.matrix(x)
    colnames(x) <- paste0("f", seq_len(p))  # ranger needs named covariates
    return(list(x = x, y = y))
  }
  frame <- data.table::fread(path, header = TRUE, showProgress = FALSE)
  y <- frame[["label"]]
  frame[, label := NULL]
  list(x = as.matrix(frame), y = y)
}

write_predictions <- function(path, values) {
  data.table::fwrite(data.frame(prediction = values), path)
}

# Internal timings as one JSON line on stdout, as the Python runners print them.
report_timings <- function(...) {
  t <- list(...)
  cat("{", paste0('"', names(t), '": ', sprintf("%.6f", unlist(t)), collapse = ", "), "}\n", sep = "")
}

