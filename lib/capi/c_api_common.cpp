// The C interface's errors and what needs no handle: the version, the list of models.
#include <string>

#include "c_api_handles.hpp"
#include "kestrel/core/interrupt.hpp"
#include "kestrel/pipeline/registry.hpp"

namespace kestrel::capi {
namespace {
// Per thread, so that two threads' failures never mix their messages.
thread_local std::string last_error_message;

// kestrel_set_callbacks's, per thread as the error message is.
struct Callbacks {
    KestrelWarningCallback warning = nullptr;
    KestrelProgressCallback progress = nullptr;
    void* user_data = nullptr;
};
thread_local Callbacks thread_callbacks;
}  // namespace

void add_callbacks(Context& ctx) {
    const Callbacks c = thread_callbacks;  // by value: the fit may outlive a later change
    if (c.warning) ctx.warn = [c](const std::string& message) { c.warning(message.c_str(), c.user_data); };
    if (c.progress)
        ctx.progress = [c](const std::string& label, std::uint64_t done, std::uint64_t total) {
            c.progress(label.c_str(), done, total, c.user_data);
        };
}

int failed(ExitCode code, const std::string& message) noexcept {
    try {
        last_error_message = message;
    } catch (...) {
        last_error_message.clear();  // out of memory copying the message: the class still tells
    }
    return static_cast<int>(code);
}

void require(const void* pointer, const char* function, const char* what) {
    if (!pointer) throw UsageError(std::string(function) + ": " + what + " is NULL");
}

std::vector<std::string> texts(const char* const* items, std::size_t n, const char* function, const char* what) {
    if (n > 0) require(items, function, what);
    std::vector<std::string> out;
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (!items[i]) throw UsageError(std::string(function) + ": " + what + "[" + std::to_string(i) + "] is NULL");
        out.emplace_back(items[i]);
    }
    return out;
}

}  // namespace kestrel::capi

using kestrel::capi::guarded;

extern "C" {

const char* kestrel_last_error(void) { return kestrel::capi::last_error_message.c_str(); }

const char* kestrel_library_version(void) { return kestrel::kestrel_version(); }

int kestrel_set_callbacks(KestrelWarningCallback warning, KestrelProgressCallback progress, void* user_data) {
    kestrel::capi::thread_callbacks = {warning, progress, user_data};
    return KESTREL_OK;
}

void kestrel_interrupt(void) { kestrel::request_interrupt(); }

int kestrel_models_json(const char** json) {
    return guarded([&] {
        kestrel::capi::require(json, "kestrel_models_json", "json");
        // Made once: the registry does not change while the process runs.
        static const std::string text = kestrel::registry().models_json().dump(2);  // kestrel-train's text
        *json = text.c_str();
    });
}

}  // extern "C"
