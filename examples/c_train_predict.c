/* A C program over kestrel's C interface (kestrel/c_api.h, libkestrel.so.0): trains a
 * logistic model on a CSV file, saves it, loads it back and prints each row's predicted
 * class of a second file, as kestrel-predict's first column would.
 *   cc -std=c99 c_train_predict.c -I PREFIX/include -L PREFIX/lib -l:libkestrel.so.0
 *   ./a.out TRAIN.csv TEST.csv MODEL.json
 * tests/install/check_install.sh builds it so against a fresh `cmake --install`. */
#include <stdio.h>
#include <stdlib.h>

#include "kestrel/c_api.h"

/* Prints the last error and returns 1 when `status` is not KESTREL_OK. */
static int failed(int status, const char* what) {
    if (status == KESTREL_OK) return 0;
    fprintf(stderr, "c_train_predict: %s: %s (error class %d)\n", what, kestrel_last_error(), status);
    return 1;
}

/* Trains logistic (C=1, standardised features) on `train` and saves it to `model_path`. */
static int train_and_save(const char* train, const char* model_path) {
    const char* params[] = {"C=1"};
    const char* options[] = {"scale=standard"};
    KestrelDataset* data = NULL;
    KestrelModel* model = NULL;
    int bad = failed(kestrel_dataset_from_file(train, NULL, 0, &data), "reading the training file");
    if (!bad) bad = failed(kestrel_model_train("logistic", params, 1, options, 1, data, 0, 1, &model), "training");
    if (!bad) bad = failed(kestrel_model_save(model, model_path), "saving");
    kestrel_model_free(model);
    kestrel_dataset_free(data);
    return bad;
}

/* Prints the predicted class of every row of `rows_path` with the model in `model_path`. */
static int load_and_predict(const char* model_path, const char* rows_path) {
    KestrelModel* model = NULL;
    KestrelDataset* rows = NULL;
    size_t n = 0, cols = 0;
    double* predicted = NULL;
    int bad = failed(kestrel_model_load(model_path, &model), "loading");
    if (!bad) bad = failed(kestrel_dataset_from_file(rows_path, NULL, 0, &rows), "reading the rows");
    if (!bad) bad = failed(kestrel_model_output_shape(model, rows, KESTREL_OUTPUT_PREDICTION, &n, &cols), "sizing");
    if (!bad && !(predicted = malloc(n * cols * sizeof *predicted))) bad = failed(KESTREL_ERROR_INTERNAL, "malloc");
    if (!bad) bad = failed(kestrel_model_predict(model, rows, predicted, n * cols), "predicting");
    for (size_t i = 0; !bad && i < n; ++i) {
        const char* label = NULL;
        bad = failed(kestrel_model_class_name(model, (size_t)predicted[i], &label), "naming a class");
        if (!bad) printf("%s\n", label);
    }
    free(predicted);
    kestrel_dataset_free(rows);
    kestrel_model_free(model);
    return bad;
}

int main(int argc, char** argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: c_train_predict TRAIN.csv TEST.csv MODEL.json\n");
        return 1;
    }
    fprintf(stderr, "kestrel %s\n", kestrel_library_version());
    if (train_and_save(argv[1], argv[3])) return 1;
    return load_and_predict(argv[3], argv[2]);
}
