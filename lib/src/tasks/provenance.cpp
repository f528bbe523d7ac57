#include "kestrel/tasks/provenance.hpp"

#include <cstdlib>
#include <ctime>

namespace kestrel {

std::string provenance_date() {
    std::time_t t = std::time(nullptr);
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH")) {
        char* end = nullptr;
        const long long v = std::strtoll(epoch, &end, 10);
        if (end != epoch && *end == '\0' && v >= 0) t = static_cast<std::time_t>(v);
    }
    std::tm parts{};
    gmtime_r(&t, &parts);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &parts);
    return buf;
}

void stamp_provenance(Model& model, const ProvenanceRecord& record) {
    Json& p = model.provenance();
    p["date"] = provenance_date();
    if (record.rows >= 0) p["rows"] = record.rows;
    if (!record.data_file.empty()) p["data_file"] = record.data_file == "-" ? "<stdin>" : record.data_file;
    p["seed"] = record.seed;
    if (!record.init_model.empty()) p["init_model"] = record.init_model;
}

}  // namespace kestrel
