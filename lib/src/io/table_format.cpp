// The list of input formats and the one place an input's format is decided.
#include "kestrel/io/table_format.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "table_formats.hpp"

namespace kestrel {
namespace {

bool is_sniff_space(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}

// The format the first lines of `head` say, asked of the formats in their order: the first
// line holding two or more whitespace-separated tokens decides (the default when none
// claims it, or when ten lines hold fewer).
const TableFormat& sniff_table_format(std::string_view head) {
    constexpr int kMaxSniffedLines = 10;
    const auto& formats = table_formats();
    head.remove_prefix(head.size() >= 3 && head.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0);
    int looked = 0;
    while (!head.empty() && looked < kMaxSniffedLines) {
        const auto nl = head.find('\n');
        std::string_view line = head.substr(0, nl);
        head.remove_prefix(nl == std::string_view::npos ? head.size() : nl + 1);
        line = line.substr(0, line.find('#'));
        std::vector<std::string_view> tokens;
        for (std::size_t i = 0; i < line.size();) {
            while (i < line.size() && is_sniff_space(line[i])) ++i;
            const std::size_t b = i;
            while (i < line.size() && !is_sniff_space(line[i])) ++i;
            if (i > b) tokens.push_back(line.substr(b, i - b));
        }
        if (tokens.empty()) continue;
        ++looked;
        if (tokens.size() < 2) continue;
        for (const TableFormat* f : formats)
            if (f != formats.back() && f->claims_line(tokens)) return *f;
        break;
    }
    return *formats.back();
}

}  // namespace

void TableFormat::settle(ReadOptions& opts, std::string_view /*head*/) const {
    opts.format = id();
}
bool TableFormat::has_header_record(const ReadOptions& /*opts*/) const {
    return false;
}
std::size_t TableFormat::header_end(std::string_view /*text*/, const ReadOptions& /*opts*/) const {
    return 0;
}
void TableFormat::learn(ReadOptions& /*opts*/, const Table& /*first_piece*/) const {}

const std::vector<const TableFormat*>& table_formats() {
    // CSV last: the default when nothing else claims an input.
    static const std::vector<const TableFormat*> formats = {&detail::libsvm_table_format(),
                                                            &detail::csv_table_format()};
    return formats;
}

const TableFormat& table_format(FileFormat format) {
    for (const TableFormat* f : table_formats())
        if (f->id() == format) return *f;
    throw InternalError("table_format: no reader for an undecided format");
}

std::vector<std::string> table_format_names() {
    std::vector<std::string> names{"auto"};
    // In the order users know them (CSV first), not the detection order.
    for (auto it = table_formats().rbegin(); it != table_formats().rend(); ++it) names.emplace_back((*it)->name());
    return names;
}

FileFormat file_format_from_string(const std::string& s) {
    if (s == "auto") return FileFormat::automatic;
    for (const TableFormat* f : table_formats())
        if (s == f->name()) return f->id();
    std::string valid;
    for (const std::string& n : table_format_names()) valid += (valid.empty() ? "" : ", ") + n;
    throw UsageError("unknown data format '" + s + "'; valid formats: " + valid);
}

char delimiter_from_string(const std::string& s) {
    if (s == "tab" || s == "\\t" || s == "\t") return '\t';
    if (s == "," || s == ";") return s[0];
    throw UsageError(option_named("delimiter") + " must be ',', ';' or 'tab', got '" + s + "'");
}

FileFormat detect_format(const std::string& path, std::string_view head) {
    std::filesystem::path name(path);
    // A compressed file's name says its format before the compression's suffix
    // (train.tsv.gz); the compression itself is told by the content (byte_source.hpp).
    if (const std::string last = name.extension().string();
        last == ".gz" || last == ".zst" || last == ".xz" || last == ".bz2")
        name = name.stem();
    std::string ext = name.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (!ext.empty())
        for (const TableFormat* f : table_formats())
            if (f->claims_extension(ext)) return f->id();
    return sniff_table_format(head).id();
}

const TableFormat& choose_table_format(const std::string& path, std::string_view head, const ReadOptions& opts) {
    if (opts.format != FileFormat::automatic) return table_format(opts.format);
    return table_format(detect_format(path == "-" ? "" : path, head.substr(0, kFormatSniffBytes)));
}

FileFormat peek_file_format(const std::string& path, const ReadOptions& opts) {
    if (opts.format != FileFormat::automatic) return opts.format;
    if (path == "-") return FileFormat::automatic;
    std::string head;
    try {
        head = read_text_head(path, kFormatSniffBytes);
    } catch (const DataError&) {
        // Looked at as empty: the reader names the error.
    }
    return detect_format(path, head);
}

}  // namespace kestrel
