/* kestrel's C interface (docs/c-api.md): plain C99 over opaque handles, for programs in C
 * and for foreign-function interfaces (Python's ctypes). Exported by libkestrel.so.0; every
 * symbol starts with kestrel_ and the list is kept in lib/c_api.symbols.
 *
 * Every call that can fail returns 0 (KESTREL_OK) or an error class, the exit-code classes
 * of the commands: KESTREL_ERROR_USAGE (an unknown model, a bad parameter or option, a
 * buffer too small), KESTREL_ERROR_BAD_INPUT (an unreadable or malformed file, bad rows),
 * KESTREL_ERROR_INTERNAL (a bug, or out of memory), KESTREL_ERROR_INTERRUPTED (a fit stopped
 * by kestrel_interrupt). kestrel_last_error() then gives the
 * message, in the library's words (options by their library names: "max_rows", never a
 * command-line flag). No C++ exception ever leaves a call. */
#ifndef KESTREL_C_API_H
#define KESTREL_C_API_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define KESTREL_API __attribute__((visibility("default")))
#else
#define KESTREL_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface: raised when a function is added (the soname's minor). */
#define KESTREL_C_API_VERSION 2

/* The error classes (kestrel::ExitCode). */
#define KESTREL_OK 0
#define KESTREL_ERROR_USAGE 1
#define KESTREL_ERROR_BAD_INPUT 2
#define KESTREL_ERROR_INTERNAL 3
#define KESTREL_ERROR_INTERRUPTED 130 /* as a command ended by SIGINT */

/* The layouts of a dense matrix. */
#define KESTREL_ROW_MAJOR 0
#define KESTREL_COL_MAJOR 1

/* kestrel_dataset_from_dense_ex's flags, or-ed (0 for none). */
#define KESTREL_DENSE_BORROW 1          /* read row-major float64 values in place, without a copy (see _ex) */
#define KESTREL_DENSE_REJECT_INFINITE 2 /* a cell of +-inf is KESTREL_ERROR_BAD_INPUT naming its row and column */

/* What a prediction call writes (kestrel_model_output_shape). */
#define KESTREL_OUTPUT_PREDICTION 0 /* n_rows x 1: a class index into the classes, or a value */
#define KESTREL_OUTPUT_PROBA 1      /* n_rows x n_classes */
#define KESTREL_OUTPUT_DECISION 2   /* n_rows x 1 (binary, regression) or n_rows x n_classes */
#define KESTREL_OUTPUT_CONTRIB 3    /* n_rows x K*(n_features+1): per output, each column's share then the bias */

typedef struct KestrelDataset KestrelDataset;
typedef struct KestrelModel KestrelModel;

/* The message of the last call that failed on this thread ("" when none failed). Valid
 * until the next failing call on the same thread. */
KESTREL_API const char* kestrel_last_error(void);
/* The library's version ("0.1.0"). */
KESTREL_API const char* kestrel_library_version(void);
/* Every model of the registry with its summary, tasks and parameters, as JSON (what
 * kestrel-train --list-models --json prints, without its final newline). The text lives
 * as long as the process. */
KESTREL_API int kestrel_models_json(const char** json);

/* What a fit reports while it runs: a warning (a solver stopped before its tolerance, a
 * numerical guard), and progress (done of total units of the labelled work). `user_data`
 * is handed back as given. A callback may be called from the library's worker threads, one
 * call at a time or not: keep it short and thread-safe. */
typedef void (*KestrelWarningCallback)(const char* message, void* user_data);
typedef void (*KestrelProgressCallback)(const char* label, uint64_t done, uint64_t total, void* user_data);
/* The callbacks of the fits this thread starts from now on (NULL: none, the default:
 * warnings are then discarded). */
KESTREL_API int kestrel_set_callbacks(KestrelWarningCallback warning, KestrelProgressCallback progress,
                                      void* user_data);

/* Stops every kestrel_model_train and kestrel_cross_validate running in the process, from
 * another thread or from a signal handler (it is async-signal-safe: one lock-free atomic
 * update). Each returns KESTREL_ERROR_INTERRUPTED ("interrupted") at its next interruption
 * point (between boosting rounds, trees, solver iterations, folds: well under a second on
 * any table the library trains on at speed), having made nothing. A request made while no
 * fit runs is ignored, so a late one never stops the next fit; one made while fits run
 * also stops a fit started before they have all ended. */
KESTREL_API void kestrel_interrupt(void);

/* ---- datasets ---- */

/* A data file (a path, or "-" for standard input) read as the commands read it, with
 * read options as "name=value" texts by the library's names (format, header, label_col,
 * delimiter, missing, categorical_columns, numeric_columns, ignore_columns,
 * unknown_category_error, max_categories, max_rows, max_memory, threads, weights_col,
 * group_col). The options are checked now; the file is read when the dataset is used,
 * for training as kestrel-train reads it, for prediction as kestrel-predict does (aligned
 * with the model), so "-" can be used once. */
KESTREL_API int kestrel_dataset_from_file(const char* path, const char* const* options, size_t n_options,
                                          KestrelDataset** out);
/* Rows of float64 (NaN = missing) in KESTREL_ROW_MAJOR or KESTREL_COL_MAJOR order. The
 * values are copied (the library owns its matrices); the caller's buffer may be freed at
 * once. */
KESTREL_API int kestrel_dataset_from_dense(const double* values, size_t n_rows, size_t n_cols, int layout,
                                           KestrelDataset** out);
/* The same from float32 values, converted to float64 as they are copied. */
KESTREL_API int kestrel_dataset_from_dense_f32(const float* values, size_t n_rows, size_t n_cols, int layout,
                                               KestrelDataset** out);
/* kestrel_dataset_from_dense and _f32 with `flags` (KESTREL_DENSE_*), flags 0 being the
 * function without _ex.
 * KESTREL_DENSE_BORROW: float64 values in KESTREL_ROW_MAJOR order (kestrel's own layout) are
 * not copied: the dataset reads them where they are, for training and for prediction. The
 * caller must keep `values` allocated and unchanged until kestrel_dataset_free(*out); the
 * library never writes them (a step that would, such as re-coding categorical columns, works
 * on a copy), and a model trained on the dataset keeps nothing of them. Column-major and
 * float32 values are copied as without the flag (the caller's promise then costs nothing).
 * KESTREL_DENSE_REJECT_INFINITE: the first infinite cell in row order is
 * KESTREL_ERROR_BAD_INPUT naming its row and column (from 1), and no dataset is made
 * (scikit-learn refuses infinity; NaN stays a missing cell). */
KESTREL_API int kestrel_dataset_from_dense_ex(const double* values, size_t n_rows, size_t n_cols, int layout,
                                              int flags, KestrelDataset** out);
KESTREL_API int kestrel_dataset_from_dense_f32_ex(const float* values, size_t n_rows, size_t n_cols, int layout,
                                                  int flags, KestrelDataset** out);
/* Compressed sparse rows: row i's entries are indices[indptr[i] .. indptr[i+1]) with
 * values[...]; indices strictly increasing in a row and below n_cols. An absent entry is
 * zero (or missing, for a model that reads it so: gbdt). Copied. */
KESTREL_API int kestrel_dataset_from_csr(const int64_t* indptr, const int32_t* indices, const double* values,
                                         size_t n_rows, size_t n_cols, KestrelDataset** out);
/* Labels of an in-memory dataset, one per row: numbers, or texts (classes as written).
 * A classification model's classes are ordered as the commands order them. */
KESTREL_API int kestrel_dataset_set_labels(KestrelDataset* data, const double* labels, size_t n);
KESTREL_API int kestrel_dataset_set_label_strings(KestrelDataset* data, const char* const* labels, size_t n);
/* Sample weights, one per row (in-memory datasets). */
KESTREL_API int kestrel_dataset_set_weights(KestrelDataset* data, const double* weights, size_t n);
/* Query ids for learning to rank, one per row; a query's rows are contiguous. */
KESTREL_API int kestrel_dataset_set_groups(KestrelDataset* data, const double* qid, size_t n);
/* Feature names, one per column (the model keeps them). */
KESTREL_API int kestrel_dataset_set_feature_names(KestrelDataset* data, const char* const* names, size_t n);
/* Declares column `column` (from 0) of a dense in-memory dataset categorical, as a CSV text
 * column is: its cells are integer codes 0..n_names-1 into `names` (a pandas Categorical's
 * codes, an R factor's levels minus one); a negative code or NaN is a missing cell. The
 * names are copied and sorted byte-wise as the readers sort a column's categories, so the
 * model trained is kestrel-train's on the same table as CSV. When rows are scored, their
 * names are matched to the model's categories by text; a name the model never saw is an
 * unseen category, as in kestrel-predict. */
KESTREL_API int kestrel_dataset_set_categories(KestrelDataset* data, size_t column, const char* const* names,
                                               size_t n_names);
/* The rows and columns of an in-memory dataset; a file dataset answers
 * KESTREL_ERROR_USAGE (its shape is known once it is read for a model:
 * kestrel_model_output_shape). */
KESTREL_API int kestrel_dataset_shape(const KestrelDataset* data, size_t* n_rows, size_t* n_cols);
/* Frees a dataset (NULL is fine). */
KESTREL_API void kestrel_dataset_free(KestrelDataset* data);

/* ---- models ---- */

/* Trains `model_name` on `data` as kestrel-train does: params are "name=value" texts as
 * its -p takes them (the same names, defaults, checks and messages), options the
 * preparation (scale, task, missing, missing_indicator, encode, max_categories,
 * min_frequency, resample, poly, poly.interaction_only, poly.max_width, calibrate,
 * calibrate_folds). threads 0 = every core; the same seed gives the same model. */
KESTREL_API int kestrel_model_train(const char* model_name, const char* const* params, size_t n_params,
                                    const char* const* options, size_t n_options, const KestrelDataset* data,
                                    int threads, uint64_t seed, KestrelModel** out);
/* A model file as the commands write and read it (JSON, or a LIBSVM model file). */
KESTREL_API int kestrel_model_load(const char* path, KestrelModel** out);
/* Writes the model file kestrel-train writes, atomically (a reader never sees half a file). */
KESTREL_API int kestrel_model_save(const KestrelModel* model, const char* path);
/* The model as JSON: name, task, classes, feature names, parameters, preprocessing steps,
 * what it can predict. The text is the model's until the next call of this function on it
 * or kestrel_model_free. */
KESTREL_API int kestrel_model_info_json(KestrelModel* model, const char** json);
/* The columns the model reads, and its classes (0 for a regressor). */
KESTREL_API int kestrel_model_n_features(const KestrelModel* model, size_t* n);
KESTREL_API int kestrel_model_n_classes(const KestrelModel* model, size_t* n);
/* Class `index`'s label as the training data wrote it; the model's text. */
KESTREL_API int kestrel_model_class_name(const KestrelModel* model, size_t index, const char** name);
/* The shape of what a prediction call of `output` (KESTREL_OUTPUT_*) writes for `data`:
 * the buffer needs n_rows * n_cols doubles. A file dataset is read for it. */
KESTREL_API int kestrel_model_output_shape(const KestrelModel* model, const KestrelDataset* data, int output,
                                           size_t* n_rows, size_t* n_cols);
/* Predictions of `data`'s rows into `out` (row-major, `capacity` doubles), equal to
 * kestrel-predict's on the same rows: a row's result does not depend on the rows scored
 * with it. A buffer too small is KESTREL_ERROR_USAGE naming the size needed. */
KESTREL_API int kestrel_model_predict(const KestrelModel* model, const KestrelDataset* data, double* out,
                                      size_t capacity);
KESTREL_API int kestrel_model_predict_proba(const KestrelModel* model, const KestrelDataset* data, double* out,
                                            size_t capacity);
KESTREL_API int kestrel_model_decision_function(const KestrelModel* model, const KestrelDataset* data, double* out,
                                                size_t capacity);
/* Each column's contribution to the raw score, then the bias (XGBoost's pred_contribs,
 * kestrel-predict --contrib): K blocks of n_features + 1 per row, K the raw scores (1, or
 * the classes of a softmax gbdt). Exact TreeSHAP for the trees, coef * (x - mean) for the
 * linear models; KESTREL_ERROR_USAGE for a model without contributions. */
KESTREL_API int kestrel_model_contributions(const KestrelModel* model, const KestrelDataset* data, double* out,
                                            size_t capacity);
/* The model file's bytes, as kestrel_model_save writes them, without a file: `*length`
 * bytes at `*text` (NUL-terminated too), the model's until the next call of this function
 * on it or kestrel_model_free. */
KESTREL_API int kestrel_model_to_string(KestrelModel* model, const char** text, size_t* length);
/* A model from a model file's `length` bytes (kestrel's JSON, a LIBSVM model file, an
 * XGBoost JSON or UBJSON model), read as kestrel_model_load reads a file. */
KESTREL_API int kestrel_model_from_string(const char* text, size_t length, KestrelModel** out);
/* Frees a model (NULL is fine). */
KESTREL_API void kestrel_model_free(KestrelModel* model);

/* ---- cross-validation ---- */

/* Cross-validates `model_name` on `data` as kestrel-cv -k folds --json does: the same
 * parameters and options as kestrel_model_train, stratified k-fold for classification
 * (query groups kept whole when the data has them), the same seed giving the same folds and
 * scores. `*json` is kestrel-cv --json's object (model, task, rows, seed, scheme, metrics with
 * mean, std and folds, the out-of-fold report), valid until the next call of this function
 * on this thread. */
KESTREL_API int kestrel_cross_validate(const char* model_name, const char* const* params, size_t n_params,
                                       const char* const* options, size_t n_options, const KestrelDataset* data,
                                       int folds, int threads, uint64_t seed, const char** json);

#ifdef __cplusplus
}
#endif

#endif /* KESTREL_C_API_H */
