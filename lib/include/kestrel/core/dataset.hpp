#pragma once
// A dataset: features (dense or sparse, rows = samples), targets, optional sample
// weights, feature names and, for classification, the class labels as the
// original strings of the input file.
#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace kestrel {

using Index = Eigen::Index;
using DenseMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;
using Vector = Eigen::VectorXd;

// Read-only rows of a dense matrix without a copy: the library's own DenseMatrix, or rows in
// a caller's memory (Features::borrowed). Eigen's Ref<const> would silently copy anything of
// another layout into a hidden temporary; this one is made only from row-major double storage
// (so it never copies), and binding it to a `const DenseMatrix&` does not compile, because
// that would be a hidden copy: a function that only reads takes a DenseView, and one that
// needs its own matrix says so (`DenseMatrix m(view)`).
class DenseView : public Eigen::Ref<const DenseMatrix> {
public:
    using Base = Eigen::Ref<const DenseMatrix>;
    DenseView(const DenseMatrix& m) : Base(m) {}                   // NOLINT(google-explicit-constructor)
    DenseView(const Eigen::Map<const DenseMatrix>& m) : Base(m) {}  // NOLINT(google-explicit-constructor)
    operator DenseMatrix() const = delete;  // NOLINT(google-explicit-constructor): implicit, so that it is chosen and refused
};

enum class Task { classification, regression };

// The categories of each feature column, in code order: an empty list for a numeric
// column. A categorical column's cells hold the index of their category (as a double),
// NaN for a missing cell and -1 for a category never seen in training (predict time).
// Categories are sorted byte-wise (scikit-learn's encoders sort them the same way).
// An empty CategoryLists means every column is numeric.
using CategoryLists = std::vector<std::vector<std::string>>;
inline constexpr double kUnknownCategory = -1;
const char* to_string(Task t);
Task task_from_string(const std::string& s);  // throws UsageError

// The feature matrix: one of a dense or a sparse row-major matrix, or dense rows borrowed
// from memory the library does not own (the C interface's row-major float64 arrays, read
// in place). Models that only handle dense data call dense() (a sparse matrix is densified
// on the fly, so they stay correct); models with a sparse path test is_sparse() first.
//
// Borrowed rows are read where they are and never written: dense_mut() copies them into an
// owned matrix first (copy on write), and a copy of borrowed Features owns its values, so
// what a model keeps (support vectors, knn's index) never points into the caller's memory.
// A move keeps the borrow (the rows pass from the C dataset through training without a
// copy); so does view(). Whoever borrows keeps the memory alive and unchanged meanwhile.
class Features {
public:
    Features() = default;
    Features(DenseMatrix m) : m_(std::move(m)) {}    // NOLINT(google-explicit-constructor)
    // Eigen 3.4's SparseMatrix copies on move; swapping keeps a sparse matrix in one
    // buffer as it passes from the reader to the dataset to the model.
    Features(SparseMatrix&& m) : m_(std::in_place_type<SparseMatrix>) {  // NOLINT(google-explicit-constructor)
        std::get<SparseMatrix>(m_).swap(m);
    }
    Features(const SparseMatrix& m) : m_(m) {}  // NOLINT(google-explicit-constructor)
    Features(const Features& other) : m_(owned_copy(other.m_)) {}
    Features& operator=(const Features& other) {
        if (this != &other) m_ = owned_copy(other.m_);
        return *this;
    }
    Features(Features&& other) noexcept { take(other); }
    Features& operator=(Features&& other) noexcept {
        if (this != &other) take(other);
        return *this;
    }
    // `rows` x `cols` doubles in row-major order at `values`, read in place: no copy. The
    // caller keeps them alive and unchanged while these Features, or what is moved from
    // them, live.
    static Features borrowed(const double* values, Index rows, Index cols);
    // These rows without a copy, valid while they live unchanged: dense rows borrowed (owned
    // or already borrowed), sparse rows copied.
    Features view() const;
    // Borrowed rows become a copy of their own (nothing happens to owned rows): for what
    // is kept beyond the borrow.
    void own() {
        if (is_borrowed()) dense_mut();
    }

    Index rows() const;
    Index cols() const;
    bool is_sparse() const { return std::holds_alternative<SparseMatrix>(m_); }
    bool is_borrowed() const { return std::holds_alternative<Borrowed>(m_); }
    DenseView dense_ref() const;                                                   // requires !is_sparse()
    const SparseMatrix& sparse_ref() const { return std::get<SparseMatrix>(m_); } // requires is_sparse()
    DenseMatrix& dense_mut();  // requires !is_sparse(); borrowed rows are copied first
    SparseMatrix& sparse_mut() { return std::get<SparseMatrix>(m_); }
    DenseMatrix to_dense() const;   // a copy when sparse, a copy when dense too
    // Dense view without a copy when already dense; `scratch` holds the densified copy otherwise.
    DenseView dense(DenseMatrix& scratch) const;

    Features rows_subset(std::span<const Index> rows) const;
    // Keep columns [0, n) and add zero columns up to n (used to align sparse files
    // whose highest index is below the model's feature count).
    Features with_cols(Index n) const;

    // X * w for a weight vector of length cols().
    Vector multiply(const Vector& w) const;
    // X * W for a weight matrix cols() x k.
    Eigen::MatrixXd multiply(const Eigen::MatrixXd& w) const;
    // Xᵀ * v for a vector of length rows().
    Vector transpose_multiply(const Vector& v) const;

private:
    // Rows in memory the library does not own (row-major, contiguous).
    struct Borrowed {
        const double* values = nullptr;
        Index rows = 0, cols = 0;
        Eigen::Map<const DenseMatrix> map() const { return {values, rows, cols}; }
    };
    using Storage = std::variant<DenseMatrix, SparseMatrix, Borrowed>;
    static Storage owned_copy(const Storage& m);

    void take(Features& other) noexcept {
        if (other.is_sparse()) {
            m_.emplace<SparseMatrix>();
            std::get<SparseMatrix>(m_).swap(std::get<SparseMatrix>(other.m_));
        } else {
            m_ = std::move(other.m_);
        }
    }

    Storage m_;
};

// Where the label was in the data file the rows came from, so that a model trained on
// them finds it again in a predict-time file: its header name, or its 0-based field in a
// CSV file without a header, and the columns read as neither feature nor label (header
// names, or 0-based fields, as they were given). Unknown (empty) for a LIBSVM file and
// for rows built in code.
struct LabelColumn {
    std::string name;                  // header name; empty without a header
    Index index = -1;                  // CSV without a header: the label's field; else -1
    std::vector<std::string> ignored;  // columns left out of the table
    bool known() const { return !name.empty() || index >= 0; }
    bool operator==(const LabelColumn&) const = default;
};

struct Dataset {
    Features X;
    // Regression: the target. Classification: the class index 0..k-1 into `classes`.
    Vector y;
    Vector weights;                           // empty = every weight 1
    // Learning to rank: each row's query id (LIBSVM `qid:N`, or --group-col); the rows of
    // a query are contiguous. Empty = no query groups.
    Vector qid;
    std::vector<std::string> feature_names;   // empty for files without a header
    std::vector<std::string> classes;         // classification only; index = class id
    // Per feature column: 0 for a numeric column, else the k categories of a categorical
    // column, whose cells hold the codes 0..k-1 (as doubles; NaN = missing). Empty means
    // every column is numeric. Only models with Capabilities::native_categories are given
    // codes; the others get the columns one-hot encoded by the pipeline.
    std::vector<Index> category_counts;
    CategoryLists categories;                 // the names behind category_counts (same length)
    Task task = Task::regression;
    std::string source;                       // file the rows came from, for messages
    LabelColumn label_column;                 // the file's label column, for the model to record

    Index rows() const { return X.rows(); }
    Index cols() const { return X.cols(); }
    Index n_classes() const { return static_cast<Index>(classes.size()); }
    bool has_weights() const { return weights.size() > 0; }
    bool has_queries() const { return qid.size() > 0; }
    bool is_categorical(Index j) const {
        return !category_counts.empty() && category_counts[static_cast<std::size_t>(j)] > 0;
    }
    double weight(Index i) const { return weights.size() ? weights[i] : 1.0; }

    // The rows given, in the given order (folds, bootstrap samples).
    Dataset subset(std::span<const Index> rows) const;
    // The same rows (targets, weights, queries, classes, task, source, label column) over
    // other features: a preprocessed or column-selected X. The feature names and categories
    // describe the old columns, so they are left empty for the caller to give.
    Dataset with_features(Features features) const;
};

// The labels column exactly as read, before the task is known.
struct RawLabels {
    std::vector<std::string> text;   // as written in the file (quotes removed); see texts_are_numbers
    std::vector<double> numeric;     // parsed value, NaN when the text is not a number
    std::vector<std::uint64_t> line; // 1-based line of each row in its file, for messages
    std::vector<double> qid;         // LIBSVM `qid:N` of each row; empty when the file has none
    std::string source;              // the file
    // Every row's text is the shortest form that reads back as its number (std::to_chars:
    // "0", "1", "2.5", "-3e-07"), so the texts are not kept: `text` is empty and text_at()
    // writes them from `numeric`. The reads of a large file in pieces (tasks/table_scan) keep
    // labels this way, 16 bytes a row instead of 48.
    bool texts_are_numbers = false;
    bool all_numeric() const;
    bool all_integer() const;        // all numeric and integral
    std::size_t size() const { return numeric.size(); }
    std::string text_at(std::size_t i) const;
    void write_texts();  // fills `text` and clears texts_are_numbers
};

// The text to_chars gives `v` when reading it back gives `v` and it names no other label:
// empty for a value that is not finite or is -0 (whose text "-0" is a class apart from "0").
std::string number_label_text(double v);

// The query groups of rows whose query ids are `qid`: the start of each run of equal ids,
// then the row count (q + 1 offsets; {0} for no rows). Rows of a query are contiguous.
std::vector<Index> query_starts(const Vector& qid);

// DataError "file:line: ..." when a query id is not a finite number, or reappears after
// another query's rows (`line` the rows' file lines, as RawLabels::line; may be empty).
void check_query_ids(const Vector& qid, const std::vector<std::uint64_t>& line, const std::string& source);

// Builds the class list and class indices from raw labels. Classes are ordered
// numerically when every label is a number (so "2" < "10"), else lexicographically;
// the binary positive class is classes[1] (as scikit-learn's classes_[1]).
// A label text is kept verbatim: "1" and "1.0" are different classes.
void encode_classes(const RawLabels& labels, Dataset& out);

// Maps labels to the given class list; labels not in it are appended to `classes`
// (a test file may hold a class the model never saw: it can never be predicted
// but counts in metrics).
Vector encode_with_classes(const RawLabels& labels, std::vector<std::string>& classes);

// Regression targets; throws DataError naming the first non-numeric label.
Vector numeric_targets(const RawLabels& labels, const std::string& source);

}  // namespace kestrel
