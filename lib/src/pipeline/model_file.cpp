// The model file: the Model as JSON (to_json, save) and back (from_json, load), every
// field of a file read as hostile input.
#include "kestrel/pipeline/model.hpp"

#include <cmath>
#include <optional>
#include <string_view>
#include <unordered_set>

#include "kestrel/core/error.hpp"
#include "kestrel/core/json_packed.hpp"
#include "kestrel/core/json_read.hpp"
#include "kestrel/core/json_text.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/pipeline/model_text.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/preprocess/transformer.hpp"
#include "kestrel/boosting/xgboost_model.hpp"
#include "kestrel/svm/libsvm_model.hpp"
#include "ensemble_estimator.hpp"

namespace kestrel {

Json Model::to_json() const {
    return to_json(nullptr);
}
Json Model::to_json(JsonTextSlots& slots) const {
    return to_json(&slots);
}

Json Model::to_json(JsonTextSlots* slots) const {
    Json j;
    j["format"] = kModelFormat;
    j["version"] = stacker_takes_features()           ? 8
                   : stacker() != nullptr             ? 7
                   : label_column_.known()            ? 6
                   : ensemble_members()               ? 5
                   : calibration_ || feature_mean_    ? 4
                   : !categories_.empty()             ? 3
                   : threshold_                       ? 2
                                                      : 1;
    j["kestrel_version"] = kestrel_version();
    j["model"] = spec_.model;
    j["task"] = to_string(task_);
    j["params"] = estimator_->params();
    j["features"] = {{"count", n_features_}, {"names", feature_names_}};
    if (!categories_.empty()) j["features"]["categories"] = categories_;
    j["classes"] = classes_;
    j["preprocessing"] = Json::array();
    for (const auto& s : steps_) j["preprocessing"].push_back(s->to_json());
    if (has_non_finite(j["preprocessing"]))
        throw DataError("model " + spec_.model + ": a preprocessing step has NaN or infinite values; not saving it");
    j["state"] = slots ? estimator_->save_state(*slots) : estimator_->save_state();
    if (calibration_) {
        j["calibration"] = calibration_->to_json();
        j["calibration"]["folds"] = spec_.calibrate_folds;
    }
    if (feature_mean_) j["feature_mean"] = std::vector<double>(feature_mean_->data(), feature_mean_->data() + feature_mean_->size());
    if (threshold_)
        j["threshold"] = {
            {"value", threshold_->value}, {"score", threshold_->score}, {"criterion", threshold_->criterion}};
    if (label_column_.known()) {
        Json& label = j["label"];
        if (!label_column_.name.empty()) label["name"] = label_column_.name;
        else label["index"] = label_column_.index;
        label["ignored"] = label_column_.ignored;
    }
    j["provenance"] = provenance_;
    return j;
}

namespace {

// The model file's "label" (version 6): {"name": ..., "ignored": [...]} or {"index": ...,
// "ignored": [...]}.
LabelColumn read_label_column(const Json& j, const std::string& source) {
    const auto fail = [&](const std::string& why) { return ModelFileError(source, "invalid label: " + why); };
    if (!j.is_object()) throw fail("expected an object");
    LabelColumn c;
    const bool named = j.contains("name"), indexed = j.contains("index");
    if (named == indexed) throw fail("expected a column name or an index (one of them)");
    if (named) {
        if (!j["name"].is_string() || j["name"].get<std::string>().empty()) throw fail("name must be a non-empty string");
        c.name = j["name"].get<std::string>();
    } else {
        if (!j["index"].is_number_integer()) throw fail("index must be an integer");
        c.index = json_integer<Index>(j["index"]);
        if (c.index < 0) throw fail("index must not be negative");
    }
    if (j.contains("ignored")) {
        if (!j["ignored"].is_array()) throw fail("ignored must be an array of column names");
        for (const auto& name : j["ignored"]) {
            if (!name.is_string()) throw fail("ignored must be an array of column names");
            c.ignored.push_back(name.get<std::string>());
        }
    }
    return c;
}

}  // namespace

namespace {

// The first name listed twice (a model file's classes or feature names), if any.
std::optional<std::string> first_repeated(const std::vector<std::string>& names) {
    std::unordered_set<std::string_view> seen;
    for (const auto& n : names)
        if (!seen.insert(n).second) return n;
    return std::nullopt;
}

}  // namespace

Model Model::from_json(const Json& j, const std::string& source) {
    auto fail = [&](const std::string& why) { return ModelFileError(source, why); };
    if (!j.is_object()) throw fail("not a kestrel model (expected a JSON object)");
    if (!j.contains("format") || j["format"] != kModelFormat)
        throw fail("not a kestrel model (format is not \"" + std::string(kModelFormat) + "\")");
    if (!j.contains("version") || !j["version"].is_number_integer()) throw fail("model file has no format version");
    // Any integer, however large (a fuzzed 21474836481 once escaped as a bare range
    // error): compared as 64-bit, named as written.
    const Json& v = j["version"];
    const bool huge =
        v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(kModelFormatVersion);
    const std::int64_t version = huge ? std::int64_t{kModelFormatVersion} + 1 : v.get<std::int64_t>();
    if (version > kModelFormatVersion)
        throw fail("model file format version " + v.dump() + " is newer than this kestrel " + kestrel_version() +
                   " reads (" + std::to_string(kModelFormatVersion) + "); upgrade kestrel");
    if (version < 1) throw fail("invalid model file format version " + v.dump());
    Model m;
    try {
        m.spec_.model = j.at("model").get<std::string>();
        const bool ensemble = m.spec_.model == kEnsembleModel;
        if (!ensemble && !registry().contains(m.spec_.model))
            throw fail("unknown model '" + m.spec_.model + "' (this kestrel knows: " + [] {
                std::string s;
                for (const auto& n : registry().names()) s += (s.empty() ? "" : ", ") + n;
                return s;
            }() + ")");
        m.task_ = task_from_string(j.at("task").get<std::string>());
        m.n_features_ = json_integer<Index>(j.at("features").at("count"));
        m.feature_names_ = j.at("features").at("names").get<std::vector<std::string>>();
        m.classes_ = j.at("classes").get<std::vector<std::string>>();
        if (m.n_features_ < 1) throw fail("feature count must be positive");
        if (!m.feature_names_.empty() && static_cast<Index>(m.feature_names_.size()) != m.n_features_)
            throw fail("feature names and feature count disagree");
        if (j.at("features").contains("categories")) {
            m.categories_ = j["features"]["categories"].get<CategoryLists>();
            if (static_cast<Index>(m.categories_.size()) != m.n_features_)
                throw fail("feature categories and feature count disagree");
            for (const auto& list : m.categories_)
                for (std::size_t c = 1; c < list.size(); ++c)
                    if (!(list[c - 1] < list[c])) throw fail("feature categories must be sorted and distinct");
        }
        if (m.task_ == Task::classification && m.classes_.size() < 2)
            throw fail("a classifier needs two classes or more");
        if (const auto dup = first_repeated(m.classes_)) throw fail("classes: class \"" + *dup + "\" is listed twice");
        if (const auto dup = first_repeated(m.feature_names_))
            throw fail("features.names: feature \"" + *dup + "\" is listed twice");
        m.spec_.params = j.at("params");
        std::shared_ptr<Estimator> est;
        if (ensemble) {
            if (!m.spec_.params.is_object() || !m.spec_.params.empty())
                throw fail("invalid parameters: an ensemble has none (its members have theirs)");
            est = std::make_shared<detail::EnsembleEstimator>();
        } else {
            try {
                resolve_params(m.spec_);
                est = registry().create(*m.spec_.resolved);
            } catch (const Error& e) {
                throw fail(std::string("invalid parameters: ") + e.what());
            }
        }
        if (ensemble && !j.at("preprocessing").empty())
            throw fail("an ensemble has no preprocessing of its own (its members do)");
        for (const auto& s : j.at("preprocessing")) {
            m.steps_.push_back(transformer_from_json(s));
            m.spec_.preprocessing.push_back(s.at("type").get<std::string>());
        }
        // A fitted step must accept the model's width: try it on one zero row. Without
        // steps there is nothing to try, and no dense row to allocate: a sparse model
        // may declare 2^31 features.
        // The categories declared per column follow the columns through the steps (as
        // fit_steps gave them to the estimator): the state's category counts are checked
        // against them before anything is sized by them.
        // Nothing here is sized by the declared width alone (a sparse model may declare
        // 2^31 features): `declared` is empty when no column declares categories, the
        // first step's own width is compared before the probe row is made, and a probe
        // wider than 2^24 features is a sparse row.
        Index width = m.n_features_;
        std::vector<Index> declared;
        for (const auto& list : m.categories_) declared.push_back(static_cast<Index>(list.size()));
        if (!m.steps_.empty()) {
            const Json& first = j.at("preprocessing").front();
            Index expects = -1;
            if (first.contains("in_features")) {
                expects = json_integer<Index>(first.at("in_features"));
            } else {
                for (const char* key : {"fill", "mean", "shift"})
                    if (first.contains(key) && first.at(key).is_array()) {
                        expects = static_cast<Index>(first.at(key).size());
                        break;
                    }
            }
            if (expects >= 0 && expects != m.n_features_)
                throw fail("preprocessing step " + m.steps_.front()->kind() + " expects " + std::to_string(expects) +
                           " features, the model declares " + std::to_string(m.n_features_));
            constexpr Index kDenseProbeFeatures = Index{1} << 24;
            Features probe = m.n_features_ <= kDenseProbeFeatures
                                 ? Features(DenseMatrix(DenseMatrix::Zero(1, m.n_features_)))
                                 : Features(SparseMatrix(1, m.n_features_));
            for (const auto& s : m.steps_) {
                probe = s->transform(probe);
                if (!declared.empty()) declared = s->output_roles(declared, probe.cols());
            }
            width = probe.cols();
            for (Index& r : declared) r = std::max<Index>(r, 0);
        }
        // The state's class count sizes its loaders' tables (a tree's value rows, a
        // forest's leaves): compared with the classes listed before it is read.
        if (const Json& st = j.at("state"); m.task_ == Task::classification && st.is_object() &&
                                            st.contains("n_classes") &&
                                            json_integer<Index>(st.at("n_classes")) != static_cast<Index>(m.classes_.size()))
            throw fail("state class count disagrees with the model's classes");
        est->load_state(j.at("state"), ensemble ? nullptr : &declared);
        if (ensemble) static_cast<const detail::EnsembleEstimator&>(*est).check_members(m.classes_, m.feature_names_);
        if (est->n_features() != width) throw fail("state feature count disagrees with the model's features");
        if (est->task() != m.task_) throw fail("state task disagrees with the model's task");
        if (m.task_ == Task::classification && est->n_classes() != static_cast<Index>(m.classes_.size()))
            throw fail("state class count disagrees with the model's classes");
        m.estimator_ = std::move(est);
        if (j.contains("calibration")) m.load_calibration(j["calibration"], source);
        if (j.contains("feature_mean")) {
            const auto mean = j["feature_mean"].get<std::vector<double>>();
            if (static_cast<Index>(mean.size()) != width) throw fail("feature_mean disagrees with the model's width");
            for (double x : mean)
                if (!std::isfinite(x)) throw fail("feature_mean holds a non-finite number");
            m.feature_mean_ = Eigen::Map<const Vector>(mean.data(), width);
        }
        if (j.contains("threshold")) {
            const Json& t = j["threshold"];
            DecisionThreshold th{t.at("value").get<double>(), t.at("score").get<std::string>(),
                                 t.value("criterion", std::string())};
            if (th.score != m.threshold_score())
                throw fail("threshold applies to '" + th.score + "' but the model's score is '" + m.threshold_score() +
                           "'");
            try {
                m.set_threshold(th);
            } catch (const Error& e) {
                throw fail(std::string("invalid threshold: ") + e.what());
            }
        }
        if (j.contains("label")) m.label_column_ = read_label_column(j["label"], source);
        m.provenance_ = j.value("provenance", Json::object());
        m.from_file_ = true;
    } catch (const ModelFileError&) {
        throw;
    } catch (const std::exception& e) {
        throw fail(std::string("invalid model file: ") + e.what());
    }
    return m;
}

void Model::save(const std::string& path) const {
    JsonTextSlots slots;
    const Json j = to_json(slots);
    // Written as it is produced (a forest's text is never whole in memory), and synced
    // to disk before the rename: a model file is a training run.
    write_file_atomically_in_pieces(
        path,
        [&](const TextSink& sink) {
            slots.set_sink(sink);
            sink(model_json_text(j, &slots));
        },
        Durability::synced);
}

Model Model::load(const std::string& path) { return model_from_file_text(read_whole_file(path), path); }

std::string model_file_text(const Model& model) {
    JsonTextSlots slots;  // no sink: the writers' text stays in the one string
    const Json j = model.to_json(slots);
    return model_json_text(j, &slots);
}

Model model_from_file_text(std::string text, const std::string& path) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw ModelFileError(path, "model file is empty");
    // A model file from LIBSVM's svm-train (users bring their existing models).
    if (looks_like_libsvm_model(text)) return Model::from_json(libsvm_model_to_json(text, path), path);
    // XGBoost's Booster.save_model, JSON or UBJSON (recognised by content, not by name).
    if (looks_like_xgboost_model(text)) return Model::from_json(xgboost_model_to_json(text, path), path);
    // Tree nodes packed, without nlohmann's DOM of them; anything unusual (an error
    // included) is read again by Json::parse, whose DOM and messages are the reference.
    if (std::optional<Json> packed = parse_model_json(text)) {
        std::string().swap(text);
        return Model::from_json(*packed, path);
    }
    Json j;
    try {
        j = Json::parse(text);
    } catch (const Json::parse_error& e) {
        throw ModelFileError(path,
                             "model file is truncated or not valid JSON (at byte " + std::to_string(e.byte) + ")");
    } catch (const Json::exception& e) {
        // A number past double's range (1e400) is out_of_range, not a parse_error.
        throw ModelFileError(path, std::string("model file is not valid JSON: ") + e.what());
    }
    return Model::from_json(j, path);
}

}  // namespace kestrel
