// Data-loading benchmark tool (not a test): reads one file with kestrel's reader and
// prints one JSON line {bytes, seconds, mb_per_s, rows, cols, nnz, peak_rss_kb}.
// Usage: kestrel-read-bench FILE [csv|libsvm|auto] [threads] [CACHE]
// With CACHE the read goes through the table cache (ReadOptions::cache): the first run
// parses and writes it, the next read it; `bytes` is then the cache file's size.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <exception>
#include <string>

#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: kestrel-read-bench FILE [csv|libsvm|auto] [threads] [CACHE]\n");
        return 1;
    }
    try {
        kestrel::ReadOptions opts;
        if (argc > 2) opts.format = kestrel::file_format_from_string(argv[2]);
        if (argc > 3) opts.threads = std::stoi(argv[3]);
        if (argc > 4) opts.cache = argv[4];
        const auto t0 = std::chrono::steady_clock::now();
        const kestrel::Table t = kestrel::read_table(argv[1], opts);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const std::uint64_t bytes = opts.cache.empty() ? t.bytes : std::filesystem::file_size(opts.cache);
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        const long long nnz = t.X.is_sparse() ? static_cast<long long>(t.X.sparse_ref().nonZeros())
                                              : static_cast<long long>(t.X.rows() * t.X.cols());
        std::printf(
            "{\"bytes\": %llu, \"seconds\": %.6f, \"mb_per_s\": %.1f, \"rows\": %lld, \"cols\": %lld, "
            "\"nnz\": %lld, \"peak_rss_kb\": %ld}\n",
            static_cast<unsigned long long>(bytes), seconds, static_cast<double>(bytes) / 1e6 / seconds,
            static_cast<long long>(t.X.rows()), static_cast<long long>(t.X.cols()), nnz, usage.ru_maxrss);
        return 0;
    } catch (const kestrel::Error& e) {
        std::fprintf(stderr, "kestrel-read-bench: %s\n", e.what());
        return static_cast<int>(e.code());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "kestrel-read-bench: %s\n", e.what());
        return 3;
    }
}
