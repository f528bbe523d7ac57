// The list of input formats and the one place an input's format is decided.
#include "kestrel/io/table_format.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "number_field.hpp"
#include "readers.hpp"
#include "table_formats.hpp"

namespace kestrel {
namespace {

bool is_sniff_space(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}

std::vector<std::string_view> sniff_tokens(std::string_view line) {
    std::vector<std::string_view> tokens;
    for (std::size_t i = 0; i < line.size();) {
        while (i < line.size() && is_sniff_space(line[i])) ++i;
        const std::size_t b = i;
        while (i < line.size() && !is_sniff_space(line[i])) ++i;
        if (i > b) tokens.push_back(line.substr(b, i - b));
    }
    return tokens;
}

[[noreturn]] void refuse_unknown_format(const std::string& source, std::uint64_t line_number, std::string_view line,
                                        const std::vector<std::string>& reasons) {
    std::string tried;
    std::string why;
    const auto& formats = table_formats();
    for (std::size_t i = 0; i < formats.size(); ++i) {
        tried += (i == 0 ? "" : ", ") + std::string(formats[i]->name());
        why += (i == 0 ? "" : "; ") + std::string(formats[i]->name()) + ": " + reasons[i];
    }
    while (!line.empty() && is_sniff_space(line.back())) line.remove_suffix(1);
    throw DataError(SourceLocation{source, line_number, 0},
                    ErrorText(detail::quote_field(line) + " looks like no format tried (" + why +
                              "); if it is one of them, say which with ") +
                        option_named("format") + " (" + tried + ")");
}

// The format the lines of `head` say, asked of the formats in their order: the first line
// holding two or more whitespace-separated tokens, once a '#' comment is cut off, decides
// (the default when no line does).
const TableFormat& sniff_table_format(std::string_view head, const std::string& source) {
    const auto& formats = table_formats();
    // A head read to its limit may end inside a line, which must not be judged cut short.
    const bool cut = head.size() >= kFormatSniffBytes;
    head.remove_prefix(detail::bom_length(head));
    std::uint64_t line_number = 0;
    while (!head.empty()) {
        const auto nl = head.find('\n');
        if (nl == std::string_view::npos && cut) break;
        const std::string_view line = head.substr(0, nl);
        head.remove_prefix(nl == std::string_view::npos ? head.size() : nl + 1);
        ++line_number;
        const std::vector<std::string_view> tokens = sniff_tokens(line.substr(0, line.find('#')));
        // Blank, a comment, a lone field or label: every format reads such a line.
        if (tokens.size() < 2) continue;
        std::vector<std::string> reasons;
        for (const TableFormat* f : formats) {
            TableFormat::LineClaim claim = f->claim_line(line, tokens);
            if (claim.claimed) return *f;
            reasons.push_back(std::move(claim.why_not));
        }
        refuse_unknown_format(source, line_number, line, reasons);
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
    return sniff_table_format(head, path.empty() || path == "-" ? std::string("<stdin>") : path).id();
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
