// CSV as a TableFormat: the delimiter decided from the input's start, the header record put
// in front of every piece, quoted fields that may hold line breaks; parsed by read_csv.
#include <string_view>

#include "kestrel/io/csv.hpp"
#include "kestrel/io/table_stream.hpp"
#include "number_field.hpp"
#include "readers.hpp"
#include "table_formats.hpp"

namespace kestrel::detail {
namespace {

class CsvTableFormat final : public TableFormat {
public:
    FileFormat id() const override { return FileFormat::csv; }
    std::string_view name() const override { return "csv"; }
    bool claims_extension(std::string_view extension) const override {
        return extension == ".csv" || extension == ".tsv";
    }
    // A line with a delimiter or a quote, or one field of text with spaces in it. Not a line
    // of numbers or of "x:y" tokens separated by spaces only: kestrel's CSV never splits
    // there, and reading such a line as one text field would hide a file of another format
    // (space-separated numbers, Vowpal Wabbit, LIBSVM with names for indices) behind a
    // puzzling message about its columns.
    LineClaim claim_line(std::string_view line, const std::vector<std::string_view>& tokens) const override {
        if (line.find_first_of(",;\t\"") != std::string_view::npos) return {true, {}};
        bool numbers = true;
        bool colons = false;
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            colons = colons || (i > 0 && tokens[i].find(':') != std::string_view::npos);
            double v = 0;
            numbers = numbers && classify_number(tokens[i].data(), tokens[i].data() + tokens[i].size(), v) ==
                                     FieldKind::number;
        }
        if (numbers || colons) return {false, "its tokens are separated by spaces, not by ',', ';' or a tab"};
        return {true, {}};
    }
    void settle(ReadOptions& opts, std::string_view head) const override {
        opts.format = FileFormat::csv;
        if (opts.delimiter == 0) opts.delimiter = detect_delimiter(head);
    }
    bool has_header_record(const ReadOptions& opts) const override { return opts.header; }
    std::size_t header_end(std::string_view text, const ReadOptions& opts) const override {
        return opts.header ? csv_header_end(text, opts.delimiter) : 0;
    }
    bool quotes_hold_line_breaks() const override { return true; }
    void learn(ReadOptions& opts, const Table& first_piece) const override {
        if (!opts.header && opts.csv_fields == 0 && first_piece.fields > 0) opts.csv_fields = first_piece.fields;
    }
    Table read(const TextInput& in, const std::string& source, const ReadOptions& opts) const override {
        return read_csv_input(in, source, opts);
    }
};

}  // namespace

const TableFormat& csv_table_format() {
    static const CsvTableFormat format;
    return format;
}

}  // namespace kestrel::detail
