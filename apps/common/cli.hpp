#pragma once
// What the executables share: the data flags, the common flags, turning errors
// into one-line messages and exit codes, and where output goes. Each command body
// is a function of (arguments, streams) so the tests run it in process.
#include <CLI/CLI.hpp>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/core/text_pieces.hpp"  // plural, which every command prints with
#include "kestrel/io/read_options.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/tasks/training_data.hpp"

namespace kestrel::cli {

struct Io {
    std::ostream& out;
    std::ostream& err;
    bool err_is_terminal = false;  // progress is only shown on a terminal
    // Flushes `out` and throws OutputError ("cannot write standard output: ...") when a
    // write to it failed: a command writing much to stdout calls it as it goes, so that
    // a full disk ends the run at once; main_entry checks it at the end of every command.
    // The message names the errno of the first failed write when `out` is the
    // executables' standard output (which keeps it).
    void check_out() const;
};

using Command = int (*)(const std::vector<std::string>& args, Io& io);

// Runs a command body: parses nothing itself, catches every error and maps it to
// its exit code with one line on io.err ("kestrel-train: file:line:col: message").
int run_command(const std::string& program, Command body, const std::vector<std::string>& args, Io& io);
// main() of every executable.
int main_entry(const std::string& program, Command body, int argc, char** argv);

// Checks of number flags, in place of CLI11's Range / PositiveNumber / NonNegativeNumber
// (whose message prints a bound of DBL_MAX in 309 digits and the value as given): the
// value (cut and escaped) and the range, compactly ("--repeat: 0 is not a whole number
// from 1 to 10000").
CLI::Validator whole_number(long long lo, long long hi);
// A number >= lo (> lo when lo_open), <= hi; hi infinite means no upper bound.
CLI::Validator number_range(double lo, double hi, bool lo_open = false);

// --threads: at most this many (docs/cli.md); OpenMP fails in odd ways far past the cores.
constexpr int kMaxThreads = 1024;
// Counts of repetitions a user gives (docs/cli.md): --repeat (k-fold), --repeats
// (permutation importance) and --shuffle-split. Each sizes the splits or scores kept.
constexpr int kMaxRepeats = 10000;
constexpr int kMaxShuffleSplits = 100000;

// Flags every command has.
struct CommonFlags {
    std::uint64_t seed = 1;
    int threads = 0;
    bool quiet = false;
    bool json = false;
    void add_to(CLI::App& app);
    Context context(Io& io) const;  // warnings to io.err unless --quiet/--json; progress on a terminal
};

// How to read data files.
struct DataFlags {
    std::string format = "auto";
    bool no_header = false;
    std::string label_col;
    std::string delimiter;
    std::string missing = "auto";   // auto | keep | error | drop | mean | median | most_frequent | constant:V
    bool missing_indicator = false;
    std::vector<std::string> categorical, numeric, ignore_cols;  // column names or 0-based indices
    std::string unknown = "ignore";  // ignore | error: a category the model never saw (predict time)
    long long max_categories_hard = 100000;
    long long max_rows = 0;         // 0 = no limit
    std::string max_memory;         // "2G"; empty = the memory available
    std::string cache;              // --cache FILE: the data file's parsed table kept there
    void add_to(CLI::App& app);
    // The read options, with ctx's threads; a rebuilt --cache is told through ctx's warnings.
    ReadOptions options(const Context& ctx) const;
    // The library's training-data options (kestrel/tasks/training_data.hpp) for the
    // training file `path`: the read options, --weights-col and --group-col.
    TrainingDataOptions training_options(const std::string& path, const Context& ctx) const;
    // Training commands only: --weights-col COLUMN (a feature column taken out as the
    // rows' sample weights; see kestrel/tasks/training_columns.hpp).
    std::string weights_col;
    void add_weights_to(CLI::App& app);
    // --group-col COLUMN: a CSV column taken out as each row's query id, for learning to
    // rank (a LIBSVM file gives qid:N instead; see kestrel/tasks/training_columns.hpp).
    std::string group_col;
    void add_group_to(CLI::App& app);
};

// Model choice and parameters for train / cv / gridsearch.
struct ModelFlags {
    std::string model;
    std::vector<std::string> params;  // "name=value"
    std::string scale = "none";
    std::string task = "auto";
    std::string resample;  // --resample under|over[:jitter]|smote[:k], train-time only
    int poly = 0;          // --poly DEGREE: polynomial features (0 = none)
    bool poly_interaction_only = false;
    double max_poly_width = 1e6;
    bool poly_axis = false;  // kestrel-gridsearch has -g poly=...: the poly options go to that axis
    std::string encode = "auto";  // categorical columns: auto (native if the model splits them, else onehot), onehot, ordinal
    long long max_categories = 0;
    double min_frequency = 0;
    std::string calibrate;   // --calibrate sigmoid|isotonic (ModelSpec::calibrate)
    int calibrate_folds = 5;
    void add_to(CLI::App& app, bool model_required);
    // The ModelSpec (parameters parsed and validated against the model's spec now, so a
    // bad value fails before any data is read). `missing` adds an imputation step.
    ModelSpec spec(const DataFlags& data) const;
    // Adds the --poly step at its place (after imputation, before scaling).
    void add_poly_step(std::vector<std::string>& steps) const;
};

// Parses args with CLI11; a parse error becomes a UsageError, --help prints and
// returns false (the caller then exits 0).
bool parse(CLI::App& app, const std::vector<std::string>& args, Io& io);

// For the man page and shell completion generator (apps/docgen): while a visitor is
// set, parse() hands it the command's app, fully declared (--help and --version
// included), instead of parsing, and returns false, so the command body returns 0
// without doing anything. The documents are thereby made from the very option
// declarations that --help prints. Not thread-safe; nothing else sets it.
using AppVisitor = std::function<void(const CLI::App&)>;
void set_app_visitor(AppVisitor visitor);

// UsageError for a model that does not use labels (one_class) where held-out rows are
// scored against them (cross-validation, search, selection).
void require_labels_to_score(const ModelSpec& spec);

}  // namespace kestrel::cli
