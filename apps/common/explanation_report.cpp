#include "common/explanation_report.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "common/importance_output.hpp"

namespace kestrel::cli {
namespace {

std::vector<double> row_values(const Matrix& m, Index r) {
    std::vector<double> v(static_cast<std::size_t>(m.cols()));
    for (Index c = 0; c < m.cols(); ++c) v[static_cast<std::size_t>(c)] = m(r, c);
    return v;
}

std::vector<double> col_values(const Matrix& m, Index c) {
    std::vector<double> v(static_cast<std::size_t>(m.rows()));
    for (Index r = 0; r < m.rows(); ++r) v[static_cast<std::size_t>(r)] = m(r, c);
    return v;
}

int width_of(const std::vector<std::string>& texts, std::size_t least) {
    std::size_t w = least;
    for (const auto& t : texts) w = std::max(w, t.size());
    return static_cast<int>(w) + 2;
}

}  // namespace

Json shap_summary_json(const ShapSummary& s) {
    Json j = {{"outputs", s.outputs}, {"features", Json::array()}};
    for (Index f : s.order) {
        Json per = Json::object();
        for (std::size_t o = 0; o < s.outputs.size(); ++o) per[s.outputs[o]] = s.mean_abs(f, static_cast<Index>(o));
        j["features"].push_back(
            {{"feature", s.features[static_cast<std::size_t>(f)]}, {"mean_abs", per}, {"total", s.total[f]}});
    }
    return j;
}

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

Json partial_dependence_json(const PartialDependence& p, const std::string& name, bool categorical, bool with_ice) {
    Json j = {{"feature", name},    {"kind", categorical ? "categorical" : "numeric"},
              {"response", p.response}, {"grid", p.grid},
              {"labels", p.labels}, {"outputs", p.outputs}};
    Json avg = Json::object();
    for (std::size_t o = 0; o < p.outputs.size(); ++o) avg[p.outputs[o]] = col_values(p.average, static_cast<Index>(o));
    j["average"] = avg;
    if (with_ice) {
        Json ice = Json::object();
        Json rows = Json::array();
        for (Index r : p.ice_rows) rows.push_back(r + 1);
        ice["rows"] = rows;
        for (std::size_t o = 0; o < p.outputs.size(); ++o) {
            Json curves = Json::array();
            for (Index r = 0; r < p.ice[o].rows(); ++r) curves.push_back(row_values(p.ice[o], r));
            ice[p.outputs[o]] = curves;
        }
        j["ice"] = ice;
    }
    return j;
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
