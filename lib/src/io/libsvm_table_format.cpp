// LIBSVM / SVMlight as a TableFormat: known by its extensions or by lines of
// "label [qid:N] index:value ..."; no header, no quotes; parsed by read_libsvm.
#include <cctype>
#include <string_view>

#include "number_field.hpp"
#include "readers.hpp"
#include "table_formats.hpp"

namespace kestrel::detail {
namespace {

// "index:value" with an integer index and a number-looking value (a CSV field holding a
// colon and a delimiter, "1:2,b", is not one).
bool looks_like_libsvm_entry(std::string_view tok) {
    const auto colon = tok.find(':');
    if (colon == 0 || colon == std::string_view::npos || colon + 1 == tok.size()) return false;
    for (std::size_t i = 0; i < colon; ++i)
        if (!std::isdigit(static_cast<unsigned char>(tok[i]))) return false;
    if (tok.find_first_of(",;\"", colon) != std::string_view::npos) return false;
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
    // A label that is not itself an entry, a query id (SVMrank's, LETOR's "qid:3") or not,
    // then entries only. A malformed query id is still claimed: the reader names its error.
    LineClaim claim_line(std::string_view /*line*/, const std::vector<std::string_view>& tokens) const override {
        if (tokens.front().find(':') != std::string_view::npos)
            return {false, "its first token " + quote_field(tokens.front()) + " is not a label"};
        std::size_t first_entry = 1;
        if (tokens[1].substr(0, 4) == "qid:") ++first_entry;
        for (std::size_t i = first_entry; i < tokens.size(); ++i)
            if (!looks_like_libsvm_entry(tokens[i]))
                return {false, "token " + std::to_string(i + 1) + " " + quote_field(tokens[i]) + " is not index:value"};
        return {true, {}};
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
