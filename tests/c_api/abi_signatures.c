/* The C interface's binary promise, checked at compile time: each function of
 * lib/c_api.symbols with the exact type it was released with. A changed parameter or return
 * type in kestrel/c_api.h makes this fail to compile under -Werror (tests/c_api/check_symbols.sh).
 * Only ever add lines. */
#include "kestrel/c_api.h"

void (*const check_kestrel_dataset_free)(KestrelDataset*) = kestrel_dataset_free;
int (*const check_kestrel_dataset_from_csr)(const int64_t*, const int32_t*, const double*, size_t, size_t, KestrelDataset**) = kestrel_dataset_from_csr;
int (*const check_kestrel_dataset_from_dense)(const double*, size_t, size_t, int, KestrelDataset**) = kestrel_dataset_from_dense;
int (*const check_kestrel_dataset_from_dense_f32)(const float*, size_t, size_t, int, KestrelDataset**) = kestrel_dataset_from_dense_f32;
int (*const check_kestrel_dataset_from_file)(const char*, const char* const*, size_t, KestrelDataset**) = kestrel_dataset_from_file;
int (*const check_kestrel_dataset_set_categories)(KestrelDataset*, size_t, const char* const*, size_t) = kestrel_dataset_set_categories;
int (*const check_kestrel_dataset_set_feature_names)(KestrelDataset*, const char* const*, size_t) = kestrel_dataset_set_feature_names;
int (*const check_kestrel_dataset_set_groups)(KestrelDataset*, const double*, size_t) = kestrel_dataset_set_groups;
int (*const check_kestrel_dataset_set_label_strings)(KestrelDataset*, const char* const*, size_t) = kestrel_dataset_set_label_strings;
int (*const check_kestrel_dataset_set_labels)(KestrelDataset*, const double*, size_t) = kestrel_dataset_set_labels;
int (*const check_kestrel_dataset_set_weights)(KestrelDataset*, const double*, size_t) = kestrel_dataset_set_weights;
int (*const check_kestrel_dataset_shape)(const KestrelDataset*, size_t*, size_t*) = kestrel_dataset_shape;
const char* (*const check_kestrel_last_error)(void) = kestrel_last_error;
const char* (*const check_kestrel_library_version)(void) = kestrel_library_version;
int (*const check_kestrel_model_class_name)(const KestrelModel*, size_t, const char**) = kestrel_model_class_name;
int (*const check_kestrel_model_decision_function)(const KestrelModel*, const KestrelDataset*, double*, size_t) = kestrel_model_decision_function;
void (*const check_kestrel_model_free)(KestrelModel*) = kestrel_model_free;
int (*const check_kestrel_model_info_json)(KestrelModel*, const char**) = kestrel_model_info_json;
int (*const check_kestrel_model_load)(const char*, KestrelModel**) = kestrel_model_load;
int (*const check_kestrel_model_n_classes)(const KestrelModel*, size_t*) = kestrel_model_n_classes;
int (*const check_kestrel_model_n_features)(const KestrelModel*, size_t*) = kestrel_model_n_features;
int (*const check_kestrel_model_output_shape)(const KestrelModel*, const KestrelDataset*, int, size_t*, size_t*) = kestrel_model_output_shape;
int (*const check_kestrel_model_predict)(const KestrelModel*, const KestrelDataset*, double*, size_t) = kestrel_model_predict;
int (*const check_kestrel_model_predict_proba)(const KestrelModel*, const KestrelDataset*, double*, size_t) = kestrel_model_predict_proba;
int (*const check_kestrel_model_save)(const KestrelModel*, const char*) = kestrel_model_save;
int (*const check_kestrel_model_train)(const char*, const char* const*, size_t, const char* const*, size_t, const KestrelDataset*, int, uint64_t, KestrelModel**) = kestrel_model_train;
int (*const check_kestrel_models_json)(const char**) = kestrel_models_json;
int (*const check_kestrel_set_callbacks)(KestrelWarningCallback, KestrelProgressCallback, void*) = kestrel_set_callbacks;

int (*const check_kestrel_model_contributions)(const KestrelModel*, const KestrelDataset*, double*, size_t) = kestrel_model_contributions;
int (*const check_kestrel_model_to_string)(KestrelModel*, const char**, size_t*) = kestrel_model_to_string;
int (*const check_kestrel_model_from_string)(const char*, size_t, KestrelModel**) = kestrel_model_from_string;
int (*const check_kestrel_cross_validate)(const char*, const char* const*, size_t, const char* const*, size_t, const KestrelDataset*, int, int, uint64_t, const char**) = kestrel_cross_validate;
void (*const check_kestrel_interrupt)(void) = kestrel_interrupt;
int (*const check_kestrel_dataset_from_dense_ex)(const double*, size_t, size_t, int, int, KestrelDataset**) = kestrel_dataset_from_dense_ex;
int (*const check_kestrel_dataset_from_dense_f32_ex)(const float*, size_t, size_t, int, int, KestrelDataset**) = kestrel_dataset_from_dense_f32_ex;

int main(void) { return 0; }
