#pragma once
// One reader interface: where an input's format is decided and how its text is opened.
// Every way in (read_table: a whole file or buffer; TableStream: pieces of a stream;
// read_file_shard: one rank's byte range) asks this list, so a format is added here and
// nowhere else. CSV and LIBSVM are its two implementations; their parsers are untouched
// (the format is chosen once per input, never per record).
#include <string>
#include <string_view>
#include <vector>

#include "kestrel/io/read_options.hpp"

namespace kestrel {

namespace detail {
struct TextInput;
}

class TableFormat {
public:
    virtual ~TableFormat() = default;

    virtual FileFormat id() const = 0;
    // As --format and file_format_from_string spell it: "csv", "libsvm".
    virtual std::string_view name() const = 0;

    // Detection. Whether a file name's extension (lower case, with its dot: ".csv") says
    // this format.
    virtual bool claims_extension(std::string_view extension) const = 0;
    // What this format makes of the first line of the input holding two or more
    // whitespace-separated `tokens` (a '#' comment cut off, as LIBSVM's tools cut it;
    // `line` is the whole line): claimed, or why not. The formats are asked in their list
    // order and the first to claim the line wins; a line no format claims is an error that
    // gives each one's reason. An input without such a line is the last format's (CSV's).
    struct LineClaim {
        bool claimed = false;
        std::string why_not;  // when not claimed: "token 2 \"a:1\" is not index:value"
    };
    virtual LineClaim claim_line(std::string_view line, const std::vector<std::string_view>& tokens) const = 0;

    // The dialect decided from the input's start (`head`: its first 64 KB, or all of a
    // shorter input), as a whole file's would be: CSV's delimiter. Sets opts.format.
    virtual void settle(ReadOptions& opts, std::string_view head) const;

    // Streamed and sharded reads. Whether every piece needs a record of the input's start
    // in front of its rows (CSV's header record), and one past that record in `text`
    // (0 when `text` holds no whole one yet).
    virtual bool has_header_record(const ReadOptions& opts) const;
    virtual std::size_t header_end(std::string_view text, const ReadOptions& opts) const;
    // Whether a record may hold a line break inside quotes: a piece is then cut only at a
    // line break outside them.
    virtual bool quotes_hold_line_breaks() const = 0;
    // What the first parsed piece teaches the reading of the next ones (a CSV without a
    // header: the fields of its first record).
    virtual void learn(ReadOptions& opts, const Table& first_piece) const;

    // Parses a whole input, or a piece with its header in front (opts.first_line,
    // piece_of_stream): the format's parser, with its own errors ("file:line:column: ...").
    virtual Table read(const detail::TextInput& in, const std::string& source, const ReadOptions& opts) const = 0;

protected:
    TableFormat() = default;
    TableFormat(const TableFormat&) = default;
    TableFormat& operator=(const TableFormat&) = default;
};

// The formats, in the order detection asks them (the default last).
const std::vector<const TableFormat*>& table_formats();
// The implementation of a format; InternalError for FileFormat::automatic.
const TableFormat& table_format(FileFormat format);
// "auto" then every format's name, as --format takes them.
std::vector<std::string> table_format_names();

// The bytes of an input's start that detection and the dialect look at.
inline constexpr std::size_t kFormatSniffBytes = std::size_t{64} << 10;

// Format by extension (.csv .tsv -> csv; .libsvm .svm .svmlight .scale .t -> libsvm; before
// a compression suffix .gz .zst .xz .bz2 too: train.csv.gz -> csv), else
// (.txt, .rank, none, "-") by the first line of `head` with two or more tokens once a '#'
// comment is cut off: "label [qid:N] idx:val ..." -> libsvm, fields with a ',', ';' or tab
// between them (or text with spaces) -> csv; blank lines, comment lines and lines of one
// token say nothing (csv when no line says more). A line that is neither ("1 a:0.5", "1 2 3")
// is a DataError at path:line giving each format's reason and naming the option "format".
// A last line `head` cuts short (head of kFormatSniffBytes or more) is not looked at.
FileFormat detect_format(const std::string& path, std::string_view head);
// The format of an input: opts.format when it is given, else detect_format. `path` is ""
// or "-" for an input without a name.
const TableFormat& choose_table_format(const std::string& path, std::string_view head, const ReadOptions& opts);
// The same for a file not opened yet: looks at the first kFormatSniffBytes of its text
// (decompressed). Standard
// input ("-") is not looked at (it can be read once): FileFormat::automatic unless forced.
// A file that cannot be opened is looked at as empty (its reader names the error).
FileFormat peek_file_format(const std::string& path, const ReadOptions& opts);

}  // namespace kestrel
