#pragma once
// Typed errors. The library throws; only the executables' main() turns an error
// into a one-line message and an exit code (see docs/cli.md, "Exit codes").
#include <cstdint>
#include <stdexcept>
#include <string>

namespace kestrel {

enum class ExitCode : int { ok = 0, usage = 1, bad_input = 2, internal = 3, interrupted = 130 };

class Error : public std::runtime_error {
public:
    Error(ExitCode code, const std::string& what) : std::runtime_error(what), code_(code) {}
    ExitCode code() const noexcept { return code_; }

private:
    ExitCode code_;
};

// Bad command line: unknown flag, unknown model, unknown or out-of-range parameter.
class UsageError : public Error {
public:
    explicit UsageError(const std::string& what) : Error(ExitCode::usage, what) {}
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
    DataError(const SourceLocation& where, const std::string& what)
        : Error(ExitCode::bad_input, where.to_string() + ": " + what) {}
};

// Bad model file: truncated JSON, wrong format or version, unknown model, invalid state.
class ModelFileError : public Error {
public:
    ModelFileError(const std::string& file, const std::string& what)
        : Error(ExitCode::bad_input, file + ": " + what) {}
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
};

}  // namespace kestrel
