#include "fuzz_entries.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/io/table_cache.hpp"
#include "kestrel/kernels/kernel.hpp"
#include "kestrel/kernels/kernel_spec.hpp"
#include "kestrel/model_selection/grid.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/svm/libsvm_model.hpp"

namespace kestrel::fuzz {
namespace {

// The harness's own budget, not a kestrel limit: inputs past it are read and checked
// but not trained on or predicted with, so each execution stays in milliseconds.
constexpr Index kMaxTrainCells = 4096;
constexpr Index kMaxPredictFeatures = 512;
constexpr long long kMaxGivenInteger = 64;
constexpr std::size_t kMaxGridPoints = 32;
constexpr int kMaxNesting = 4;

// Rejections with kestrel's typed errors are the expected outcome for most inputs.
template <class F>
void guarded(F&& f) {
    try {
        f();
    } catch (const Error&) {
    }
}

std::vector<std::string> split_lines(std::string_view text) {
    std::vector<std::string> lines;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        std::string line(text.substr(0, nl));
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    }
    return lines;
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// A few rows with zeros, ones, negatives, fractions and a large value, dense and sparse.
DenseMatrix probe_rows(Index d) {
    DenseMatrix X(4, d);
    for (Index j = 0; j < d; ++j) {
        X(0, j) = 0.0;
        X(1, j) = 1.0;
        X(2, j) = (j % 2) ? -1.5 : 2.25;
        X(3, j) = (j % 3) ? 0.0 : 1e3;
    }
    return X;
}

bool same_values(const Matrix& a, const Matrix& b) {
    if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
    for (Index i = 0; i < a.size(); ++i) {
        const double x = a.data()[i], y = b.data()[i];
        if (!(x == y || (std::isnan(x) && std::isnan(y)))) return false;
    }
    return true;
}

// What the executables rely on when they print predictions: a class index that
// indexes the class list, one probability or decision column per class.
void check_predictions(const Model& m, const Vector& pred, Index rows) {
    if (pred.size() != rows) throw FuzzFinding("predict returned " + std::to_string(pred.size()) + " values for " +
                                               std::to_string(rows) + " rows");
    if (m.task() != Task::classification) return;
    const auto k = static_cast<double>(m.classes().size());
    for (Index i = 0; i < pred.size(); ++i) {
        const double c = pred[i];
        if (!(c >= 0 && c < k && c == std::floor(c)))
            throw FuzzFinding("predicted class index " + std::to_string(c) + " outside 0.." +
                              std::to_string(m.classes().size() - 1));
    }
}

Matrix predictions_of(const Model& m, const Features& X) {
    Matrix all = m.predict(X);
    check_predictions(m, all.col(0), X.rows());
    const auto k = static_cast<Index>(m.classes().size());
    if (m.has_decision_function()) {
        const Matrix d = m.decision_function(X);
        const Index want = m.task() == Task::classification ? (k == 2 ? 1 : k) : 1;
        if (d.rows() != X.rows() || (m.task() == Task::classification && d.cols() != want && d.cols() != k))
            throw FuzzFinding("decision_function has " + std::to_string(d.cols()) + " columns for " +
                              std::to_string(k) + " classes");
        all.conservativeResize(Eigen::NoChange, all.cols() + d.cols());
        all.rightCols(d.cols()) = d;
    }
    if (m.has_predict_proba()) {
        const Matrix p = m.predict_proba(X);
        if (p.rows() != X.rows() || p.cols() != k)
            throw FuzzFinding("predict_proba has " + std::to_string(p.cols()) + " columns for " +
                              std::to_string(k) + " classes");
        all.conservativeResize(Eigen::NoChange, all.cols() + p.cols());
        all.rightCols(p.cols()) = p;
    }
    return all;
}

// Saves a model as kestrel-train does, reloads it as kestrel-predict does, and
// predicts with both: a model that saves must load, and predict the same.
void exercise_model(const Model& m) {
    const std::string text = m.to_json().dump(1);
    Model back = [&] {
        try {
            return Model::from_json(Json::parse(text), "<saved>");
        } catch (const Error& e) {
            throw FuzzFinding(std::string("a saved model does not load back: ") + e.what());
        }
    }();
    for (const auto& name : m.estimator().report_names()) (void)m.report(name);
    if (m.n_features() > kMaxPredictFeatures) return;
    const DenseMatrix dense = probe_rows(m.n_features());
    const Features X(dense);
    const Matrix before = predictions_of(m, X);
    if (!same_values(before, predictions_of(back, X)))
        throw FuzzFinding("the reloaded model predicts differently");
    const Features S(SparseMatrix(dense.sparseView()));
    (void)predictions_of(m, S);
}

// Invariants every reader promises: one label per row, names matching the width,
// no infinities, NaN only where missing values are kept.
void check_table(const Table& t, const ReadOptions& o) {
    const Index rows = t.X.rows(), cols = t.X.cols();
    if (t.labels && static_cast<Index>(t.labels->text.size()) != rows)
        throw FuzzFinding("label count differs from the row count");
    if (t.labels && (t.labels->numeric.size() != t.labels->text.size() || t.labels->line.size() != t.labels->text.size()))
        throw FuzzFinding("label columns of different lengths");
    if (!t.feature_names.empty() && static_cast<Index>(t.feature_names.size()) != cols)
        throw FuzzFinding("feature names differ from the column count");
    if (o.expected_features >= 0 && cols != o.expected_features && !t.X.is_sparse())
        throw FuzzFinding("dense table width differs from expected_features");
    auto check_value = [&](double v) {
        if (std::isinf(v)) throw FuzzFinding("an infinity was read as data");
        if (std::isnan(v) && o.missing != MissingPolicy::keep) throw FuzzFinding("NaN read without missing=keep");
    };
    if (t.X.is_sparse()) {
        const SparseMatrix& s = t.X.sparse_ref();
        for (Index k = 0; k < s.nonZeros(); ++k) check_value(s.valuePtr()[k]);
    } else {
        const DenseView d = t.X.dense_ref();
        for (Index k = 0; k < d.size(); ++k) check_value(d.data()[k]);
    }
}

// Trains a small tree on what was read, as kestrel-train would, then saves, reloads
// and predicts with it.
void train_on(Table t, bool impute) {
    if (!t.labels || t.X.rows() == 0 || t.X.rows() * t.X.cols() > kMaxTrainCells) return;
    ModelSpec spec;
    spec.model = "tree";
    spec.params = Params{{"max_depth", "4"}};
    if (impute) spec.preprocessing.push_back("impute_mean");
    const Task task = choose_task(spec, *t.labels);
    const Dataset data = make_dataset(std::move(t), task);
    Context ctx;
    ctx.threads = 1;
    exercise_model(Model::train(spec, data, ctx));
}

void read_data(std::string_view input, FileFormat format) {
    // kestrel-train's defaults, then the other ways users read data.
    std::vector<ReadOptions> variants(5);
    for (auto& o : variants) {
        o.format = format;
        o.threads = 1;
    }
    variants[1].header = false;
    variants[1].missing = MissingPolicy::keep;
    variants[2].missing = MissingPolicy::drop;
    variants[2].label_col = "1";
    // kestrel-predict's view: a model's width, labels optional.
    variants[3].expected_features = 3;
    variants[3].labels_optional = true;
    variants[3].header = false;
    // The typed reader's overrides: a column forced categorical, one forced numeric, one
    // dropped (by index, so they name a column whatever the header says).
    variants[4].categorical_columns = {"2"};
    variants[4].numeric_columns = {"3"};
    variants[4].ignore_columns = {"4"};
    for (std::size_t v = 0; v < variants.size(); ++v) {
        guarded([&] {
            const ReadOptions& o = variants[v];
            Table t = read_table_from_buffer(input, "<fuzz>", o);
            check_table(t, o);
            if (v < 3 || v == 4) train_on(std::move(t), o.missing == MissingPolicy::keep);
        });
    }
    if (format == FileFormat::csv) {
        guarded([&] {
            ReadOptions o;
            o.format = format;
            o.threads = 1;
            o.feature_columns = std::vector<std::string>{"x2", "x1"};
            o.expected_features = 2;
            o.labels_optional = true;
            check_table(read_table_from_buffer(input, "<fuzz>", o), o);
        });
    }
}

// Hands `f` the path of an in-memory file holding `input` (/proc/self/fd/N), so that the
// code under test opens a path as the executables do, with no disk traffic.
template <class F>
auto through_file(std::string_view input, F&& f) {
    const int fd = memfd_create("kestrel-fuzz", MFD_CLOEXEC);
    if (fd < 0) throw std::runtime_error("memfd_create failed");
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    for (std::size_t done = 0; done < input.size();) {
        const ssize_t n = ::write(fd, input.data() + done, input.size() - done);
        if (n <= 0) throw std::runtime_error("write to memfd failed");
        done += static_cast<std::size_t>(n);
    }
    return f("/proc/self/fd/" + std::to_string(fd));
}

// Model::load reads a path: the code under test is exactly what kestrel-predict runs
// (empty check, LIBSVM sniffing, JSON errors).
Model load_through_file(std::string_view input) {
    return through_file(input, [](const std::string& path) { return Model::load(path); });
}

// A tiny dataset for a model's task: 3 classes (so the multiclass wrappers run) or a
// linear target.
Dataset tiny_dataset(Task task) {
    Dataset d;
    d.task = task;
    DenseMatrix X(9, 2);
    Vector y(9);
    for (Index i = 0; i < 9; ++i) {
        X(i, 0) = static_cast<double>(i % 3) + 0.1 * static_cast<double>(i);
        X(i, 1) = static_cast<double>((i * 7) % 5) - 2.0;
        y[i] = task == Task::classification ? static_cast<double>(i % 3) : 0.5 * X(i, 0) - X(i, 1);
    }
    d.X = Features(X);
    d.y = y;
    if (task == Task::classification) d.classes = {"a", "b", "c"};
    return d;
}

// Whether training with these resolved parameters stays within the harness budget:
// a user may ask for a million trees, the fuzzer should not wait for them. Integer
// parameters changed from their defaults must stay small, nested models included.
constexpr int kFuzzMaxIter = 20000;  // see params(): iteration caps under the harness

bool cheap(const Params& resolved, const ParamSpec& spec, int depth) {
    if (depth > kMaxNesting) return false;
    for (const auto& def : spec.defs()) {
        if (!resolved.contains(def.name)) continue;
        const Json& v = resolved.at(def.name);
        if (def.type == ParamType::integer && v.is_number() && v != def.default_value &&
            std::fabs(v.get<double>()) > static_cast<double>(kMaxGivenInteger))
            return false;
        if (def.type == ParamType::model) {
            const std::string name = v.at("model").get<std::string>();
            const Params given = v.contains("params") ? v.at("params") : Params::object();
            const ParamSpec& inner = registry().spec(name);
            if (!cheap(inner.resolve(given, name), inner, depth + 1)) return false;
        }
    }
    return true;
}

// Resolves nested models (base=tree(max_depth=3)) and kernel specs as fit would.
void check_nested(const Params& resolved, const ParamSpec& spec, int depth) {
    if (depth > kMaxNesting) return;
    for (const auto& def : spec.defs()) {
        if (!resolved.contains(def.name)) continue;
        const Json& v = resolved.at(def.name);
        if (def.type == ParamType::model) {
            const std::string name = v.at("model").get<std::string>();
            const Params given = v.contains("params") ? v.at("params") : Params::object();
            const ParamSpec& inner = registry().spec(name);
            (void)registry().create(name, given);
            check_nested(inner.resolve(given, name), inner, depth + 1);
        } else if (def.type == ParamType::text && def.name == "kernel") {
            (void)KernelSpec::parse(v.get<std::string>());
        }
    }
}

}  // namespace

void csv_reader(std::string_view input) { read_data(input, FileFormat::csv); }

void libsvm_reader(std::string_view input) { read_data(input, FileFormat::libsvm); }

void model_json(std::string_view input) {
    guarded([&] { exercise_model(load_through_file(input)); });
}

void libsvm_model(std::string_view input) {
    (void)looks_like_libsvm_model(input);
    guarded([&] { exercise_model(Model::from_json(libsvm_model_to_json(input, "<fuzz>"), "<fuzz>")); });
}

void kernel_spec(std::string_view input) {
    guarded([&] {
        const KernelSpec k = KernelSpec::parse(std::string(input));
        const std::string canonical = k.to_string();
        KernelSpec again, from_json;
        try {
            again = KernelSpec::parse(canonical);
            from_json = KernelSpec::from_json(k.to_json());
        } catch (const Error& e) {
            throw FuzzFinding("canonical kernel '" + canonical + "' does not parse back: " + e.what());
        }
        if (!(again == k)) throw FuzzFinding("parse(to_string(k)) != k for '" + canonical + "'");
        if (!(from_json == k)) throw FuzzFinding("from_json(to_json(k)) != k for '" + canonical + "'");
        // Resolve and evaluate on a few rows, as an SVM's fit does.
        const DenseMatrix X = probe_rows(3);
        bool precomputed = false;
        for (const auto& t : k.terms)
            for (const auto& f : t.factors) precomputed |= f.kind == KernelKind::precomputed;
        if (precomputed) return;
        const KernelSpec r = resolve_kernel(k, KernelDefaults{}, Features(X), 7);
        if (!r.resolved()) throw FuzzFinding("resolve_kernel left '" + r.to_string() + "' unresolved");
        const Kernel kernel(r);
        const KernelRows rows{Features(X)};
        (void)kernel.block(rows, rows, 1);
    });
}

void grid(std::string_view input) {
    guarded([&] {
        const auto lines = split_lines(input);
        if (lines.empty()) return;
        const std::string model = trim(lines[0]);
        const ParamSpec& spec = registry().spec(model);
        std::vector<GridAxis> axes;
        for (std::size_t i = 1; i < lines.size(); ++i)
            if (!trim(lines[i]).empty()) axes.push_back(parse_grid_axis(lines[i]));
        const auto points = expand_grid(axes);
        // Each point checked as kestrel-gridsearch checks it before any fit.
        for (std::size_t p = 0; p < points.size() && p < kMaxGridPoints; ++p) {
            Params given = Params::object();
            for (const auto& [name, value] : points[p]) {
                if (spec.find(name)) (void)spec.parse_value(name, value);
                given[name] = value;
            }
            (void)registry().create(model, given);
        }
    });
}

void params(std::string_view input) {
    guarded([&] {
        const auto lines = split_lines(input);
        if (lines.empty()) return;
        ModelSpec s;
        s.model = trim(lines[0]);
        const ModelInfo& info = registry().info(s.model);
        // As kestrel-train's -p flags (apps/common/cli.cpp, ModelFlags::spec).
        for (std::size_t i = 1; i < lines.size(); ++i) {
            if (lines[i].empty()) continue;
            auto [name, value] = split_assignment(lines[i]);
            if (s.params.contains(name)) throw UsageError("parameter " + name + " given twice");
            s.params[name] = value;
        }
        const Params resolved = info.spec.resolve(s.params, s.model);
        for (auto& [name, value] : s.params.items())
            if (info.spec.find(name)) (void)info.spec.parse_value(name, value.get<std::string>());
        (void)registry().create(s.model, s.params);
        check_nested(resolved, info.spec, 0);
        if (!cheap(resolved, info.spec, 0)) return;
        // On a pathological kernel (poly degree 38 on the 9-row problem) SMO runs to LIBSVM's
        // 10^7-iteration cap: correct, under a second in Release, but past libFuzzer's timeout
        // under ASan. The harness lowers an unset (or 0 = default) iteration cap, so such
        // inputs exercise the cap's own path (warning, usable model) quickly.
        if (const ParamDef* cap = info.spec.find("max_iter"); cap && cap->type == ParamType::integer) {
            const bool unset = !s.params.contains("max_iter") ||
                               (s.params["max_iter"] == "0" && cap->default_value == 0);
            if (unset) s.params["max_iter"] = std::to_string(kFuzzMaxIter);
        }
        Context ctx;
        ctx.threads = 1;
        exercise_model(Model::train(s, tiny_dataset(info.tasks.front()), ctx));
    });
}

void compressed_input(std::string_view input) {
    through_file(input, [](const std::string& path) {
        // The head detection and the dialect look at, then the whole table, each through
        // the byte source that recognises and decompresses gzip, zstd, xz and bzip2.
        guarded([&] { (void)read_text_head(path, 4096); });
        guarded([&] {
            ReadOptions o;
            o.threads = 1;
            o.missing = MissingPolicy::keep;
            const Table t = read_table(path, o);
            check_table(t, o);
        });
        return 0;
    });
}

void table_cache(std::string_view input) {
    guarded([&] {
        const Table t = decode_table_cache(input, "<fuzz>");
        const Index rows = t.X.rows();
        if (t.labels && static_cast<Index>(t.labels->text.size()) != rows)
            throw FuzzFinding("cache: label count differs from the row count");
        for (const auto& column : t.kept)
            if (static_cast<Index>(column.size()) != rows) throw FuzzFinding("cache: a kept column of another length");
        if (rows * t.X.cols() <= kMaxTrainCells) (void)t.X.to_dense();
        // What was accepted is written back to the same bytes, whatever its key.
        const std::string once = encode_table_cache(TableCacheKey{}, t);
        if (encode_table_cache(TableCacheKey{}, decode_table_cache(once, "<fuzz>")) != once)
            throw FuzzFinding("cache: encode(decode(encode(t))) differs from encode(t)");
    });
}

const std::vector<Target>& targets() {
    static const std::vector<Target> all = {
        {"csv_reader", csv_reader}, {"libsvm_reader", libsvm_reader}, {"model_json", model_json},
        {"libsvm_model", libsvm_model}, {"grid", grid}, {"kernel_spec", kernel_spec}, {"params", params},
        {"compressed_input", compressed_input}, {"table_cache", table_cache},
    };
    return all;
}

}  // namespace kestrel::fuzz
