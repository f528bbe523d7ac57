#pragma once
// gbdt's learning-to-rank losses (docs/models/gbdt.md, "Learning to rank"): pairwise,
// within each query, over every pair of its documents with different grades. For a
// pair (i, j) with y_i > y_j, scores s, d = s_i − s_j, σ = Loss::rank_sigma and
// ρ = 1 / (1 + e^(σd)):
//   rank_pairwise  ℓ_ij = log(1 + e^(−σd))                     (RankNet; XGBoost rank:pairwise)
//   lambdarank     ℓ_ij weighted by Δ_ij = |2^y_i − 2^y_j| · |1/log2(2 + r_i) − 1/log2(2 + r_j)| / IDCG
//                  (LambdaMART; XGBoost rank:ndcg, LightGBM lambdarank), r the 0-based ranks of
//                  the current scores (ties by row order), IDCG the query's ideal DCG
// Each pair adds −σρΔ to g_i, +σρΔ to g_j and σ²ρ(1 − ρ)Δ to h_i and h_j (Δ = 1 for
// rank_pairwise). With truncation level T > 0 only pairs with a document ranked in the
// top T count, and IDCG is IDCG@T (LightGBM's lambdarank_truncation_level).
// Grades are whole numbers 0..31; the raw score is the ranking score.
#include <span>

#include "kestrel/boosting/losses.hpp"

namespace kestrel {

// The training loss of the history: rank_pairwise's Σ ℓ_ij over the queries' pairs, and
// lambdarank's 1 − NDCG (NDCG@T with a truncation level), the mean over the queries (a
// query without a relevant document counts NDCG 1, as the ndcg metric). lambdarank's
// Δ-weighted pair loss changes form whenever the ranking does, and costs a log per pair
// where the NDCG comes with the ranks the gradients need anyway.

// Fills out[i] = (g_i, h_i) for the rows of the queries [starts[q], starts[q + 1]) and
// returns the training loss times the rows (the callers divide by them), independent
// of `threads`.
double rank_gradients(const Loss& loss, const double* F, const Vector& y, std::span<const Index> starts,
                      GradPair* out, int threads);

// The training loss times the rows, alone.
double rank_loss_sum(const Loss& loss, const double* F, const Vector& y, std::span<const Index> starts, int threads);

// Σ Δ_ij ℓ_ij, the pair loss whose derivatives (Δ_ij held fixed) rank_gradients gives:
// for checking them.
double rank_surrogate_sum(const Loss& loss, const double* F, const Vector& y, std::span<const Index> starts,
                          int threads);

// DataError naming the first row (1-based) whose grade is not a whole number in 0..31.
void check_grades(const Vector& y);

}  // namespace kestrel
