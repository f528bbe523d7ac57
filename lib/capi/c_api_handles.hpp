#pragma once
// What the C interface's opaque handles hold, and the guard every exported function runs
// its body in: a C++ exception becomes an error class and a message for
// kestrel_last_error, never a C caller's crash.
#include <string>
#include <vector>

#include "kestrel/c_api.h"
#include "kestrel/core/context.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/io/read_options.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/tasks/training_data.hpp"

// A data file to read when it is used (for training as kestrel-train reads it, for
// prediction aligned with the model as kestrel-predict reads it), or rows in memory.
struct KestrelDataset {
    bool from_file = false;
    kestrel::TrainingDataOptions file{};  // from_file: the path and its read options
    kestrel::Table table{};               // in memory: the rows, labels (with qid) and names
    kestrel::Vector weights{};            // in memory: per row, or empty
};

struct KestrelModel {
    kestrel::Model model;
    std::string info_json{};  // kestrel_model_info_json's text, kept for the caller
    std::string file_text{};  // kestrel_model_to_string's bytes, kept for the caller
};

namespace kestrel::capi {

// The name in-memory rows go by in messages and in a model's provenance.
inline constexpr const char* kMemorySource = "<memory>";

// The callbacks kestrel_set_callbacks gave this thread, in a fit's Context.
void add_callbacks(Context& ctx);

// Records `message` for kestrel_last_error on this thread and returns `code`.
int failed(ExitCode code, const std::string& message) noexcept;

// Runs `body`, returning 0, or the class of the error it threw with its message recorded.
template <class Body>
int guarded(Body&& body) noexcept {
    try {
        body();
        return KESTREL_OK;
    } catch (const Error& e) {
        return failed(e.code(), e.what());
    } catch (const std::bad_alloc&) {
        return failed(ExitCode::internal, "out of memory");
    } catch (const std::exception& e) {
        return failed(ExitCode::internal, std::string("internal error: ") + e.what());
    } catch (...) {
        return failed(ExitCode::internal, "internal error: an unknown exception");
    }
}

// UsageError naming `what` of `function` when `pointer` is null.
void require(const void* pointer, const char* function, const char* what);

// n C strings as std::strings (UsageError for a null array with n > 0 or a null string).
std::vector<std::string> texts(const char* const* items, std::size_t n, const char* function, const char* what);

}  // namespace kestrel::capi
