#pragma once
// The entry functions behind kestrel's fuzz targets. Each feeds one input to one
// parser the way the executables do, then uses what was accepted (train, save,
// reload, predict, print) so that a value a parser lets through is exercised too.
//
// An entry returns normally when kestrel accepts the input or rejects it with one of
// its typed errors (kestrel::Error). Anything else escapes: another exception type, a
// broken round trip (thrown as FuzzFinding), a crash or a sanitizer report. The
// libFuzzer executables (tests/fuzz/<target>.cpp) and the replay test of the normal
// suite (tests/unit/fuzz_replay_test.cpp) call these same functions.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kestrel::fuzz {

// A property the harness checks failed (e.g. parse(to_string(x)) != x). Deliberately
// not a kestrel::Error, so that it counts as a finding.
class FuzzFinding : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

void csv_reader(std::string_view input);    // CSV text as a data file (train and predict paths)
void libsvm_reader(std::string_view input); // LIBSVM text as a data file
void model_json(std::string_view input);    // a kestrel model file (any registered model kind)
void libsvm_model(std::string_view input);  // a model file written by LIBSVM's svm-train
void grid(std::string_view input);          // line 1: model name; then one -g axis per line
void kernel_spec(std::string_view input);   // a kernel spec such as 0.7*rbf(gamma=0.5)+0.3*linear
void params(std::string_view input);        // line 1: model name; then one -p name=value per line
void compressed_input(std::string_view input);  // a data file, gzip/zstd/xz/bzip2-compressed or not, read by path
void table_cache(std::string_view input);       // a table cache file (kestrel/io/table_cache.hpp)

struct Target {
    const char* name;  // also the folder name under tests/fuzz/corpus and regressions
    void (*entry)(std::string_view);
};
const std::vector<Target>& targets();

}  // namespace kestrel::fuzz
