#include "common/importance_output.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "kestrel/tasks/importance_report.hpp"

namespace kestrel::cli {

std::string fixed_digits(double x, int digits) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(digits) << x;
    return os.str();
}

std::string importance_table(const PermutationImportance& p, const std::vector<std::string>& names) {
    std::size_t w = 7;
    for (const auto& n : names) w = std::max(w, n.size());
    std::ostringstream os;
    os << std::left << std::setw(static_cast<int>(w) + 2) << "feature" << std::right << std::setw(10) << "mean"
       << std::setw(10) << "std"
       << "\n";
    for (Index c : importance_order(p))
        os << std::left << std::setw(static_cast<int>(w) + 2) << names[static_cast<std::size_t>(c)] << std::right
           << std::setw(10) << fixed_digits(p.mean[c]) << std::setw(10) << fixed_digits(p.std[c]) << "\n";
    return os.str();
}

}  // namespace kestrel::cli
