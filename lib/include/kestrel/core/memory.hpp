#pragma once
// How much memory an allocation may take, so that a file or a densified matrix too
// large for this machine fails early with a message saying how much it needed,
// instead of dying in the kernel's out-of-memory killer (Linux overcommits, so a
// huge allocation "succeeds" and the process is killed later while touching it).
#include <cstdint>
#include <string>

#include "kestrel/core/error.hpp"

namespace kestrel {

// Bytes this process can still allocate: the smallest of the system's MemAvailable,
// the room left under the cgroup's memory.max and under RLIMIT_AS. 0 when unknown.
std::uint64_t available_memory();

// "1.5 GB", "512 MB", "812 bytes" (powers of 1024, one decimal).
std::string format_bytes(std::uint64_t bytes);

// "2G", "512M", "1.5g", "64k", "1000" (bytes) -> bytes; powers of 1024. Throws
// UsageError naming `flag` for anything else.
std::uint64_t parse_byte_size(const std::string& text, const std::string& flag);

// Whether `bytes` pass check_memory: within `limit` (0 = none) and, from 64 MB, within the
// memory available (when known).
bool fits_memory(std::uint64_t bytes, std::uint64_t limit);

// Throws DataError "<what> needs about N, more than <the limit>" when `bytes` exceed
// `limit` (the user limit ReadOptions::max_memory; 0 = none) or the memory available.
// The message names the limit as the option max_memory.
void check_memory(std::uint64_t bytes, std::uint64_t limit, const ErrorText& what);
inline void check_memory(std::uint64_t bytes, std::uint64_t limit, const std::string& what) {
    check_memory(bytes, limit, ErrorText(what));
}

}  // namespace kestrel
