#include "common/cli.hpp"

#include <unistd.h>

#include <iostream>
#include <new>
#include <sstream>

#include "common/progress.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/registry.hpp"
#include "kestrel/io/data_reader.hpp"

namespace kestrel::cli {

int run_command(const std::string& program, Command body, const std::vector<std::string>& args, Io& io) {
    try {
        return body(args, io);
    } catch (const Error& e) {
        io.err << program << ": " << e.what() << "\n";
        return static_cast<int>(e.code());
    } catch (const std::bad_alloc&) {
        io.err << program << ": out of memory\n";
        return static_cast<int>(ExitCode::internal);
    } catch (const std::exception& e) {
        io.err << program << ": internal error: " << e.what() << "\n";
        return static_cast<int>(ExitCode::internal);
    }
}

int main_entry(const std::string& program, Command body, int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    std::vector<std::string> args(argv + 1, argv + argc);
    Io io{std::cout, std::cerr, isatty(STDERR_FILENO) == 1};
    const int rc = run_command(program, body, args, io);
    std::cout.flush();
    return rc;
}

void CommonFlags::add_to(CLI::App& app) {
    app.add_option("--seed", seed, "master random seed (folds, shuffles, per-model seeds)")->capture_default_str();
    app.add_option("--threads", threads, "threads to use (0 = all cores); results do not depend on it")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_flag("-q,--quiet", quiet, "no warnings or progress on stderr");
    app.add_flag("--json", json, "machine-readable JSON on stdout");
}

Context CommonFlags::context(Io& io) const {
    Context ctx;
    ctx.seed = seed;
    ctx.threads = threads;
    if (!quiet) {
        std::ostream* err = &io.err;
        ctx.warn = [err](const std::string& m) { *err << "warning: " << m << "\n"; };
    }
    if (!quiet && !json && io.err_is_terminal) ctx.progress = make_progress_reporter(io.err);
    return ctx;
}

void DataFlags::add_to(CLI::App& app) {
    app.add_option("--format", format, "input format")->check(CLI::IsMember({"auto", "csv", "libsvm"}))->capture_default_str();
    app.add_flag("--no-header", no_header, "CSV files have no header row");
    app.add_option("--label-col", label_col, "label column: name or 0-based index (default: 'label' if present, else the first)");
    app.add_option("--delimiter", delimiter, "CSV delimiter: ',' ';' or 'tab' (default: detected)");
    app.add_option("--missing", missing, "missing values (empty, NA, NaN, ?): error, drop the row, or impute the training mean")
        ->check(CLI::IsMember({"error", "drop", "mean"}))
        ->capture_default_str();
}

ReadOptions DataFlags::options(int threads) const {
    ReadOptions o;
    o.format = file_format_from_string(format);
    o.header = !no_header;
    o.label_col = label_col;
    if (!delimiter.empty()) {
        if (delimiter == "tab" || delimiter == "\\t" || delimiter == "\t") o.delimiter = '\t';
        else if (delimiter == "," || delimiter == ";") o.delimiter = delimiter[0];
        else throw UsageError("--delimiter must be ',', ';' or 'tab', got '" + delimiter + "'");
    }
    o.missing = missing == "drop" ? MissingPolicy::drop : missing == "mean" ? MissingPolicy::keep : MissingPolicy::error;
    o.threads = threads;
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
}

ModelSpec ModelFlags::spec(const DataFlags& data) const {
    ModelSpec s;
    s.model = model;
    const ParamSpec& ps = registry().spec(model);  // UsageError for an unknown model
    for (const auto& text : params) {
        auto [name, value] = split_assignment(text);
        if (s.params.contains(name)) throw UsageError("parameter " + name + " given twice");
        s.params[name] = value;
    }
    ps.resolve(s.params, model);  // validate every value before any work
    if (data.missing == "mean") s.preprocessing.push_back("impute_mean");
    if (scale != "none") s.preprocessing.push_back(scale);
    if (task != "auto") s.task = task_from_string(task);
    return s;
}

bool parse(CLI::App& app, const std::vector<std::string>& args, Io& io) {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last-first
    try {
        app.parse(reversed);
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

Dataset read_training_data(const std::string& path, const ModelSpec& spec, const DataFlags& data, int threads) {
    Table t = read_table(path, data.options(threads));
    if (t.X.rows() == 0) throw DataError(t.source + ": no data rows");
    if (!t.labels) throw DataError(t.source + ": no label column");
    const Task task = choose_task(spec, *t.labels);
    return make_dataset(std::move(t), task);
}

std::string plural(long long n, const std::string& word) {
    const bool sibilant = !word.empty() && (word.back() == 's' || word.back() == 'x');
    return std::to_string(n) + " " + word + (n == 1 ? "" : sibilant ? "es" : "s");
}

}  // namespace kestrel::cli
