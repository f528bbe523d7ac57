#include "kestrel/core/memory.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <locale>
#include <sstream>
#include <vector>

#include "kestrel/core/error.hpp"

namespace kestrel {
namespace {

constexpr std::uint64_t kUnknown = std::numeric_limits<std::uint64_t>::max();

// The first number of a one-value file ("max" and unreadable files are unknown).
std::uint64_t read_number_file(const std::string& path) {
    std::ifstream in(path);
    in.imbue(std::locale::classic());
    std::string word;
    if (!(in >> word) || word.empty() || !std::isdigit(static_cast<unsigned char>(word[0]))) return kUnknown;
    return std::stoull(word);
}

// "Key:   123 kB" lines (/proc/meminfo, /proc/self/status) or "key 123" lines
// (cgroup memory.stat); the value times `scale`.
std::uint64_t read_keyed(const std::string& path, const std::string& key, std::uint64_t scale) {
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.compare(0, key.size(), key) != 0 || line.size() == key.size()) continue;
        const char next = line[key.size()];
        if (next != ':' && next != ' ') continue;
        std::istringstream fields(line.substr(key.size() + 1));
        fields.imbue(std::locale::classic());
        std::uint64_t v = 0;
        if (fields >> v) return v * scale;
    }
    return kUnknown;
}

// Room under the memory cgroup's limit (v2 or v1); page cache that can be dropped
// (inactive files) does not count as used.
std::uint64_t cgroup_room() {
    std::ifstream self("/proc/self/cgroup");
    std::string line, v2_path, v1_path;
    while (std::getline(self, line)) {
        if (line.rfind("0::", 0) == 0) v2_path = line.substr(3);
        const auto mem = line.find(":memory:");
        if (mem != std::string::npos) v1_path = line.substr(mem + 8);
    }
    struct Layout {
        std::string dir, limit, usage, inactive;
    };
    std::vector<Layout> candidates;
    // A cgroup namespace shows the process's own group at the mount point: try both.
    if (!v2_path.empty()) candidates.push_back({"/sys/fs/cgroup" + v2_path, "memory.max", "memory.current", "inactive_file"});
    candidates.push_back({"/sys/fs/cgroup", "memory.max", "memory.current", "inactive_file"});
    if (!v1_path.empty())
        candidates.push_back({"/sys/fs/cgroup/memory" + v1_path, "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"});
    candidates.push_back({"/sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"});
    for (const auto& c : candidates) {
        const std::uint64_t limit = read_number_file(c.dir + "/" + c.limit);
        if (limit == kUnknown) continue;
        std::uint64_t usage = read_number_file(c.dir + "/" + c.usage);
        if (usage == kUnknown) usage = 0;
        const std::uint64_t inactive = read_keyed(c.dir + "/memory.stat", c.inactive, 1);
        if (inactive != kUnknown) usage -= std::min(usage, inactive);
        // cgroup v1 reports "no limit" as a huge page-rounded number.
        if (limit >= (std::uint64_t{1} << 60)) return kUnknown;
        return limit > usage ? limit - usage : 0;
    }
    return kUnknown;
}

std::uint64_t address_space_room() {
    rlimit rl{};
    if (::getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return kUnknown;
    const std::uint64_t used = read_keyed("/proc/self/status", "VmSize", 1024);
    const std::uint64_t limit = rl.rlim_cur;
    if (used == kUnknown) return limit;
    return limit > used ? limit - used : 0;
}

}  // namespace

std::uint64_t available_memory() {
    const std::uint64_t room =
        std::min({read_keyed("/proc/meminfo", "MemAvailable", 1024), cgroup_room(), address_space_room()});
    return room == kUnknown ? 0 : room;
}

std::string format_bytes(std::uint64_t bytes) {
    static const char* const units[] = {"bytes", "KB", "MB", "GB", "TB", "PB", "EB"};
    if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024 && u < 6) {
        v /= 1024;
        ++u;
    }
    char buf[32];
    // Written by hand, not through printf's %f, whose decimal point follows the locale.
    const auto tenths = static_cast<std::uint64_t>(std::llround(v * 10));
    std::snprintf(buf, sizeof buf, "%llu.%llu %s", static_cast<unsigned long long>(tenths / 10),
                  static_cast<unsigned long long>(tenths % 10), units[u]);
    return buf;
}

std::uint64_t parse_byte_size(const std::string& text, const std::string& flag) {
    auto bad = [&] {
        return UsageError(flag + " must be a size such as 512M, 2G or 1.5G (bytes, K, M, G, T), got '" + text + "'");
    };
    std::size_t i = 0;
    std::uint64_t whole = 0;
    bool digits = false;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        if (whole > (std::uint64_t{1} << 50)) throw bad();
        whole = whole * 10 + static_cast<std::uint64_t>(text[i++] - '0');
        digits = true;
    }
    double fraction = 0;
    if (i < text.size() && text[i] == '.') {
        double scale = 0.1;
        for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i, scale /= 10) {
            fraction += scale * (text[i] - '0');
            digits = true;
        }
    }
    if (!digits) throw bad();
    std::uint64_t unit = 1;
    if (i < text.size()) {
        switch (std::toupper(static_cast<unsigned char>(text[i]))) {
            case 'K': unit = std::uint64_t{1} << 10; break;
            case 'M': unit = std::uint64_t{1} << 20; break;
            case 'G': unit = std::uint64_t{1} << 30; break;
            case 'T': unit = std::uint64_t{1} << 40; break;
            default: throw bad();
        }
        ++i;
        if (i < text.size() && (text[i] == 'B' || text[i] == 'b')) ++i;  // "512MB"
    }
    if (i != text.size()) throw bad();
    const long double bytes = (static_cast<long double>(whole) + fraction) * static_cast<long double>(unit);
    if (bytes < 1 || bytes > static_cast<long double>(std::uint64_t{1} << 62)) throw bad();
    return static_cast<std::uint64_t>(bytes);
}

namespace {

// Reading /proc costs a few microseconds: only worth it for large allocations.
constexpr std::uint64_t kSmallAllocationBytes = std::uint64_t{64} << 20;

}  // namespace

bool fits_memory(std::uint64_t bytes, std::uint64_t limit) {
    if (limit > 0 && bytes > limit) return false;
    if (bytes < kSmallAllocationBytes) return true;
    const std::uint64_t available = available_memory();
    return available == 0 || bytes <= available;
}

void check_memory(std::uint64_t bytes, std::uint64_t limit, const ErrorText& what) {
    if (limit > 0 && bytes > limit)
        throw MemoryLimitError(what + " needs about " + format_bytes(bytes) + ", more than " + option_named("max_memory") +
                        " " + format_bytes(limit));
    if (bytes < kSmallAllocationBytes) return;
    const std::uint64_t available = available_memory();
    if (available > 0 && bytes > available)
        throw MemoryLimitError(what + " needs about " + format_bytes(bytes) + ", more than the " + format_bytes(available) +
                        " of memory available");
}

}  // namespace kestrel
