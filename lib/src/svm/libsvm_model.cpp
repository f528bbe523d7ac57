// LIBSVM model files (svm_save_model's text format, LIBSVM 3.x) into the SVM family's
// SvmModel. The header is `keyword values...` lines up to `SV`; then one line per
// support vector: the coefficients, then sparse `index:value` features.
#include "kestrel/svm/libsvm_model.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numeric>
#include <sstream>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/kernels/kernel_spec.hpp"

namespace kestrel {

namespace {

std::vector<std::string_view> split_tokens(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        const std::size_t b = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
        if (i > b) out.push_back(line.substr(b, i - b));
    }
    return out;
}

class Parser {
public:
    Parser(std::string_view text, const std::string& source) : text_(text), source_(source) {}

    [[noreturn]] void fail(const std::string& what) const { fail_at(line_no_, what); }
    [[noreturn]] void fail_at(std::uint64_t line, const std::string& what) const {
        throw ModelFileError(source_ + ":" + std::to_string(line), "LIBSVM model: " + what);
    }
    std::uint64_t line() const { return line_no_; }

    // The next line's tokens; false at the end of the text. Blank lines are skipped.
    bool next(std::vector<std::string_view>& tokens) {
        while (pos_ < text_.size()) {
            const std::size_t e = std::min(text_.find('\n', pos_), text_.size());
            const std::string_view line = text_.substr(pos_, e - pos_);
            pos_ = e + 1;
            ++line_no_;
            tokens = split_tokens(line);
            if (!tokens.empty()) return true;
        }
        ++line_no_;
        return false;
    }

    double number(std::string_view tok, const std::string& what) const {
        const std::string s(tok);
        // from_chars, not strtod: strtod follows the C locale's decimal point, which a
        // program embedding kestrel may have set to ','.
        std::string_view digits = tok;
        if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
        double v = 0;
        const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v);
        if (s.empty() || r.ec != std::errc() || r.ptr != digits.data() + digits.size() || !std::isfinite(v))
            fail("expected a finite number for " + what + ", found '" + s + "'");
        return v;
    }

    long long integer(std::string_view tok, const std::string& what) const {
        const std::string s(tok);
        char* end = nullptr;
        errno = 0;
        const long long v = std::strtoll(s.c_str(), &end, 10);
        if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE)
            fail("expected an integer for " + what + ", found '" + s + "'");
        return v;
    }

private:
    std::string_view text_;
    const std::string& source_;
    std::size_t pos_ = 0;
    std::uint64_t line_no_ = 0;
};

struct Header {
    std::string svm_type, kernel_type;
    int degree = 3;
    double gamma = 0, coef0 = 0;
    bool has_gamma = false;
    long long nr_class = -1, total_sv = -1;
    std::vector<double> rho, prob_a, prob_b;
    std::vector<long long> label, nr_sv;
    std::map<std::string, std::uint64_t> line;  // where each keyword was, for errors found later
};

const std::map<std::string, std::string>& model_names() {
    static const std::map<std::string, std::string> m = {{"c_svc", "svc"},
                                                         {"nu_svc", "nu_svc"},
                                                         {"one_class", "one_class"},
                                                         {"epsilon_svr", "svr"},
                                                         {"nu_svr", "nu_svr"}};
    return m;
}

KernelSpec kernel_of(const Header& h, Parser& p, std::uint64_t line) {
    BaseKernel b;
    if (h.kernel_type == "linear") {
        b.kind = KernelKind::linear;
    } else if (h.kernel_type == "polynomial") {
        b.kind = KernelKind::poly;
        b.degree = h.degree;
        b.coef0 = h.coef0;
    } else if (h.kernel_type == "rbf") {
        b.kind = KernelKind::rbf;
    } else if (h.kernel_type == "sigmoid") {
        b.kind = KernelKind::sigmoid;
        b.coef0 = h.coef0;
    } else if (h.kernel_type == "precomputed") {
        p.fail_at(line,
                  "precomputed-kernel models are not supported (their support vectors are only serial numbers "
                  "of the training rows)");
    } else {
        p.fail_at(line, "unknown kernel_type '" + h.kernel_type + "' (expected linear, polynomial, rbf or sigmoid)");
    }
    if (kernel_uses_gamma(b.kind)) {
        if (!h.has_gamma) p.fail("kernel_type " + h.kernel_type + " needs a gamma line");
        if (!(h.gamma >= 0)) p.fail_at(h.line.at("gamma"), "gamma must not be negative");
        b.gamma = h.gamma;
    }
    KernelSpec spec;
    spec.terms.push_back(KernelTerm{1.0, {b}});
    return spec;
}

std::string format_label(long long v) {
    return std::to_string(v);
}

}  // namespace

bool looks_like_libsvm_model(std::string_view text) {
    const auto b = text.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return false;
    const std::string_view rest = text.substr(b);
    return rest.substr(0, 8) == "svm_type" && (rest.size() == 8 || rest[8] == ' ' || rest[8] == '\t');
}

namespace {

// The header's keyword lines up to SV, each value parsed; nothing checked across lines yet.
Header read_libsvm_header(Parser& p, std::vector<std::string_view>& tok) {
    Header h;
    bool seen_sv = false;
    auto values = [&](std::size_t min_count) {
        if (tok.size() < 1 + min_count) p.fail("'" + std::string(tok[0]) + "' needs a value");
    };
    while (p.next(tok)) {
        const std::string key(tok[0]);
        h.line[key] = p.line();
        if (key == "SV") {
            if (tok.size() != 1) p.fail("unexpected text after SV");
            seen_sv = true;
            break;
        }
        if (key == "svm_type" || key == "kernel_type") {
            values(1);
            if (tok.size() != 2) p.fail(key + " takes one value");
            (key == "svm_type" ? h.svm_type : h.kernel_type) = std::string(tok[1]);
        } else if (key == "degree") {
            values(1);
            const long long d = p.integer(tok[1], "degree");
            if (d < 0 || d > 1000) p.fail("degree " + std::to_string(d) + " is out of range");
            h.degree = static_cast<int>(d);
        } else if (key == "gamma") {
            values(1);
            h.gamma = p.number(tok[1], "gamma");
            h.has_gamma = true;
        } else if (key == "coef0") {
            values(1);
            h.coef0 = p.number(tok[1], "coef0");
        } else if (key == "nr_class" || key == "total_sv") {
            values(1);
            const long long v = p.integer(tok[1], key);
            if (v < 0) p.fail(key + " must not be negative");
            (key == "nr_class" ? h.nr_class : h.total_sv) = v;
        } else if (key == "rho" || key == "probA" || key == "probB") {
            values(1);
            auto& dst = key == "rho" ? h.rho : key == "probA" ? h.prob_a : h.prob_b;
            dst.clear();
            for (std::size_t i = 1; i < tok.size(); ++i) dst.push_back(p.number(tok[i], key));
        } else if (key == "label" || key == "nr_sv") {
            values(1);
            auto& dst = key == "label" ? h.label : h.nr_sv;
            dst.clear();
            for (std::size_t i = 1; i < tok.size(); ++i) dst.push_back(p.integer(tok[i], key));
        } else {
            const bool numeric = key.find_first_not_of("+-.0123456789eE") == std::string::npos;
            p.fail("unknown header keyword '" + key + "'" + (numeric ? " (a support vector before the SV line?)" : ""));
        }
    }
    if (!seen_sv) p.fail("no SV line (the file ends inside the header)");
    return h;
}

// What the header says once its lines agree: the model, its kernel and its shape.
struct LibsvmShape {
    std::string model;  // kestrel's name of the svm_type
    KernelSpec spec;
    bool classifier = false, probability = false;
    Index k = 0;    // classes (classifiers)
    Index nsv = 0;  // support vectors
};

// The line of a header keyword: a line given twice counts as its last; a missing one
// points at SV.
std::uint64_t libsvm_header_line(Header& h, const char* key) {
    return h.line.count(key) ? h.line[key] : h.line["SV"];
}

// The header's lines checked against each other (counts of rho, probA, probB, label and
// nr_sv against nr_class; nr_sv against total_sv).
LibsvmShape check_libsvm_header(Header& h, Parser& p) {
    const auto at = [&](const char* key) { return libsvm_header_line(h, key); };
    LibsvmShape s;
    const auto name_it = model_names().find(h.svm_type);
    if (h.svm_type.empty()) p.fail("no svm_type line");
    if (name_it == model_names().end())
        p.fail_at(at("svm_type"),
                  "unknown svm_type '" + h.svm_type + "' (expected c_svc, nu_svc, one_class, epsilon_svr or nu_svr)");
    s.model = name_it->second;
    if (h.kernel_type.empty()) p.fail("no kernel_type line");
    s.spec = kernel_of(h, p, at("kernel_type"));
    s.classifier = h.svm_type == "c_svc" || h.svm_type == "nu_svc";
    const bool classifier = s.classifier;
    if (h.nr_class < 0) p.fail("no nr_class line");
    if (h.total_sv < 0) p.fail("no total_sv line");
    const Index k = classifier ? static_cast<Index>(h.nr_class) : 0;
    if (classifier && k < 2)
        p.fail_at(at("nr_class"), "a classifier needs nr_class >= 2, found " + std::to_string(h.nr_class));
    // Past this, k(k-1)/2 rho values could not be in any file (and the product overflows).
    if (classifier && k > 1000000)
        p.fail_at(at("nr_class"), "nr_class " + std::to_string(h.nr_class) + " is out of range");
    const Index n_pairs = classifier ? k * (k - 1) / 2 : 1;
    const auto count_is = [&](const std::vector<double>& v, const char* what) {
        if (static_cast<Index>(v.size()) != n_pairs)
            p.fail_at(at(what), std::string(what) + " has " + std::to_string(v.size()) + " values, expected " +
                                    std::to_string(n_pairs));
    };
    count_is(h.rho, "rho");
    const bool regression = h.svm_type == "epsilon_svr" || h.svm_type == "nu_svr";
    s.probability = (classifier || regression) && !h.prob_a.empty();
    if (s.probability) {
        count_is(h.prob_a, "probA");
        if (classifier) count_is(h.prob_b, "probB");
    }
    s.k = k;
    s.nsv = static_cast<Index>(h.total_sv);
    if (!classifier) return s;
    if (static_cast<Index>(h.label.size()) != k) p.fail_at(at("label"), "label needs " + std::to_string(k) + " values");
    if (static_cast<Index>(h.nr_sv.size()) != k) p.fail_at(at("nr_sv"), "nr_sv needs " + std::to_string(k) + " values");
    long long total = 0;
    for (long long c : h.nr_sv) {
        if (c < 0) p.fail_at(at("nr_sv"), "nr_sv must not be negative");
        if (c > h.total_sv - total)
            p.fail_at(at("nr_sv"), "nr_sv adds up to more than total_sv " + std::to_string(h.total_sv));
        total += c;
    }
    if (total != h.total_sv)
        p.fail_at(at("nr_sv"), "nr_sv adds up to " + std::to_string(total) + ", not total_sv " + std::to_string(h.total_sv));
    std::vector<long long> sorted(h.label);
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) p.fail_at(at("label"), "label repeats a class");
    return s;
}

// The support vectors as LIBSVM stores them: n_coef coefficient rows, sparse features.
struct LibsvmVectors {
    Eigen::MatrixXd coef;
    std::vector<std::vector<std::pair<int, double>>> sv;
    long long max_index = 0;
};

LibsvmVectors read_libsvm_vectors(Parser& p, std::vector<std::string_view>& tok, Index n_coef, Index nsv) {
    LibsvmVectors out;
    out.coef.resize(n_coef, nsv);
    out.sv.resize(static_cast<std::size_t>(nsv));
    for (Index j = 0; j < nsv; ++j) {
        if (!p.next(tok))
            p.fail("the file ends after " + std::to_string(j) + " of " + std::to_string(nsv) + " support vectors");
        if (static_cast<Index>(tok.size()) < n_coef)
            p.fail("a support vector line needs " + std::to_string(n_coef) + " coefficients");
        for (Index r = 0; r < n_coef; ++r) {
            if (tok[static_cast<std::size_t>(r)].find(':') != std::string_view::npos)
                p.fail("a support vector line needs " + std::to_string(n_coef) + " coefficients before its features");
            out.coef(r, j) = p.number(tok[static_cast<std::size_t>(r)], "a coefficient");
        }
        long long prev = 0;
        for (std::size_t t = static_cast<std::size_t>(n_coef); t < tok.size(); ++t) {
            const auto colon = tok[t].find(':');
            if (colon == std::string_view::npos)
                p.fail("malformed feature '" + std::string(tok[t]) + "' (expected index:value)");
            const long long idx = p.integer(tok[t].substr(0, colon), "a feature index");
            if (idx < 1 || idx > 0x7fffffff) p.fail("feature index " + std::to_string(idx) + " (indices are 1-based)");
            if (idx <= prev) p.fail("feature indices must be strictly increasing");
            prev = idx;
            out.max_index = std::max(out.max_index, idx);
            out.sv[static_cast<std::size_t>(j)].emplace_back(static_cast<int>(idx - 1),
                                                             p.number(tok[t].substr(colon + 1), "a feature value"));
        }
    }
    if (p.next(tok)) p.fail("text after the " + std::to_string(nsv) + " support vectors of total_sv");
    if (out.max_index == 0) out.max_index = 1;  // no features at all: a constant model still needs a width
    return out;
}

// A classifier's support vectors, pairs and coefficients in kestrel's class order
// (numeric) rather than LIBSVM's (first appearance). Regression and one-class models keep
// LIBSVM's order (the identity, no classes).
struct LibsvmClassOrder {
    std::vector<std::string> classes;
    std::vector<Index> out_order;  // kestrel's support vector r is LIBSVM's out_order[r]
    std::vector<Index> n_sv_out;
    Eigen::MatrixXd coef_out;
    std::vector<double> rho_out, pa_out, pb_out;
};

LibsvmClassOrder libsvm_class_order(const Header& h, const LibsvmShape& s, const Eigen::MatrixXd& coef) {
    const Index k = s.k, nsv = s.nsv;
    LibsvmClassOrder o;
    o.out_order.resize(static_cast<std::size_t>(nsv));
    std::iota(o.out_order.begin(), o.out_order.end(), Index{0});
    o.coef_out = coef;
    o.rho_out = h.rho;
    o.pa_out = h.prob_a;
    o.pb_out = h.prob_b;
    if (!s.classifier) return o;
    std::vector<Index> lib_of(static_cast<std::size_t>(k));  // kestrel class -> LIBSVM class index
    std::iota(lib_of.begin(), lib_of.end(), Index{0});
    std::stable_sort(lib_of.begin(), lib_of.end(), [&](Index a, Index b) {
        return h.label[static_cast<std::size_t>(a)] < h.label[static_cast<std::size_t>(b)];
    });
    std::vector<Index> start(static_cast<std::size_t>(k) + 1, 0);
    for (Index c = 0; c < k; ++c)
        start[static_cast<std::size_t>(c) + 1] = start[static_cast<std::size_t>(c)] + h.nr_sv[static_cast<std::size_t>(c)];
    o.out_order.clear();
    for (Index c = 0; c < k; ++c) {
        const Index L = lib_of[static_cast<std::size_t>(c)];
        o.classes.push_back(format_label(h.label[static_cast<std::size_t>(L)]));
        o.n_sv_out.push_back(h.nr_sv[static_cast<std::size_t>(L)]);
        for (Index j = start[static_cast<std::size_t>(L)]; j < start[static_cast<std::size_t>(L) + 1]; ++j)
            o.out_order.push_back(j);
    }
    // LIBSVM's pair index of classes (a, b), a < b.
    auto pair_index = [k](Index a, Index b) { return a * (2 * k - a - 1) / 2 + (b - a - 1); };
    std::vector<Index> class_of_sv(static_cast<std::size_t>(nsv));
    for (Index L = 0; L < k; ++L)
        for (Index j = start[static_cast<std::size_t>(L)]; j < start[static_cast<std::size_t>(L) + 1]; ++j)
            class_of_sv[static_cast<std::size_t>(j)] = L;
    o.coef_out.setZero();
    for (Index a = 0; a < k; ++a) {
        for (Index t = a + 1; t < k; ++t) {
            const Index la = lib_of[static_cast<std::size_t>(a)], lt = lib_of[static_cast<std::size_t>(t)];
            const bool flip = la > lt;  // LIBSVM's pair is (lt, la): its decision favours t
            const Index q = pair_index(a, t), lq = pair_index(std::min(la, lt), std::max(la, lt));
            const double sign = flip ? -1.0 : 1.0;
            o.rho_out[static_cast<std::size_t>(q)] = sign * h.rho[static_cast<std::size_t>(lq)];
            if (s.probability) {
                // 1 - σ(f; A, B) = σ(-f; A, -B): the sigmoid of the flipped decision.
                o.pa_out[static_cast<std::size_t>(q)] = h.prob_a[static_cast<std::size_t>(lq)];
                o.pb_out[static_cast<std::size_t>(q)] = sign * h.prob_b[static_cast<std::size_t>(lq)];
            }
            // LIBSVM's pair (a, b), a < b, keeps class a's coefficients in row b-1 and
            // class b's in row a; kestrel's layout is the same in its own class indices.
            const Index row_a = flip ? lt : lt - 1, row_t = flip ? la - 1 : la;
            for (Index j = 0; j < nsv; ++j) {
                const Index L = class_of_sv[static_cast<std::size_t>(j)];
                if (L == la)
                    o.coef_out(t - 1, j) = sign * coef(row_a, j);
                else if (L == lt)
                    o.coef_out(a, j) = sign * coef(row_t, j);
            }
        }
    }
    return o;
}

// The model as the SVM family holds it; its state is written by SvmModel::to_json.
LibsvmModelFile libsvm_model_file(const Header& h, const LibsvmShape& s, LibsvmVectors& v, LibsvmClassOrder& o) {
    const Index nsv = s.nsv, n_coef = s.classifier ? s.k - 1 : 1;
    LibsvmModelFile f;
    f.model = s.model;
    f.task = s.classifier ? Task::classification : Task::regression;
    f.classes = std::move(o.classes);
    f.n_features = static_cast<Index>(v.max_index);
    f.probability = s.probability;
    SvmModel& m = f.svm;
    m.kernel_spec = s.spec;
    std::vector<Eigen::Triplet<double, int>> entries;
    for (Index r = 0; r < nsv; ++r)
        for (const auto& [i, value] : v.sv[static_cast<std::size_t>(o.out_order[static_cast<std::size_t>(r)])])
            entries.emplace_back(static_cast<int>(r), i, value);
    SparseMatrix vectors(nsv, f.n_features);
    vectors.setFromTriplets(entries.begin(), entries.end());
    m.support_vectors = Features(std::move(vectors));
    m.support.assign(static_cast<std::size_t>(nsv), -1);  // the training rows are unknown
    m.sv_coef.resize(n_coef, nsv);
    for (Index r = 0; r < n_coef; ++r)
        for (Index j = 0; j < nsv; ++j)
            m.sv_coef(r, j) = s.classifier ? o.coef_out(r, o.out_order[static_cast<std::size_t>(j)]) : v.coef(r, j);
    m.rho = Eigen::Map<const Vector>(o.rho_out.data(), static_cast<Index>(o.rho_out.size()));
    m.n_sv = o.n_sv_out;
    if (s.probability) {
        const std::vector<double>& pa = s.classifier ? o.pa_out : h.prob_a;
        m.prob_a = Eigen::Map<const Vector>(pa.data(), static_cast<Index>(pa.size()));
        if (s.classifier) m.prob_b = Eigen::Map<const Vector>(o.pb_out.data(), static_cast<Index>(o.pb_out.size()));
    }
    f.params = {{"kernel", s.spec.to_string()}};
    if (s.probability) f.params["probability"] = true;
    return f;
}

}  // namespace

LibsvmModelFile read_libsvm_model(std::string_view text, const std::string& source) {
    Parser p(text, source);
    std::vector<std::string_view> tok;
    Header h = read_libsvm_header(p, tok);
    const LibsvmShape shape = check_libsvm_header(h, p);
    const Index n_coef = shape.classifier ? shape.k - 1 : 1;
    // Checked before allocating: a one-line header must not claim terabytes. Each
    // support vector takes a line and each coefficient at least two bytes.
    const auto lines = static_cast<Index>(std::count(text.begin(), text.end(), '\n')) + 1;
    if (shape.nsv > lines || n_coef * shape.nsv > static_cast<Index>(text.size()))
        p.fail_at(libsvm_header_line(h, "total_sv"),
                  "total_sv " + std::to_string(shape.nsv) + " support vectors cannot fit in this file");
    LibsvmVectors vectors = read_libsvm_vectors(p, tok, n_coef, shape.nsv);
    LibsvmClassOrder order = libsvm_class_order(h, shape, vectors.coef);
    return libsvm_model_file(h, shape, vectors, order);
}

}  // namespace kestrel
