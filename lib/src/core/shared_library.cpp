#include "kestrel/core/shared_library.hpp"

#include <dlfcn.h>

#include "kestrel/core/error.hpp"

namespace kestrel {

SharedLibrary::SharedLibrary(const char* soname, std::string user, std::string package, SymbolScope scope)
    : soname_(soname), user_(std::move(user)), package_(std::move(package)) {
    handle_ = dlopen(soname, RTLD_NOW | (scope == SymbolScope::global ? RTLD_GLOBAL : RTLD_LOCAL));
    if (handle_ == nullptr) {
        const char* why = dlerror();
        fail("cannot load " + soname_ + (why != nullptr ? std::string(": ") + why : std::string()));
    }
}

void* SharedLibrary::symbol(const char* name) const {
    void* sym = dlsym(handle_, name);
    if (sym == nullptr) fail(soname_ + " has no symbol " + name);
    return sym;
}

void SharedLibrary::fail(const std::string& what) const {
    throw Error(ExitCode::internal,
                user_ + " needs " + soname_ + " at run time: " + what + " (Debian package " + package_ + ")");
}

}  // namespace kestrel
