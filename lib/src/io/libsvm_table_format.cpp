// LIBSVM / SVMlight as a TableFormat: known by its extensions or by lines of
// "label index:value ..."; no header, no quotes; parsed by read_libsvm.
#include <cctype>
#include <string_view>

#include "readers.hpp"
#include "table_formats.hpp"

namespace kestrel::detail {
namespace {

// "index:value" with a positive integer index and a number-looking value.
bool looks_like_libsvm_entry(std::string_view tok) {
    const auto colon = tok.find(':');
    if (colon == 0 || colon == std::string_view::npos || colon + 1 == tok.size()) return false;
    for (std::size_t i = 0; i < colon; ++i)
        if (!std::isdigit(static_cast<unsigned char>(tok[i]))) return false;
    const char c = tok[colon + 1];
    return std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.' || c == 'n' || c == 'N' ||
           c == '?';
}

class LibsvmTableFormat final : public TableFormat {
public:
    FileFormat id() const override { return FileFormat::libsvm; }
    std::string_view name() const override { return "libsvm"; }
    bool claims_extension(std::string_view extension) const override {
        return extension == ".libsvm" || extension == ".svm" || extension == ".svmlight" || extension == ".scale" ||
               extension == ".t";
    }
    // A label that is not itself an entry, then entries only.
    bool claims_line(const std::vector<std::string_view>& tokens) const override {
        for (std::size_t i = 1; i < tokens.size(); ++i)
            if (!looks_like_libsvm_entry(tokens[i])) return false;
        return !looks_like_libsvm_entry(tokens.front());
    }
    bool quotes_hold_line_breaks() const override { return false; }
    Table read(const TextInput& in, const std::string& source, const ReadOptions& opts) const override {
        return read_libsvm_input(in, source, opts);
    }
};

}  // namespace

const TableFormat& libsvm_table_format() {
    static const LibsvmTableFormat format;
    return format;
}

}  // namespace kestrel::detail
