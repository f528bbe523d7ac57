#include "common/plot_flags.hpp"

#include <algorithm>
#include <cctype>

#include "kestrel/core/error.hpp"

namespace kestrel::cli {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string kind_list(const std::vector<PlotKind>& kinds) {
    std::string out;
    for (const auto& k : kinds) out += (out.empty() ? "" : ", ") + k.name;
    return out;
}

bool stem_names(const std::string& stem, const std::string& word) {
    if (stem.rfind(word, 0) != 0) return false;
    return stem.size() == word.size() || stem[word.size()] == '-' || stem[word.size()] == '_' || stem[word.size()] == '.';
}

}  // namespace

const std::vector<PlotKind>& prediction_plot_kinds() {
    static const std::vector<PlotKind> kinds = {{"roc", {}}, {"pr", {"precision-recall", "precision_recall"}},
                                                {"confusion", {}}, {"calibration", {"reliability"}}};
    return kinds;
}

const std::vector<PlotKind>& cv_plot_kinds() {
    static const std::vector<PlotKind> kinds = [] {
        auto k = prediction_plot_kinds();
        k.push_back({"learning", {"curve", "learning-curve", "learning_curve"}});
        return k;
    }();
    return kinds;
}

std::vector<PlotTarget> parse_plot_targets(const std::vector<std::string>& texts, const std::vector<PlotKind>& kinds) {
    std::vector<PlotTarget> out;
    for (const auto& text : texts) {
        const auto eq = text.find('=');
        if (eq != std::string::npos) {
            const std::string word = lower(text.substr(0, eq));
            const auto k = std::find_if(kinds.begin(), kinds.end(), [&](const PlotKind& pk) { return pk.name == word; });
            if (k != kinds.end()) {
                if (eq + 1 == text.size()) throw UsageError("--plot " + text + ": no file after '='");
                out.push_back({k->name, text.substr(eq + 1)});
                continue;
            }
            if (word.find_first_of("/\\.") == std::string::npos)
                throw UsageError("--plot " + text + ": unknown plot kind '" + word + "' (valid: " + kind_list(kinds) + ")");
        }
        if (kinds.size() == 1) {  // one kind: any file name will do
            out.push_back({kinds[0].name, text});
            continue;
        }
        const auto slash = text.find_last_of("/\\");
        std::string stem = lower(slash == std::string::npos ? text : text.substr(slash + 1));
        const auto dot = stem.rfind(".svg");
        if (dot != std::string::npos && dot + 4 == stem.size()) stem.resize(dot);
        const PlotKind* found = nullptr;
        for (const auto& k : kinds) {
            bool match = stem_names(stem, k.name);
            for (const auto& alias : k.stem_aliases) match = match || stem_names(stem, alias);
            if (match && !found) found = &k;
        }
        if (!found)
            throw UsageError("--plot " + text + ": the file name does not say which plot; write KIND=FILE with KIND one of " +
                             kind_list(kinds) + " (e.g. --plot " + kinds[0].name + "=" + text + ")");
        out.push_back({found->name, text});
    }
    return out;
}

void PlotFlags::add_to(CLI::App& app, const std::vector<PlotKind>& kinds, bool with_curves) {
    if (with_curves)
        app.add_option("--curves", curves, "write the ROC and precision-recall curve points as CSV")
            ->type_name("FILE");
    std::string help = "write an SVG plot: KIND=FILE, or FILE whose name starts with the kind (" + kind_list(kinds) +
                       "); repeatable";
    if (kinds.size() == 1) help = "write an SVG plot (" + kinds[0].name + ") to FILE";
    app.add_option("--plot", plots, help)->type_name("[KIND=]FILE")->allow_extra_args(false);
}

}  // namespace kestrel::cli
