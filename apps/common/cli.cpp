#include "common/cli.hpp"

#include <fcntl.h>
#include <omp.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <clocale>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <locale>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <sstream>
#include <streambuf>
#include <thread>

#include "common/flag_spelling.hpp"
#include "common/progress.hpp"
#include "common/signals.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"
#include "kestrel/core/mpi_session.hpp"
#include "kestrel/core/process_group.hpp"
#include "kestrel/core/shown_text.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/io/table_format.hpp"
#include "kestrel/pipeline/missing_option.hpp"
#include "kestrel/pipeline/model_spec_checks.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/preprocess/encoders.hpp"
#include "kestrel/preprocess/polynomial_features.hpp"
#include "kestrel/preprocess/resample.hpp"

namespace kestrel::cli {

namespace {

// A command's output never follows the locale. The executables never call setlocale,
// but a program running the command bodies in process may have set a global locale
// (setlocale, std::locale::global): CLI11's number parsing and the reports formatted
// through streams would then read and write decimal commas. Classic for the command's
// duration, the caller's locale restored after.
class ClassicLocale {
public:
    explicit ClassicLocale(Io& io)
        : io_(io), cpp_(std::locale::global(std::locale::classic())), out_(io.out.imbue(std::locale::classic())),
          err_(io.err.imbue(std::locale::classic())) {
        if (const char* c = std::setlocale(LC_ALL, nullptr)) c_ = c;
        std::setlocale(LC_ALL, "C");
    }
    ~ClassicLocale() {
        if (!c_.empty()) std::setlocale(LC_ALL, c_.c_str());
        io_.err.imbue(err_);
        io_.out.imbue(out_);
        std::locale::global(cpp_);
    }
    ClassicLocale(const ClassicLocale&) = delete;
    ClassicLocale& operator=(const ClassicLocale&) = delete;

private:
    Io& io_;
    std::locale cpp_, out_, err_;
    std::string c_;
};

// Standard output of the executables: a buffer over file descriptor 1 that remembers
// the errno of the first failed write (ENOSPC on /dev/full, EIO, EPIPE when SIGPIPE is
// ignored), so that lost output ends in exit 2 with one line, as coreutils do, never exit 0.
class StdoutBuffer : public std::streambuf {
public:
    StdoutBuffer() { setp(buffer_, buffer_ + sizeof buffer_); }
    int error() const { return error_; }

protected:
    int_type overflow(int_type c) override {
        if (!drain()) return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override { return drain() ? 0 : -1; }

private:
    bool drain() {
        const char* p = pbase();
        auto left = static_cast<std::size_t>(pptr() - pbase());
        setp(buffer_, buffer_ + sizeof buffer_);
        while (left > 0 && error_ == 0) {
            const ssize_t n = ::write(STDOUT_FILENO, p, left);
            if (n < 0) {
                if (errno != EINTR) error_ = errno;
                continue;
            }
            p += n;
            left -= static_cast<std::size_t>(n);
        }
        return error_ == 0;
    }
    char buffer_[1 << 16];
    int error_ = 0;
};

}  // namespace

void Io::check_out() const {
    if (out.flush()) return;
    const auto* buffer = dynamic_cast<const StdoutBuffer*>(out.rdbuf());
    const int e = buffer ? buffer->error() : 0;
    throw OutputError(std::string("cannot write standard output") + (e != 0 ? std::string(": ") + std::strerror(e) : ""));
}

namespace {

// A rank other than 0 keeps its standard output for nothing: rank 0 prints the results.
void silence_stdout() {
    const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null_fd >= 0) {
        ::dup2(null_fd, STDOUT_FILENO);
        ::close(null_fd);
    }
}

// A failure on a rank other than 0: its message, naming the rank, in place of what the
// rank held back. When rank 0 fails too (a bad file every rank reads), its own message
// and its abort come first; the pause lets them, so the user reads one message.
void report_rank_failure(const std::string& program, int rank, const std::string& held_back) {
    std::this_thread::sleep_for(std::chrono::seconds(3));
    const std::string prefix = program + ": ";
    std::istringstream lines(held_back);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(prefix, 0) == 0) line.erase(0, prefix.size());
        std::cerr << prefix << "rank " << rank << ": " << line << "\n";
    }
    std::cerr.flush();
}

}  // namespace

int run_command(const std::string& program, Command body, const std::vector<std::string>& args, Io& io) {
    const ClassicLocale classic(io);
    try {
        return body(args, io);
    } catch (const Error& e) {
        // Messages quote what users give (names, values, headers): safe_message is the
        // last guard, one line of bounded length, no control byte reaching the terminal.
        io.err << program << ": " << safe_message(command_message(e)) << "\n";
        return static_cast<int>(e.code());
    } catch (const std::bad_alloc&) {
        io.err << program << ": out of memory\n";
        return static_cast<int>(ExitCode::internal);
    } catch (const std::exception& e) {
        io.err << program << ": internal error: " << safe_message(e.what()) << "\n";
        return static_cast<int>(ExitCode::internal);
    }
}

int main_entry(const std::string& program, Command body, int argc, char** argv) {
    static const std::string name = program;  // the signal handler's, for the whole run
    install_signal_handlers(name.c_str());
#if defined(__GLIBC__)
    // Fits free and re-allocate buffers of a few MB over and over (folds, grid points, OvO
    // pairs): glibc trims the heap top back to the OS after each free and page-faults it in
    // again on the next fit. 16 MB of slack stops that churn: `kestrel-gridsearch -m logistic`
    // on 20000 x 50 went from 201k page faults and 1.17 s to 8k and 0.80 s, `svc` on letter
    // from 4.6 s to 4.1 s, for at most 16 MB more resident memory.
    mallopt(M_TOP_PAD, 16 << 20);
#endif
    // The standard streams stay synchronised with stdio (no sync_with_stdio(false)): the
    // commands write stdout through their own buffer (StdoutBuffer) and read no std::cin,
    // and unsyncing gave each of the eight standard streams a heap buffer of its own,
    // about a dozen page faults (~20 us) in every process.
    std::vector<std::string> args(argv + 1, argv + argc);
    // Under mpirun / srun this process is one rank of a group (docs/distributed.md).
    if (launched_by_mpi()) quiet_interrupt_message();
    std::unique_ptr<MpiSession> mpi;
    try {
        mpi = std::make_unique<MpiSession>(program);
    } catch (const Error& e) {
        std::cerr << program << ": " << safe_message(command_message(e)) << "\n";
        return static_cast<int>(e.code());
    }
    // Rank 0 speaks for the group: the others print nothing (no results, progress or
    // warnings) unless they fail, and write no file (io/atomic_file.hpp).
    const bool silent_rank = mpi->rank() != 0;
    if (silent_rank) silence_stdout();
    std::ostringstream rank_err;
    static StdoutBuffer stdout_buffer;  // static: a large buffer, and alive until exit
    std::ostream out(&stdout_buffer);
    Io io{out, silent_rank ? static_cast<std::ostream&>(rank_err) : std::cerr,
          !silent_rank && isatty(STDERR_FILENO) == 1};
    int rc = run_command(program, body, args, io);
    if (rc != 0 && mpi->active()) {
        if (silent_rank) report_rank_failure(program, mpi->rank(), rank_err.str());
        return mpi->finish(rc);  // ends every rank with rc
    }
    // What is still buffered is written now; a write that failed at any point makes a
    // successful run exit 2 (a failed one has already said why it failed).
    try {
        io.check_out();
    } catch (const OutputError& e) {
        if (rc == 0) {
            std::cerr << program << ": " << e.what() << "\n";
            rc = static_cast<int>(e.code());
        }
    }
    return mpi->finish(rc);
}

namespace {

std::string compact_number(double x) {
    if (x == std::floor(x) && std::fabs(x) < 1e15) return std::to_string(static_cast<long long>(x));
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    return std::string(buf, r.ptr);
}

}  // namespace

CLI::Validator whole_number(long long lo, long long hi) {
    const bool bounded = hi != std::numeric_limits<long long>::max();
    const std::string range = bounded ? "from " + std::to_string(lo) + " to " + std::to_string(hi)
                                      : ">= " + std::to_string(lo);
    return CLI::Validator(
        [lo, hi, range](const std::string& text) {
            long long v = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
            if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
                return shown_text(text) + " is not a whole number " + range;
            return std::string();
        },
        bounded ? "INT in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]" : "INT>=" + std::to_string(lo));
}

CLI::Validator number_range(double lo, double hi, bool lo_open) {
    const std::string low = (lo_open ? "> " : ">= ") + compact_number(lo);
    const std::string range = std::isinf(hi) ? low : low + " and <= " + compact_number(hi);
    return CLI::Validator(
        [lo, hi, lo_open, range](const std::string& text) {
            double v = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
            if (ec != std::errc() || end != text.data() + text.size() || std::isnan(v) || (lo_open ? v <= lo : v < lo) ||
                v > hi)
                return shown_text(text) + " is not a number " + range;
            return std::string();
        },
        "NUMBER " + range);
}

void CommonFlags::add_to(CLI::App& app) {
    app.add_option("--seed", seed, "master random seed (folds, shuffles, per-model seeds)")->capture_default_str();
    app.add_option("--threads", threads, "threads to use (0 = all cores); results do not depend on it")
        ->capture_default_str()
        ->check(CLI::Validator(
            [](const std::string& text) {
                int v = -1;
                const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
                if (ec != std::errc() || end != text.data() + text.size() || v < 0 || v > kMaxThreads)
                    return shown_text(text) + " is not 0 (all cores) or a number of threads from 1 to " +
                           std::to_string(kMaxThreads);
                return std::string();
            },
            "INT in [0, " + std::to_string(kMaxThreads) + "]"));
    app.add_flag("-q,--quiet", quiet, "no warnings or progress on stderr");
    app.add_flag("--json", json, "machine-readable JSON on stdout");
}

Context CommonFlags::context(Io& io) const {
    Context ctx;
    ctx.seed = seed;
    ctx.threads = threads;
    if (!quiet) {
        // Folds and grid points run in parallel and often meet the same condition: each
        // warning is printed once, whole.
        struct Seen {
            std::mutex mutex;
            std::set<std::string> messages;
        };
        auto seen = std::make_shared<Seen>();
        std::ostream* err = &io.err;
        ctx.warn = [err, seen](const std::string& m) {
            const std::lock_guard<std::mutex> lock(seen->mutex);
            if (seen->messages.insert(m).second) *err << "warning: " << safe_message(m) << "\n";
        };
    }
    ctx.option_spelling = flag_spelling;
    if (!quiet && !json && io.err_is_terminal) ctx.progress = make_progress_reporter(io.err);
    // The library's parallel loops that take no thread count (a forest's or boosting's
    // prediction blocks, writing trees as text, wide polynomial expansions) size their
    // teams from OpenMP: --threads holds for them too, in every command.
    omp_set_num_threads(ctx.resolved_threads());
    return ctx;
}

void DataFlags::add_to(CLI::App& app) {
    app.add_option("--format", format, "input format")
        ->check(CLI::IsMember(table_format_names()))
        ->capture_default_str();
    app.add_flag("--no-header", no_header, "CSV files have no header row");
    app.add_option("--label-col", label_col, "label column: name or 0-based index (default: 'label' if present, else the first; "
                   "predicting, the model's own label column)");
    app.add_option("--delimiter", delimiter, "CSV delimiter: ',' ';' or 'tab' (default: detected)");
    app.add_option("--missing", missing,
                   "missing cells (empty, NA, N/A, NaN, ?): auto (the model's own handling if it has one, else "
                   "median / most frequent category), keep, error, drop the row, or impute: mean, median, "
                   "most_frequent, constant:VALUE")
        ->capture_default_str();
    app.add_flag("--missing-indicator", missing_indicator,
                 "with imputation: add a 0/1 column per feature that had missing cells in training");
    // One value per flag (comma-separated, repeatable): a list must not swallow the data file.
    app.add_option("--categorical", categorical,
                   "columns read as categories: CSV names or 0-based indices; LIBSVM 1-based feature indices "
                   "holding integer codes")
        ->delimiter(',')
        ->allow_extra_args(false);
    app.add_option("--numeric", numeric, "CSV columns read as numbers only (a non-number cell is an error)")
        ->delimiter(',')
        ->allow_extra_args(false);
    app.add_option("--ignore-cols", ignore_cols, "CSV columns not read at all (row ids, free text)")
        ->delimiter(',')
        ->allow_extra_args(false);
    app.add_option("--unknown", unknown,
                   "a category the model never saw: ignore (all-zero one-hot row; a tree's missing direction) or error")
        ->check(CLI::IsMember({"ignore", "error"}))
        ->capture_default_str();
    app.add_option("--max-categories-hard", max_categories_hard, "refuse a column with more categories than this")
        ->check(whole_number(1, std::numeric_limits<long long>::max()))
        ->capture_default_str();
    app.add_option("--max-rows", max_rows, "refuse a data file with more rows than this (0 = no limit)")
        ->check(whole_number(0, std::numeric_limits<long long>::max()));
    app.add_option("--max-memory", max_memory,
                   "refuse a data file whose table would take more memory than this, e.g. 4G (default: the memory available)");
    app.add_option("--cache", cache,
                   "keep the data file's parsed table in FILE and read it from there while it is valid for the file, "
                   "these flags and this version (else parse and write it anew)")
        ->type_name("FILE");
}

ReadOptions DataFlags::options(const Context& ctx) const {
    ReadOptions o;
    o.format = file_format_from_string(format);
    o.header = !no_header;
    o.label_col = label_col;
    if (!delimiter.empty()) o.delimiter = delimiter_from_string(delimiter);
    o.missing = split_missing_option(missing).read;
    o.categorical_columns = categorical;
    o.numeric_columns = numeric;
    o.ignore_columns = ignore_cols;
    o.unknown_category_error = unknown == "error";
    o.max_categories = static_cast<Index>(max_categories_hard);
    o.threads = ctx.threads;
    o.max_rows = max_rows;
    if (!max_memory.empty()) o.max_memory = parse_byte_size(max_memory, "--max-memory");
    o.cache = cache;
    if (!cache.empty() && ctx.warn) o.cache_note = ctx.warn;
    return o;
}

TrainingDataOptions DataFlags::training_options(const std::string& path, const Context& ctx) const {
    TrainingDataOptions o;
    o.path = path;
    o.read = options(ctx);
    o.weights_column = weights_col;
    o.group_column = group_col;
    return o;
}

void ModelFlags::add_to(CLI::App& app, bool model_required) {
    auto* m = app.add_option("-m,--model", model, "model name (see kestrel-train --list-models)");
    if (model_required) m->required();
    // One value per flag: a repeated -p must not swallow the data file that follows it.
    app.add_option("-p,--param", params, "model parameter name=value (repeatable; see --help-params)")->allow_extra_args(false);
    app.add_option("--scale", scale, "scale features, fitted on training data only: standard, or minmax to [-1,1]")
        ->check(CLI::IsMember({"none", "standard", "minmax"}))
        ->capture_default_str();
    app.add_option("--task", task, "classification or regression (default: the model's, or from the labels)")
        ->check(CLI::IsMember({"auto", "classification", "regression"}))
        ->capture_default_str();
    app.add_option("--resample", resample,
                   "rebalance the classes of the training rows (inside each training fold): under, over[:JITTER], "
                   "smote[:K]");
    app.add_option("--poly", poly,
                   "polynomial features: every monomial of the features up to this degree (after imputation, "
                   "before scaling)")
        ->check(whole_number(1, 2147483647));
    app.add_option("--encode", encode,
                   "categorical columns: auto (split natively by tree, forest, adaboost and gbdt, one-hot for other "
                   "models), onehot, or ordinal (codes as numbers), for any model")
        ->check(CLI::IsMember({"auto", "onehot", "ordinal"}))
        ->capture_default_str();
    app.add_option("--max-categories", max_categories,
                   "onehot: at most this many columns per feature, the rarest categories sharing one (0 = no limit)")
        ->check(whole_number(0, std::numeric_limits<long long>::max()));
    app.add_option("--min-frequency", min_frequency,
                   "onehot: categories seen fewer times (a fraction of the rows when < 1) share one column")
        ->check(number_range(0, HUGE_VAL));
    app.add_option("--calibrate", calibrate,
                   "calibrate the classifier's probabilities on out-of-fold scores (scikit-learn's "
                   "CalibratedClassifierCV, ensemble=False): sigmoid or isotonic")
        ->check(CLI::IsMember({"sigmoid", "isotonic"}));
    app.add_option("--calibrate-folds", calibrate_folds,
                   "--calibrate: stratified folds giving the out-of-fold scores (scikit-learn's cv)")
        ->check(whole_number(2, 1000))
        ->capture_default_str();
    app.add_flag("--poly-interaction-only", poly_interaction_only,
                 "--poly: products of distinct features only (no powers)");
    app.add_option("--max-poly-width", max_poly_width, "--poly: refuse an expansion wider than this many columns")
        ->capture_default_str()
        ->check(number_range(1.0, 4.0e18));
}

void DataFlags::add_weights_to(CLI::App& app) {
    app.add_option("--weights-col", weights_col,
                   "column holding each row's sample weight (taken out of the features); CSV header name, or a "
                   "LIBSVM feature index");
}

void DataFlags::add_group_to(CLI::App& app) {
    app.add_option("--group-col", group_col,
                   "learning to rank: column holding each row's query id (taken out of the features; a query's rows "
                   "contiguous); CSV header name or 0-based index. LIBSVM files give qid:N instead");
}

ModelSpec ModelFlags::spec(const DataFlags& data) const {
    ModelSpec s;
    s.model = model;
    s.params = params_from_assignments(params);
    resolve_params(s);  // every value checked before any work, and only here
    s.missing = split_missing_option(data.missing).model;
    s.missing_indicator = data.missing_indicator;
    s.encode = encode;
    s.max_categories = static_cast<Index>(max_categories);
    s.min_frequency = min_frequency;
    if (scale != "none") s.preprocessing.push_back(scale);
    add_poly_step(s.preprocessing);
    if (task != "auto") s.task = task_from_string(task);
    if (!resample.empty()) {
        parse_resample(resample);  // a bad method fails before any data is read
        s.resample = resample;
    }
    s.calibrate = calibrate;
    s.calibrate_folds = calibrate_folds;
    check_model_spec(s);
    return s;
}

void ModelFlags::add_poly_step(std::vector<std::string>& steps) const {
    PolyOptions o;
    o.degree = std::max(poly, 1);
    o.interaction_only = poly_interaction_only;
    o.max_width = static_cast<std::uint64_t>(std::floor(max_poly_width));
    const bool options = poly_interaction_only || o.max_width != kDefaultMaxPolyWidth;
    if (options && poly == 0 && !poly_axis)
        throw UsageError(std::string(poly_interaction_only ? "--poly-interaction-only" : "--max-poly-width") +
                         " applies to --poly DEGREE (or to -g poly=... in kestrel-gridsearch), which is not given");
    if (poly_axis) {
        // A degree-1 step holds the options for the axis, which sets the degree of every point.
        if (poly > 1) throw UsageError("-g poly: --poly is also given; keep one of them");
        if (options) steps.push_back(poly_step_spec(o));
        return;
    }
    set_poly_step(steps, o);
}

namespace {
AppVisitor& app_visitor() {
    static AppVisitor visitor;
    return visitor;
}
}  // namespace

void set_app_visitor(AppVisitor visitor) { app_visitor() = std::move(visitor); }

bool parse(CLI::App& app, const std::vector<std::string>& args, Io& io) {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last-first
    app.set_version_flag("--version", app.get_name() + " " + kestrel_version());
    if (const AppVisitor& visit = app_visitor()) {
        visit(app);
        return false;
    }
    try {
        app.parse(reversed);
    } catch (const CLI::CallForVersion& e) {
        io.out << e.what() << "\n";
        return false;
    } catch (const CLI::CallForHelp&) {
        io.out << app.help();
        return false;
    } catch (const CLI::CallForAllHelp&) {
        io.out << app.help("", CLI::AppFormatMode::All);
        return false;
    } catch (const CLI::ParseError& e) {
        std::string what = e.what();
        if (!what.empty() && what.back() == '\n') what.pop_back();
        throw UsageError(what + " (see --help)");
    }
    return true;
}

void require_labels_to_score(const ModelSpec& spec) {
    if (!registry().info(spec.model).uses_labels)
        throw UsageError("model " + spec.model +
                         " ignores the labels, so held-out rows have nothing to score it against; train it with "
                         "kestrel-train");
}

}  // namespace kestrel::cli
