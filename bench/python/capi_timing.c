/* The C side of bench/python/overhead.py: the same fit and predictions the Python estimators
 * make, called through kestrel/c_api.h directly, so the difference is the Python layer's cost.
 *
 *   capi_timing DIR MODEL THREADS REPEATS SMALL_CALLS [name=value ...]
 *
 * DIR holds train.bin and test.bin (int64 rows, int64 cols, rows*cols float64 row-major, rows
 * float64 labels). Per repeat: fit = dataset from the dense rows + labels + kestrel_model_train;
 * predict = dataset from the test rows + output shape + kestrel_model_predict, the median of 5
 * such calls after a first that warms up. Then
 * SMALL_CALLS predictions of the test set's first 10 rows, each with its own dataset (as a
 * Python predict call makes one). Prints "fit S", "predict S" (medians) and "small_call_ms M"
 * (the mean over the calls). The datasets borrow the rows (KESTREL_DENSE_BORROW) and the
 * predictions' refuse infinite cells (KESTREL_DENSE_REJECT_INFINITE), as the Python package's do. */
#include <kestrel/c_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kPredictCalls = 5 };

typedef struct {
    int64_t rows, cols;
    double* x;
    double* y;
} Rows;

static void die(const char* what) {
    fprintf(stderr, "capi_timing: %s: %s\n", what, kestrel_last_error());
    exit(1);
}

static Rows read_rows(const char* dir, const char* name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE* f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    Rows r;
    if (fread(&r.rows, 8, 1, f) != 1 || fread(&r.cols, 8, 1, f) != 1) exit(1);
    r.x = malloc((size_t)(r.rows * r.cols) * sizeof(double));
    r.y = malloc((size_t)r.rows * sizeof(double));
    if (fread(r.x, sizeof(double), (size_t)(r.rows * r.cols), f) != (size_t)(r.rows * r.cols)) exit(1);
    if (fread(r.y, sizeof(double), (size_t)r.rows, f) != (size_t)r.rows) exit(1);
    fclose(f);
    return r;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static double median(double* v, int n) {
    qsort(v, (size_t)n, sizeof(double), by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double* predictions(const KestrelModel* model, const double* x, size_t rows, size_t cols) {
    KestrelDataset* d = NULL;
    if (kestrel_dataset_from_dense_ex(x, rows, cols, KESTREL_ROW_MAJOR,
                                      KESTREL_DENSE_BORROW | KESTREL_DENSE_REJECT_INFINITE, &d))
        die("test rows");
    size_t out_rows = 0, out_cols = 0;
    if (kestrel_model_output_shape(model, d, KESTREL_OUTPUT_PREDICTION, &out_rows, &out_cols)) die("shape");
    double* out = malloc(out_rows * out_cols * sizeof(double));
    if (kestrel_model_predict(model, d, out, out_rows * out_cols)) die("predict");
    kestrel_dataset_free(d);
    return out;
}

int main(int argc, char** argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: capi_timing DIR MODEL THREADS REPEATS SMALL_CALLS [name=value ...]\n");
        return 2;
    }
    const char* dir = argv[1];
    const char* model_name = argv[2];
    const int threads = atoi(argv[3]), repeats = atoi(argv[4]), small_calls = atoi(argv[5]);
    const char* const* params = (const char* const*)(argv + 6);
    const size_t n_params = (size_t)(argc - 6);
    const char* options[] = {"task=classification"};
    const Rows train = read_rows(dir, "train.bin"), test = read_rows(dir, "test.bin");
    double* fit_s = malloc((size_t)repeats * sizeof(double));
    double* predict_s = malloc((size_t)repeats * sizeof(double));
    KestrelModel* model = NULL;
    for (int r = 0; r < repeats; ++r) {
        kestrel_model_free(model);
        model = NULL;
        double t = now();
        KestrelDataset* d = NULL;
        if (kestrel_dataset_from_dense_ex(train.x, (size_t)train.rows, (size_t)train.cols, KESTREL_ROW_MAJOR,
                                          KESTREL_DENSE_BORROW, &d))
            die("train rows");
        if (kestrel_dataset_set_labels(d, train.y, (size_t)train.rows)) die("labels");
        if (kestrel_model_train(model_name, params, n_params, options, 1, d, threads, 1, &model)) die("train");
        kestrel_dataset_free(d);
        fit_s[r] = now() - t;
        /* A first call warms up (the prediction threads, the output's pages); the median of
         * the next kPredictCalls is the repeat's time. */
        free(predictions(model, test.x, (size_t)test.rows, (size_t)test.cols));
        double calls[kPredictCalls];
        for (int c = 0; c < kPredictCalls; ++c) {
            t = now();
            free(predictions(model, test.x, (size_t)test.rows, (size_t)test.cols));
            calls[c] = now() - t;
        }
        predict_s[r] = median(calls, kPredictCalls);
    }
    const double t = now();
    for (int c = 0; c < small_calls; ++c) free(predictions(model, test.x, 10, (size_t)test.cols));
    const double small_ms = 1e3 * (now() - t) / small_calls;
    printf("fit %.6f\npredict %.6f\nsmall_call_ms %.6f\n", median(fit_s, repeats), median(predict_s, repeats), small_ms);
    kestrel_model_free(model);
    return 0;
}
