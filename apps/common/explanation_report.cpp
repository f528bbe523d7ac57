#include "common/explanation_report.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "common/importance_output.hpp"

namespace kestrel::cli {
namespace {

int width_of(const std::vector<std::string>& texts, std::size_t least) {
    std::size_t w = least;
    for (const auto& t : texts) w = std::max(w, t.size());
    return static_cast<int>(w) + 2;
}

}  // namespace

std::string shap_summary_table(const ShapSummary& s) {
    const int w = width_of(s.features, 7);
    std::ostringstream os;
    os << std::left << std::setw(w) << "feature" << std::right;
    const bool several = s.outputs.size() > 1;
    std::vector<int> cw;
    for (const auto& o : s.outputs) cw.push_back(std::max(10, static_cast<int>(o.size()) + 2));
    if (several)
        for (std::size_t o = 0; o < s.outputs.size(); ++o) os << std::setw(cw[o]) << s.outputs[o];
    os << std::setw(12) << "mean|phi|"
       << "\n";
    for (Index f : s.order) {
        os << std::left << std::setw(w) << s.features[static_cast<std::size_t>(f)] << std::right;
        if (several)
            for (std::size_t o = 0; o < s.outputs.size(); ++o)
                os << std::setw(cw[o]) << fixed_digits(s.mean_abs(f, static_cast<Index>(o)));
        os << std::setw(12) << fixed_digits(s.total[f]) << "\n";
    }
    return os.str();
}

std::string partial_dependence_table(const PartialDependence& p, const std::string& name, bool with_ice) {
    std::ostringstream os;
    const int w = width_of(p.labels, name.size());
    os << std::left << std::setw(w) << name << std::right;
    std::vector<int> cw;
    for (const auto& o : p.outputs) cw.push_back(std::max(10, static_cast<int>(o.size()) + 2));
    for (std::size_t o = 0; o < p.outputs.size(); ++o) os << std::setw(cw[o]) << p.outputs[o];
    os << "\n";
    for (Index g = 0; g < p.average.rows(); ++g) {
        os << std::left << std::setw(w) << p.labels[static_cast<std::size_t>(g)] << std::right;
        for (std::size_t o = 0; o < p.outputs.size(); ++o)
            os << std::setw(cw[o]) << fixed_digits(p.average(g, static_cast<Index>(o)));
        os << "\n";
    }
    if (!with_ice) return os.str();
    for (std::size_t o = 0; o < p.outputs.size(); ++o) {
        os << "\nICE of " << name << " (" << p.outputs[o] << "), one line per row along the grid above:\n";
        for (Index r = 0; r < p.ice[o].rows(); ++r) {
            os << "row " << p.ice_rows[static_cast<std::size_t>(r)] + 1;
            for (Index g = 0; g < p.ice[o].cols(); ++g) os << " " << fixed_digits(p.ice[o](r, g));
            os << "\n";
        }
    }
    return os.str();
}

}  // namespace kestrel::cli
