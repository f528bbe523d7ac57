#pragma once
// Typed errors. The library throws; only the executables' main() turns an error
// into a one-line message and an exit code (see docs/cli.md, "Exit codes").
//
// A library message names what its caller gave: a parameter, column, file or model, or an
// option of a job (a setting of cross-validation, a search or a data read, by the name the
// library gives it: "calibrate_folds", "label_col", "max_rows", "time_budget"), never a
// command-line flag. Where a message names an option it says so (option_named), and a
// command that spells the option otherwise ("--calibrate-folds") puts its own spelling in
// that place when it prints the error (apps/common/flag_spelling.cpp):
//
//     throw UsageError(option_named("repeats") + " " + std::to_string(r) + ": must be at least 1");
//
// reads "repeats 0: must be at least 1" from the library and
// "kestrel-cv: --repeat 0: must be at least 1" from the command.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kestrel {

enum class ExitCode : int { ok = 0, usage = 1, bad_input = 2, internal = 3, interrupted = 130 };

// The text of a message that names options of the library, with the places it names them.
class ErrorText {
public:
    // `length` bytes from `at` name the option `key` (see option_named).
    struct OptionMention {
        std::size_t at = 0;
        std::size_t length = 0;
        std::string key;
    };
    ErrorText() = default;
    // Explicit: `text + number` stays a std::string, and only option_named starts an ErrorText.
    explicit ErrorText(std::string text) : text_(std::move(text)) {}
    ErrorText(std::string text, std::vector<OptionMention> mentions)
        : text_(std::move(text)), mentions_(std::move(mentions)) {}

    const std::string& text() const noexcept { return text_; }
    const std::vector<OptionMention>& mentions() const noexcept { return mentions_; }

    ErrorText& operator+=(const ErrorText& more);
    ErrorText& operator+=(std::string_view more) {
        text_ += more;
        return *this;
    }

    // The text with each option it names spelled as `spelling(key)` says; where that is
    // empty, the library's word stays.
    std::string respelled(const std::function<std::string(const std::string& key)>& spelling) const;

private:
    std::string text_;
    std::vector<OptionMention> mentions_;
};

// A mention of the library option `key`. The message shows the key's last dot-separated
// part: a key is qualified by its job only where two jobs have an option of that name
// that commands spell differently ("permutation_importance.repeats" shows "repeats").
ErrorText option_named(const std::string& key);

ErrorText operator+(ErrorText a, const ErrorText& b);
ErrorText operator+(ErrorText a, std::string_view b);
ErrorText operator+(std::string_view a, const ErrorText& b);

class Error : public std::runtime_error {
public:
    Error(ExitCode code, const std::string& what) : std::runtime_error(what), code_(code) {}
    Error(ExitCode code, const ErrorText& what);
    ExitCode code() const noexcept { return code_; }
    // what() with the options it names marked: for a command to respell them, or for
    // another message that quotes this one (`"grid point x: " + e.text()`).
    ErrorText text() const;

private:
    ExitCode code_;
    // Shared: copying an exception must not throw. Null when the message names no option.
    std::shared_ptr<const std::vector<ErrorText::OptionMention>> mentions_;
};

// Bad command line: unknown flag, unknown model, unknown or out-of-range parameter.
class UsageError : public Error {
public:
    explicit UsageError(const std::string& what) : Error(ExitCode::usage, what) {}
    explicit UsageError(const ErrorText& what) : Error(ExitCode::usage, what) {}
};

// A parameter that fails its declared check; names the parameter.
class ParamError : public UsageError {
public:
    using UsageError::UsageError;
};

// Where in an input file a problem is. line and column are 1-based; 0 means unknown.
struct SourceLocation {
    std::string file;  // "<stdin>" for standard input
    std::uint64_t line = 0;
    std::uint64_t column = 0;  // 1-based field index for CSV, 1-based token index for LIBSVM
    std::string to_string() const;  // "file:line:column" with the unknown parts omitted
};

// Bad data file: ragged rows, non-numeric fields, missing values, bad LIBSVM tokens,
// unknown labels, feature mismatches. Message is "file:line:col: what".
class DataError : public Error {
public:
    explicit DataError(const std::string& what) : Error(ExitCode::bad_input, what) {}
    explicit DataError(const ErrorText& what) : Error(ExitCode::bad_input, what) {}
    DataError(const SourceLocation& where, const std::string& what)
        : Error(ExitCode::bad_input, where.to_string() + ": " + what) {}
    DataError(const SourceLocation& where, const ErrorText& what)
        : Error(ExitCode::bad_input, where.to_string() + ": " + what) {}
};

// Data that does not fit the memory budget (check_memory): a DataError, told apart so that a
// job can say what it would take instead.
class MemoryLimitError : public DataError {
public:
    using DataError::DataError;
};

// Bad model file: truncated JSON, wrong format or version, unknown model, invalid state.
class ModelFileError : public Error {
public:
    ModelFileError(const std::string& file, const std::string& what)
        : Error(ExitCode::bad_input, file + ": " + what) {}
    ModelFileError(const std::string& file, const ErrorText& what) : Error(ExitCode::bad_input, file + ": " + what) {}
};

// A saved state that cannot be read back (Estimator::load_state, a preprocessing step's or
// a tree's JSON): names the part of the state. Not a ModelFileError: the reader of the
// model file catches it and adds the file's name ("f.json: invalid model file: ...").
class ModelStateError : public Error {
public:
    explicit ModelStateError(const std::string& what) : Error(ExitCode::bad_input, what) {}
};

// Cannot write an output file (exit 2, as bad input/output).
class OutputError : public Error {
public:
    explicit OutputError(const std::string& what) : Error(ExitCode::bad_input, what) {}
};

// A broken invariant inside kestrel: a bug, never the user's fault.
class InternalError : public Error {
public:
    explicit InternalError(const std::string& what) : Error(ExitCode::internal, what) {}
    explicit InternalError(const ErrorText& what) : Error(ExitCode::internal, what) {}
};

}  // namespace kestrel
