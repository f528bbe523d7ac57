#include "kestrel/core/model.hpp"


#include "kestrel/core/error.hpp"
#include "kestrel/core/registry.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/io/libsvm_model.hpp"

namespace kestrel {

const char* kestrel_version() { return KESTREL_VERSION; }

Task choose_task(const ModelSpec& spec, const RawLabels& labels) {
    const ModelInfo& info = registry().info(spec.model);
    if (spec.task) {
        if (!info.supports(*spec.task))
            throw UsageError("model " + spec.model + " does not do " + to_string(*spec.task));
        return *spec.task;
    }
    if (info.tasks.size() == 1) return info.tasks.front();
    // Both tasks: numbers with a fractional part are a regression target; anything
    // else (words, integer codes) is a class label. --task overrides.
    return labels.all_numeric() && !labels.all_integer() ? Task::regression : Task::classification;
}

Dataset make_dataset(Table table, Task task) {
    if (!table.labels) throw DataError(table.source + ": no label column to train on");
    Dataset d;
    d.task = task;
    d.source = table.source;
    d.feature_names = std::move(table.feature_names);
    if (task == Task::classification) encode_classes(*table.labels, d);
    else d.y = numeric_targets(*table.labels, table.source);
    d.X = std::move(table.X);
    return d;
}

Model Model::train(const ModelSpec& spec, const Dataset& data, const Context& ctx) {
    Model m;
    m.spec_ = spec;
    m.task_ = data.task;
    m.classes_ = data.task == Task::classification ? data.classes : std::vector<std::string>{};
    m.feature_names_ = data.feature_names;
    m.n_features_ = data.cols();
    const ModelInfo& info = registry().info(spec.model);
    if (!info.supports(data.task))
        throw UsageError("model " + spec.model + " does not do " + to_string(data.task) +
                         (data.task == Task::classification ? " (the labels look like classes; --task regression forces a numeric target)"
                                                            : ""));
    std::shared_ptr<Estimator> est = registry().create(spec.model, spec.params);
    if (spec.preprocessing.empty()) {
        est->fit(data, ctx);
    } else {
        Dataset d;
        d.y = data.y;
        d.weights = data.weights;
        d.feature_names = data.feature_names;
        d.classes = data.classes;
        d.task = data.task;
        d.source = data.source;
        const Features* X = &data.X;
        Features current;
        for (const auto& kind : spec.preprocessing) {
            auto t = make_transformer(kind);
            t->fit(*X);
            current = t->transform(*X);
            X = &current;
            m.steps_.push_back(std::move(t));
        }
        d.X = std::move(current);
        est->fit(d, ctx);
    }
    m.estimator_ = std::move(est);
    m.provenance_["kestrel_version"] = kestrel_version();
    m.provenance_["rows"] = data.rows();
    if (!data.source.empty()) m.provenance_["data_file"] = data.source;
    return m;
}

Features Model::prepare(const Features& X) const {
    Features out = X;
    if (X.cols() != n_features_) {
        // A sparse file may simply not mention the highest features.
        if (X.is_sparse() && X.cols() < n_features_) out = X.with_cols(n_features_);
        else
            throw DataError("data has " + std::to_string(X.cols()) + " features but the model was trained on " +
                            std::to_string(n_features_));
    }
    for (const auto& s : steps_) out = s->transform(out);
    return out;
}

Vector Model::predict(const Features& X) const { return estimator_->predict(prepare(X)); }
Matrix Model::decision_function(const Features& X) const { return estimator_->decision_function(prepare(X)); }
Matrix Model::predict_proba(const Features& X) const { return estimator_->predict_proba(prepare(X)); }

ReadOptions Model::align_options(ReadOptions base) const {
    if (!feature_names_.empty() && base.header) base.feature_columns = feature_names_;
    base.expected_features = n_features_;
    base.labels_optional = true;
    bool imputes = false;
    for (const auto& s : steps_) imputes |= s->kind() == "impute_mean";
    if (imputes && base.missing == MissingPolicy::error) base.missing = MissingPolicy::keep;
    return base;
}

std::string Model::report(const std::string& name) const {
    std::vector<std::string> features = feature_names_;
    if (features.empty())
        for (Index j = 0; j < n_features_; ++j) features.push_back("x" + std::to_string(j + 1));  // LIBSVM's 1-based indices
    return estimator_->report(name, Estimator::ReportNames{features, classes_});
}

Json Model::to_json() const {
    Json j;
    j["format"] = kModelFormat;
    j["version"] = kModelFormatVersion;
    j["kestrel_version"] = kestrel_version();
    j["model"] = spec_.model;
    j["task"] = to_string(task_);
    j["params"] = estimator_->params();
    j["features"] = {{"count", n_features_}, {"names", feature_names_}};
    j["classes"] = classes_;
    j["preprocessing"] = Json::array();
    for (const auto& s : steps_) j["preprocessing"].push_back(s->to_json());
    j["state"] = estimator_->save_state();
    j["provenance"] = provenance_;
    return j;
}

Model Model::from_json(const Json& j, const std::string& source) {
    auto fail = [&](const std::string& why) { return ModelFileError(source, why); };
    if (!j.is_object()) throw fail("not a kestrel model (expected a JSON object)");
    if (!j.contains("format") || j["format"] != kModelFormat)
        throw fail("not a kestrel model (format is not \"" + std::string(kModelFormat) + "\")");
    if (!j.contains("version") || !j["version"].is_number_integer()) throw fail("model file has no format version");
    const int version = j["version"].get<int>();
    if (version > kModelFormatVersion)
        throw fail("model file format version " + std::to_string(version) + " is newer than this kestrel " +
                   kestrel_version() + " reads (" + std::to_string(kModelFormatVersion) + "); upgrade kestrel");
    if (version < 1) throw fail("invalid model file format version " + std::to_string(version));
    Model m;
    try {
        m.spec_.model = j.at("model").get<std::string>();
        if (!registry().contains(m.spec_.model))
            throw fail("unknown model '" + m.spec_.model + "' (this kestrel knows: " + [] {
                std::string s;
                for (const auto& n : registry().names()) s += (s.empty() ? "" : ", ") + n;
                return s;
            }() + ")");
        m.task_ = task_from_string(j.at("task").get<std::string>());
        m.n_features_ = j.at("features").at("count").get<Index>();
        m.feature_names_ = j.at("features").at("names").get<std::vector<std::string>>();
        m.classes_ = j.at("classes").get<std::vector<std::string>>();
        if (m.n_features_ < 1) throw fail("feature count must be positive");
        if (!m.feature_names_.empty() && static_cast<Index>(m.feature_names_.size()) != m.n_features_)
            throw fail("feature names and feature count disagree");
        if (m.task_ == Task::classification && m.classes_.size() < 2) throw fail("a classifier needs two classes or more");
        m.spec_.params = j.at("params");
        std::shared_ptr<Estimator> est;
        try {
            est = registry().create(m.spec_.model, m.spec_.params);
        } catch (const Error& e) {
            throw fail(std::string("invalid parameters: ") + e.what());
        }
        for (const auto& s : j.at("preprocessing")) {
            m.steps_.push_back(transformer_from_json(s));
            m.spec_.preprocessing.push_back(s.at("type").get<std::string>());
        }
        // A fitted step must accept the model's width: try it on one zero row.
        Features probe(DenseMatrix(DenseMatrix::Zero(1, m.n_features_)));
        for (const auto& s : m.steps_) probe = s->transform(probe);
        est->load_state(j.at("state"));
        if (est->n_features() != probe.cols()) throw fail("state feature count disagrees with the model's features");
        if (est->task() != m.task_) throw fail("state task disagrees with the model's task");
        if (m.task_ == Task::classification && est->n_classes() != static_cast<Index>(m.classes_.size()))
            throw fail("state class count disagrees with the model's classes");
        m.estimator_ = std::move(est);
        m.provenance_ = j.value("provenance", Json::object());
    } catch (const ModelFileError&) {
        throw;
    } catch (const std::exception& e) {
        throw fail(std::string("invalid model file: ") + e.what());
    }
    return m;
}

void Model::save(const std::string& path) const { write_file_atomically(path, to_json().dump(1) + "\n"); }

Model Model::load(const std::string& path) {
    const std::string text = read_whole_file(path);
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw ModelFileError(path, "model file is empty");
    // A model file from LIBSVM's svm-train (users bring their existing models).
    if (looks_like_libsvm_model(text)) return from_json(libsvm_model_to_json(text, path), path);
    Json j;
    try {
        j = Json::parse(text);
    } catch (const Json::parse_error& e) {
        throw ModelFileError(path, "model file is truncated or not valid JSON (at byte " + std::to_string(e.byte) + ")");
    }
    return from_json(j, path);
}

}  // namespace kestrel
