// The split scan of a categorical feature (docs/models/tree.md "Categorical features"):
// the node's categories, and its missing rows as one more, are put in order of a
// statistic, and every prefix of that order is scored as the left child. For squared
// error ordered by the mean target, and for two classes by the share of class 1, the
// best prefix is the best of all 2^(g-1) partitions (Fisher 1958; Breiman et al. 1984,
// 9.4). With more classes there is no such order: each class's share gives one order
// (one class against the rest), and the best prefix over them is kept.
#include <cmath>
#include <vector>

#include "category_scan.hpp"
#include "dense_columns.hpp"

namespace kestrel {

template <class Scan>
void DenseColumnStore::scan_categories(const ScanInputs& in, Index f, Index begin, Index end, Split& best) const {
    const int* o = order_.data() + f * m_ + begin;
    const double* v = values_.data() + f * m_ + begin;
    const Index n = end - begin;
    const double* weight = in.sample.weight.data();
    std::vector<CategoryGroup>& groups = category_scratch().groups;
    groups.clear();
    for (Index i = 0; i < n;) {
        CategoryGroup g;
        g.begin = i;
        g.code = std::isnan(v[i]) ? -1 : static_cast<int>(v[i]);
        for (; i < n && (g.code < 0 ? std::isnan(v[i]) : v[i] == v[g.begin]); ++i) g.w += weight[o[i]];
        g.end = i;
        groups.push_back(g);
    }
    const bool classification = !in.node.counts.empty();
    const auto sum_of = [&](const CategoryGroup& g, Index cls) {
        double s = 0;
        for (Index i = g.begin; i < g.end; ++i) {
            const int l = o[i];
            s += classification ? (in.sample.klass[static_cast<std::size_t>(l)] == cls ? weight[l] : 0.0)
                                : weight[l] * in.sample.target[static_cast<std::size_t>(l)];
        }
        return s;
    };
    const auto add_group = [&](Scan& scan, const CategoryGroup& g) {
        for (Index i = g.begin; i < g.end; ++i) scan.add(o[i]);
    };
    best_category_split<Scan>(in, f, begin, end, sorted_.categories(f), groups, sum_of, add_group, best);
}
template void DenseColumnStore::scan_categories<ClassScan<Criterion::gini>>(const ScanInputs&, Index, Index, Index,
                                                                            Split&) const;
template void DenseColumnStore::scan_categories<ClassScan<Criterion::entropy>>(const ScanInputs&, Index, Index, Index,
                                                                               Split&) const;
template void DenseColumnStore::scan_categories<VarianceScan>(const ScanInputs&, Index, Index, Index, Split&) const;

}  // namespace kestrel
