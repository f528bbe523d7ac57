#pragma once
// A system library opened with dlopen() when a model first needs it. Libraries that
// only one solver uses (OpenBLAS for the dense Cholesky tiles, COIN-OR CLP for the LP
// models) are not linked: linked, they cost every kestrel process their start-up
// (relocations, OpenBLAS's thread pool), which on a small `kestrel-predict` is most of
// the run. The handle is never closed: the library stays for the life of the process.
#include <string>

namespace kestrel {

// Whose symbols the library's own dependencies see: its own only (local), or every
// later-loaded library's too (global: Open MPI loads plugins that bind to libmpi's).
enum class SymbolScope { local, global };

class SharedLibrary {
public:
    // Opens `soname` (a name the loader searches for, or a path). `user` names what needs
    // it and `package` the Debian package that provides it; both go into the error
    // (kestrel::Error, exit 3) when it cannot load.
    SharedLibrary(const char* soname, std::string user, std::string package,
                  SymbolScope scope = SymbolScope::local);

    // Resolves `name` into the function pointer `slot`; throws the same error if absent.
    template <class F>
    void bind(F& slot, const char* name) const {
        slot = reinterpret_cast<F>(symbol(name));
    }

private:
    void* symbol(const char* name) const;
    [[noreturn]] void fail(const std::string& what) const;

    void* handle_ = nullptr;
    std::string soname_, user_, package_;
};

}  // namespace kestrel
