// Pass 2 of the CSV reader, for tables with categorical columns: pass 1 left their
// cells 0 (NaN when missing); here each chunk codes them in parallel. At train time
// every chunk codes with its own dictionaries, which are then merged into one sorted
// list per column and the chunk's codes remapped to it, so the codes never depend on
// how the file was split or on the thread count. At predict time the model's lists
// are the dictionaries.
#include <algorithm>
#include <cmath>
#include <string_view>

#include "csv_fields.hpp"
#include "csv_internal.hpp"
#include "kestrel/core/error.hpp"
#include "number_field.hpp"
#include "read_hints.hpp"

namespace kestrel::detail {
namespace {

using Dictionary = CategoryDictionary;

struct CoderSetup {
    const CsvLayout& layout;
    std::vector<int> slot;  // per field: its index among the categorical columns, or -1
    const std::vector<Index>& features;
    double* X;
    const std::vector<Dictionary>* model;  // predict time; null at train time
    bool unknown_is_error;
    const std::string& source;
};

class ChunkCoder {
public:
    ChunkCoder(std::string_view text, const Chunk& chunk, const ChunkColumns& columns, const CoderSetup& setup,
               std::vector<Dictionary>& own)
        : chunk_(chunk), columns_(columns), s_(setup), own_(own), p_(text.data() + chunk.begin),
          end_(text.data() + chunk.end), line_(chunk.first_line), delim_(setup.layout.delimiter),
          tab_is_space_(setup.layout.delimiter != '\t') {}

    void run() {
        Index seen = 0, row = chunk_.first_row;
        auto dropped = columns_.dropped.begin();
        const auto d = static_cast<std::size_t>(s_.layout.n_features);
        while (p_ < end_) {
            const char* le = line_end(p_, end_);
            if (is_blank(p_, le, tab_is_space_)) {
                if (le < end_) ++line_;
                p_ = le < end_ ? le + 1 : end_;
                continue;
            }
            const bool keep = dropped == columns_.dropped.end() || *dropped != seen;
            if (!keep) ++dropped;
            code_record(keep ? s_.X + static_cast<std::size_t>(row) * d : nullptr);
            if (keep) ++row;
            ++seen;
        }
    }

private:
    void code_record(double* dst) {
        for (std::size_t j = 0; j < s_.layout.n_fields; ++j) {
            const std::uint64_t field_line = line_;
            const FieldEnd fe = scan_field(p_, end_, delim_, field_, scratch_, line_);
            if (field_failed(fe)) throw InternalError("CSV pass 2 met a malformed field that pass 1 accepted");
            const int k = s_.slot[j];
            if (dst && k >= 0) {
                double& cell = dst[s_.features[static_cast<std::size_t>(k)]];
                if (!std::isnan(cell)) cell = code(static_cast<std::size_t>(k), j, field_line);
            }
            if (fe == FieldEnd::record) ++line_;
            if (fe != FieldEnd::delimiter) break;
        }
    }

    double code(std::size_t k, std::size_t j, std::uint64_t line) {
        if (!s_.model) {
            return own_[k].code(field_);
        }
        if (const int c = (*s_.model)[k].find(field_); c >= 0) return c;
        if (s_.unknown_is_error) {
            const auto& header = s_.layout.header;
            throw DataError(SourceLocation{s_.source, line, j + 1},
                            quote_field(field_) + (header.empty() ? "" : " in column '" + header[j] + "'") +
                                " is a category the model never saw in training " + unknown_category_hint());
        }
        return kUnknownCategory;
    }

    const Chunk& chunk_;
    const ChunkColumns& columns_;
    const CoderSetup& s_;
    std::vector<Dictionary>& own_;
    const char* p_;
    const char* end_;
    std::uint64_t line_;
    const char delim_;
    const bool tab_is_space_;
    std::string_view field_;
    std::string scratch_;
};

// One column's categories over all chunks, sorted byte-wise, and each chunk's map
// from its own codes to their place in that list. The chunks' texts are sorted as views
// into their dictionaries: only the distinct ones are copied.
std::vector<std::string> merge_column(const std::vector<std::vector<Dictionary>>& dicts, std::size_t k,
                                      std::vector<std::vector<std::vector<double>>>& remap) {
    std::vector<std::string_view> all;
    for (const auto& chunk : dicts)
        for (const auto& e : chunk[k].entries()) all.emplace_back(e.text);
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    for (std::size_t c = 0; c < dicts.size(); ++c) {
        auto& map = remap[c][k];
        map.resize(dicts[c][k].size());
        for (const auto& e : dicts[c][k].entries())
            map[static_cast<std::size_t>(e.code)] =
                static_cast<double>(std::lower_bound(all.begin(), all.end(), e.text) - all.begin());
    }
    return {all.begin(), all.end()};
}

}  // namespace

void categorize_csv(const TextInput& in, std::vector<Chunk>& chunks, const CsvLayout& layout,
                    std::vector<ChunkColumns>& columns, const std::vector<Index>& features, double* X,
                    const ReadOptions& opts, const std::string& source, CategoryLists& categories) {
    const std::size_t n_cat = features.size();
    CoderSetup setup{
        layout, std::vector<int>(layout.n_fields, -1), features, X, nullptr, opts.unknown_category_error, source};
    std::vector<Index> slot_of_feature(static_cast<std::size_t>(layout.n_features), -1);
    for (std::size_t k = 0; k < n_cat; ++k) slot_of_feature[static_cast<std::size_t>(features[k])] = static_cast<Index>(k);
    for (std::size_t j = 0; j < layout.n_fields; ++j)
        if (layout.target[j] >= 0) setup.slot[j] = static_cast<int>(slot_of_feature[static_cast<std::size_t>(layout.target[j])]);

    std::vector<Dictionary> model;
    const bool predict = opts.feature_categories && !opts.feature_categories->empty();
    if (predict) {
        model.resize(n_cat);
        for (std::size_t k = 0; k < n_cat; ++k) {
            const auto& names = (*opts.feature_categories)[static_cast<std::size_t>(features[k])];
            for (std::size_t c = 0; c < names.size(); ++c) model[k].add(names[c], static_cast<int>(c));
        }
        setup.model = &model;
    }
    std::vector<std::vector<Dictionary>> own(chunks.size(), std::vector<Dictionary>(predict ? 0 : n_cat));
    // Pass 1 coded the text cells with the chunk's own dictionaries; a chunk is coded
    // again only where a categorical column has cells it did not code (number-like
    // cells, which are categories too): the same dictionaries give the text the same codes.
    std::vector<char> rescan(chunks.size(), 1);
    if (!predict)
        for (std::size_t c = 0; c < chunks.size(); ++c) {
            ChunkColumns& cc = columns[c];
            if (cc.dictionaries.empty()) continue;
            rescan[c] = 0;
            for (std::size_t k = 0; k < n_cat; ++k) {
                const auto f = static_cast<std::size_t>(features[k]);
                own[c][k] = std::move(cc.dictionaries[f]);
                rescan[c] |= cc.coded[f] < chunks[c].kept - cc.missing[f];
            }
        }
    std::vector<std::size_t> to_rescan;
    for (std::size_t c = 0; c < chunks.size(); ++c)
        if (rescan[c]) to_rescan.push_back(c);
    run_chunks(to_rescan.size(), resolve_threads(opts.threads, to_rescan.size()), [&](std::size_t t) {
        const std::size_t c = to_rescan[t];
        ChunkCoder(in.text, chunks[c], columns[c], setup, own[c]).run();
        for (auto& dictionary : own[c]) dictionary.release_index();
        in.done_with(chunks[c].begin, chunks[c].end);
    });

    if (predict) {
        categories = *opts.feature_categories;
        return;
    }
    categories.assign(static_cast<std::size_t>(layout.n_features), {});
    std::vector<std::vector<std::vector<double>>> remap(chunks.size(), std::vector<std::vector<double>>(n_cat));
    // The columns merge in parallel (each writes its own list and maps); the first column
    // in file order with too many categories is the one named.
    run_chunks(n_cat, resolve_threads(opts.threads, n_cat), [&](std::size_t k) {
        categories[static_cast<std::size_t>(features[k])] = merge_column(own, k, remap);
    });
    for (std::size_t k = 0; k < n_cat; ++k) {
        const auto& list = categories[static_cast<std::size_t>(features[k])];
        if (static_cast<Index>(list.size()) > opts.max_categories) {
            const auto f = static_cast<std::size_t>(features[k]);
            throw DataError(source + ": column " +
                            (layout.feature_names.empty() ? std::to_string(f) : "'" + layout.feature_names[f] + "'") +
                            " has " + std::to_string(list.size()) + " categories, more than " +
                            option_named("read.max_categories") + " (" + std::to_string(opts.max_categories) + ")");
        }
    }
    const auto d = static_cast<std::size_t>(layout.n_features);
    run_chunks(chunks.size(), resolve_threads(opts.threads, chunks.size()), [&](std::size_t c) {
        for (Index r = 0; r < chunks[c].kept; ++r) {
            double* row = X + static_cast<std::size_t>(chunks[c].first_row + r) * d;
            for (std::size_t k = 0; k < n_cat; ++k) {
                double& cell = row[features[k]];
                if (!std::isnan(cell)) cell = remap[c][k][static_cast<std::size_t>(cell)];
            }
        }
    });
}

}  // namespace kestrel::detail
