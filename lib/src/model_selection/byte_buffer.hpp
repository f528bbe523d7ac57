#pragma once
// Flat little-endian encoding of the values a fit job sends between ranks (scores,
// vectors, matrices, strings). Both ends are the same kestrel build on the same kind of
// machine (one mpirun), so the layout is the host's and carries no version.
#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "kestrel/core/error.hpp"

namespace kestrel::detail {

class ByteWriter {
public:
    template <class T>
    void put(const T& value) {
        static_assert(std::is_trivially_copyable_v<T>);
        append(&value, sizeof(T));
    }
    void put_bytes(const void* data, std::size_t n) {
        put<std::uint64_t>(n);
        append(data, n);
    }
    void put_string(const std::string& s) { put_bytes(s.data(), s.size()); }
    void put_reals(std::span<const double> v) { put_bytes(v.data(), v.size() * sizeof(double)); }
    void put_vector(const Eigen::VectorXd& v) { put_reals({v.data(), static_cast<std::size_t>(v.size())}); }
    void put_matrix(const Eigen::MatrixXd& m) {
        put<std::int64_t>(m.rows());
        put<std::int64_t>(m.cols());
        put_reals({m.data(), static_cast<std::size_t>(m.size())});
    }
    std::vector<std::byte>& bytes() { return bytes_; }

private:
    // resize and memcpy rather than insert of a pointer range: GCC 12 reports a false
    // stringop-overflow on the insert when it inlines it into a caller of its own.
    void append(const void* data, std::size_t n) {
        if (n == 0) return;
        const std::size_t at = bytes_.size();
        bytes_.resize(at + n);
        std::memcpy(bytes_.data() + at, data, n);
    }
    std::vector<std::byte> bytes_;
};

class ByteReader {
public:
    explicit ByteReader(std::span<const std::byte> bytes) : bytes_(bytes) {}

    template <class T>
    T get() {
        static_assert(std::is_trivially_copyable_v<T>);
        T value;
        std::memcpy(&value, take(sizeof(T)), sizeof(T));
        return value;
    }
    std::span<const std::byte> get_bytes() {
        const auto n = static_cast<std::size_t>(get<std::uint64_t>());
        return {take(n), n};
    }
    std::string get_string() {
        const auto b = get_bytes();
        return {reinterpret_cast<const char*>(b.data()), b.size()};
    }
    std::vector<double> get_reals() {
        const auto b = get_bytes();
        if (b.size() % sizeof(double) != 0) throw InternalError("a message between ranks is malformed");
        std::vector<double> v(b.size() / sizeof(double));
        if (!v.empty()) std::memcpy(v.data(), b.data(), b.size());
        return v;
    }
    Eigen::VectorXd get_vector() {
        const std::vector<double> v = get_reals();
        return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
    }
    Eigen::MatrixXd get_matrix() {
        const auto rows = get<std::int64_t>();
        const auto cols = get<std::int64_t>();
        const std::vector<double> v = get_reals();
        if (rows < 0 || cols < 0 || static_cast<std::size_t>(rows * cols) != v.size())
            throw InternalError("a message between ranks is malformed");
        return Eigen::Map<const Eigen::MatrixXd>(v.data(), rows, cols);
    }
    bool done() const { return at_ == bytes_.size(); }

private:
    const std::byte* take(std::size_t n) {
        if (n > bytes_.size() - at_) throw InternalError("a message between ranks is truncated");
        const std::byte* p = bytes_.data() + at_;
        at_ += n;
        return p;
    }

    std::span<const std::byte> bytes_;
    std::size_t at_ = 0;
};

}  // namespace kestrel::detail
