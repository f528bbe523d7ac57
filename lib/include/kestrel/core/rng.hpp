#pragma once
// kestrel's only source of randomness. xoshiro256** seeded through splitmix64, with
// our own uniform/normal/shuffle so that a seed gives the same stream on every
// platform and standard library (std::*_distribution are implementation-defined).
#include <cstdint>
#include <span>
#include <vector>

namespace kestrel {

// Mixes (seed, stream) into a well-spread child seed: per-fold, per-tree, per-model.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream);

class Rng {
public:
    explicit Rng(std::uint64_t seed);
    std::uint64_t next_u64();
    double uniform();                                   // [0, 1)
    double uniform(double lo, double hi);               // [lo, hi)
    std::uint64_t below(std::uint64_t n);               // [0, n), unbiased
    double normal();                                    // standard normal (Marsaglia polar)
    template <class T>
    void shuffle(std::span<T> v) {                      // Fisher-Yates
        for (std::size_t i = v.size(); i > 1; --i) {
            std::size_t j = static_cast<std::size_t>(below(i));
            std::swap(v[i - 1], v[j]);
        }
    }
    template <class T>
    void shuffle(std::vector<T>& v) { shuffle(std::span<T>(v)); }
    // m distinct indices of 0..n-1 (m <= n), each set equally likely, sorted: the first m
    // steps of a Fisher-Yates shuffle of 0..n-1 (Nystrom landmarks, a Gram sample).
    std::vector<std::int64_t> sorted_sample(std::int64_t n, std::int64_t m);

private:
    std::uint64_t s_[4];
    bool has_spare_ = false;
    double spare_ = 0.0;
};

}  // namespace kestrel
