// Entry point of the data readers: picks the format and the way in (a memory map
// for files, a buffer for standard input) and hands the text to the CSV or LIBSVM
// reader.
#include "kestrel/io/data_reader.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "kestrel/core/error.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "mapped_file.hpp"
#include "readers.hpp"

namespace kestrel {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// "index:value" with a positive integer index and a number-looking value.
bool looks_like_entry(std::string_view tok) {
    const auto colon = tok.find(':');
    if (colon == 0 || colon == std::string_view::npos || colon + 1 == tok.size()) return false;
    for (std::size_t i = 0; i < colon; ++i)
        if (!std::isdigit(static_cast<unsigned char>(tok[i]))) return false;
    const char c = tok[colon + 1];
    return std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.' || c == 'n' ||
           c == 'N' || c == '?';
}

// Decides from the first lines holding at least two whitespace-separated tokens.
FileFormat sniff_format(std::string_view head) {
    constexpr int max_lines = 10;
    head.remove_prefix(detail::bom_length(head));
    int looked = 0;
    while (!head.empty() && looked < max_lines) {
        const auto nl = head.find('\n');
        std::string_view line = head.substr(0, nl);
        head.remove_prefix(nl == std::string_view::npos ? head.size() : nl + 1);
        line = line.substr(0, line.find('#'));
        std::vector<std::string_view> tokens;
        for (std::size_t i = 0; i < line.size();) {
            while (i < line.size() && is_space(line[i])) ++i;
            const std::size_t b = i;
            while (i < line.size() && !is_space(line[i])) ++i;
            if (i > b) tokens.push_back(line.substr(b, i - b));
        }
        if (tokens.empty()) continue;
        ++looked;
        if (tokens.size() < 2) continue;
        const bool sparse = std::all_of(tokens.begin() + 1, tokens.end(), looks_like_entry) &&
                            !looks_like_entry(tokens.front());
        return sparse ? FileFormat::libsvm : FileFormat::csv;
    }
    return FileFormat::csv;
}

Table read_text(const detail::TextInput& in, const std::string& path, const std::string& source,
                const ReadOptions& opts) {
    constexpr std::size_t sniff_bytes = std::size_t{64} << 10;
    const FileFormat format =
        opts.format != FileFormat::automatic ? opts.format : detect_format(path, in.text.substr(0, sniff_bytes));
    // Returned as a prvalue: no copy of the (possibly sparse) matrix on the way out.
    return format == FileFormat::libsvm ? detail::read_libsvm_input(in, source, opts)
                                        : detail::read_csv_input(in, source, opts);
}

}  // namespace

FileFormat file_format_from_string(const std::string& s) {
    if (s == "auto") return FileFormat::automatic;
    if (s == "csv") return FileFormat::csv;
    if (s == "libsvm") return FileFormat::libsvm;
    throw UsageError("unknown data format '" + s + "'; valid formats: auto, csv, libsvm");
}

FileFormat detect_format(const std::string& path, std::string_view head) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext == ".csv" || ext == ".tsv") return FileFormat::csv;
    if (ext == ".libsvm" || ext == ".svm" || ext == ".svmlight" || ext == ".scale" || ext == ".t")
        return FileFormat::libsvm;
    return sniff_format(head);
}

Table read_table(const std::string& path, const ReadOptions& opts) {
    if (path == "-") {
        const std::string buffer = read_whole_file("-");
        return read_text(detail::TextInput{buffer, {}}, "", "<stdin>", opts);
    }
    // Pipes and process substitutions (`<(zcat x.gz)`) cannot be mapped: read them whole.
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
        !std::filesystem::is_directory(status)) {
        const std::string buffer = read_whole_file(path);
        return read_text(detail::TextInput{buffer, {}}, path, path, opts);
    }
    const detail::MappedFile file(path);
    const detail::TextInput in{file.text(), [&file](std::size_t b, std::size_t e) { file.release(b, e); }};
    return read_text(in, path, path, opts);
}

Table read_table_from_buffer(std::string_view text, const std::string& source, const ReadOptions& opts) {
    return read_text(detail::TextInput{text, {}}, source, source, opts);
}

}  // namespace kestrel
