// Kernel spec text <-> structure <-> JSON.
#include "kestrel/kernels/kernel_spec.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "kestrel/core/error.hpp"
#include "kestrel/core/json_read.hpp"

namespace kestrel {

namespace {

struct KindName {
    const char* name;
    KernelKind kind;
};
// Canonical names first; the rest are accepted aliases.
constexpr KindName kKindNames[] = {
    {"linear", KernelKind::linear},       {"poly", KernelKind::poly},
    {"rbf", KernelKind::rbf},             {"laplacian", KernelKind::laplacian},
    {"exponential", KernelKind::exponential}, {"sigmoid", KernelKind::sigmoid},
    {"min", KernelKind::min},             {"anova", KernelKind::anova},
    {"precomputed", KernelKind::precomputed},
    {"polynomial", KernelKind::poly},     {"gaussian", KernelKind::rbf},
    {"intersection", KernelKind::min},    {"histogram", KernelKind::min},
};

std::string fmt_number(double v) {
    // Shortest text that reads back to the same double.
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

// A small recursive-descent reader over the spec text; every error names the
// parameter and the offending position.
class SpecParser {
public:
    SpecParser(const std::string& text, const std::string& param) : s_(text), param_(param) {}

    KernelSpec parse() {
        KernelSpec spec;
        skip_ws();
        if (pos_ >= s_.size()) fail("empty kernel spec");
        spec.terms.push_back(term());
        while (accept('+')) spec.terms.push_back(term());
        skip_ws();
        if (pos_ < s_.size()) fail(std::string("unexpected '") + s_[pos_] + "'");
        return spec;
    }

private:
    KernelTerm term() {
        KernelTerm t;
        do {
            skip_ws();
            if (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.' ||
                                     s_[pos_] == '-')) {
                double w = number();
                if (!(w >= 0.0) || !std::isfinite(w)) fail("kernel weights must be finite and non-negative");
                t.weight *= w;
            } else {
                t.factors.push_back(base());
            }
        } while (accept('*'));
        if (t.factors.empty()) fail("a term needs at least one kernel");
        // Each weight is finite, but their product may not be (1e200*1e200*rbf).
        if (!std::isfinite(t.weight)) fail("the kernel weights multiply to more than the largest number");
        return t;
    }

    BaseKernel base() {
        std::string name = identifier();
        if (name.empty()) fail("expected a kernel name");
        BaseKernel k;
        k.kind = kernel_kind_from_string_for(name);
        if (accept('(')) {
            skip_ws();
            if (!accept(')')) {
                do {
                    key_value(k);
                } while (accept(','));
                if (!accept(')')) fail("expected ')'");
            }
        }
        return k;
    }

    KernelKind kernel_kind_from_string_for(const std::string& name) {
        for (const auto& kn : kKindNames)
            if (name == kn.name) return kn.kind;
        std::string valid;
        for (int i = 0; i < 9; ++i) valid += std::string(i ? ", " : "") + kKindNames[i].name;
        fail("unknown kernel '" + name + "' (valid: " + valid + ")");
    }

    void key_value(BaseKernel& k) {
        std::string key = identifier();
        if (!accept('=')) fail("expected '=' after '" + key + "'");
        auto reject = [&](bool uses) {
            if (!uses) fail(std::string("kernel ") + kestrel::to_string(k.kind) + " takes no parameter '" + key + "'");
        };
        if (key == "gamma") {
            reject(kernel_uses_gamma(k.kind));
            skip_ws();
            std::size_t save = pos_;
            std::string word = identifier();
            if (word == "median") {
                k.gamma_rule = GammaRule::median;
                k.gamma.reset();
            } else if (word == "auto") {
                k.gamma_rule = GammaRule::automatic;
                k.gamma.reset();
            } else {
                pos_ = save;
                double g = power_number();
                if (!(g >= 0.0) || !std::isfinite(g)) fail("gamma must be a non-negative number, 'auto' or 'median'");
                k.gamma = g;
                k.gamma_rule.reset();
            }
        } else if (key == "nu") {
            if (k.kind != KernelKind::exponential) fail("only the exponential kernel takes 'nu'");
            double nu = power_number();
            if (!(nu > 0.0) || !std::isfinite(nu)) fail("nu must be positive");
            if (!std::isfinite(1.0 / (2.0 * nu))) fail("nu is too small (gamma = 1/(2 nu) overflows)");
            k.gamma = 1.0 / (2.0 * nu);
            k.gamma_rule.reset();
        } else if (key == "degree") {
            reject(kernel_uses_degree(k.kind));
            double d = number();
            if (d != std::floor(d) || d < 0 || d > 1000) fail("degree must be an integer in [0, 1000]");
            k.degree = static_cast<int>(d);
        } else if (key == "coef0") {
            reject(kernel_uses_coef0(k.kind));
            double c = power_number();
            if (!std::isfinite(c)) fail("coef0 must be finite");
            k.coef0 = c;
        } else {
            fail("unknown kernel parameter '" + key + "' (valid: gamma, degree, coef0, nu)");
        }
    }

    // A number, or base^exponent as the -p values accept ("2^-5").
    double power_number() {
        double b = number();
        if (accept('^')) return std::pow(b, number());
        return b;
    }

    double number() {
        skip_ws();
        std::size_t start = pos_;
        auto is_num = [&](char c) {
            return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' || c == '-' ||
                   c == '+';
        };
        // A sign is only part of a number at its start or right after an exponent mark.
        while (pos_ < s_.size() && is_num(s_[pos_])) {
            char c = s_[pos_];
            if ((c == '+' || c == '-') && pos_ != start && s_[pos_ - 1] != 'e' && s_[pos_ - 1] != 'E') break;
            ++pos_;
        }
        std::string tok = s_.substr(start, pos_ - start);
        double v = 0;
        auto res = std::from_chars(tok.data(), tok.data() + tok.size(), v);
        if (tok.empty() || res.ec != std::errc() || res.ptr != tok.data() + tok.size()) {
            pos_ = start;
            fail("expected a number");
        }
        return v;
    }

    std::string identifier() {
        skip_ws();
        std::size_t start = pos_;
        while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
        std::string id = s_.substr(start, pos_ - start);
        for (auto& c : id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return id;
    }

    bool accept(char c) {
        skip_ws();
        if (pos_ < s_.size() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    void skip_ws() {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw ParamError(param_ + "='" + s_ + "': " + what + " (at character " + std::to_string(pos_ + 1) + ")");
    }

    const std::string& s_;
    const std::string& param_;
    std::size_t pos_ = 0;
};

std::string base_to_string(const BaseKernel& k) {
    std::string out = to_string(k.kind);
    std::vector<std::string> args;
    if (kernel_uses_gamma(k.kind)) {
        if (k.gamma) args.push_back("gamma=" + fmt_number(*k.gamma));
        else if (k.gamma_rule == GammaRule::median) args.push_back("gamma=median");
        else if (k.gamma_rule == GammaRule::automatic) args.push_back("gamma=auto");
    }
    if (kernel_uses_degree(k.kind) && k.degree) args.push_back("degree=" + std::to_string(*k.degree));
    if (kernel_uses_coef0(k.kind) && k.coef0) args.push_back("coef0=" + fmt_number(*k.coef0));
    if (!args.empty()) {
        out += '(';
        for (std::size_t i = 0; i < args.size(); ++i) out += (i ? "," : "") + args[i];
        out += ')';
    }
    return out;
}

}  // namespace

const char* to_string(KernelKind k) {
    for (const auto& kn : kKindNames)
        if (kn.kind == k) return kn.name;
    return "?";
}

KernelKind kernel_kind_from_string(const std::string& name) {
    return KernelSpec::parse(name).terms.at(0).factors.at(0).kind;
}

bool kernel_uses_gamma(KernelKind k) {
    return k != KernelKind::linear && k != KernelKind::min && k != KernelKind::precomputed;
}
bool kernel_uses_degree(KernelKind k) {
    return k == KernelKind::poly || k == KernelKind::anova;
}
bool kernel_uses_coef0(KernelKind k) {
    return k == KernelKind::poly || k == KernelKind::sigmoid;
}

bool BaseKernel::resolved() const {
    return (!kernel_uses_gamma(kind) || gamma.has_value()) && (!kernel_uses_degree(kind) || degree.has_value()) &&
           (!kernel_uses_coef0(kind) || coef0.has_value());
}

KernelSpec KernelSpec::parse(const std::string& text, const std::string& param) {
    KernelSpec spec = SpecParser(text, param).parse();
    // Precomputed values are the kernel itself: weighting or combining them with a kernel
    // of those values would be meaningless.
    bool pre = false;
    for (const auto& t : spec.terms)
        for (const auto& f : t.factors) pre = pre || f.kind == KernelKind::precomputed;
    if (pre && !(spec.single() && spec.single()->kind == KernelKind::precomputed))
        throw ParamError(param + "='" + text + "': precomputed cannot be weighted or combined with other kernels");
    return spec;
}

std::string KernelSpec::to_string() const {
    std::string out;
    for (std::size_t t = 0; t < terms.size(); ++t) {
        if (t) out += '+';
        if (terms[t].weight != 1.0) out += fmt_number(terms[t].weight) + '*';
        for (std::size_t f = 0; f < terms[t].factors.size(); ++f) {
            if (f) out += '*';
            out += base_to_string(terms[t].factors[f]);
        }
    }
    return out;
}

Json KernelSpec::to_json() const {
    Json jt = Json::array();
    for (const auto& t : terms) {
        Json jf = Json::array();
        for (const auto& k : t.factors) {
            Json b = {{"kernel", kestrel::to_string(k.kind)}};
            if (kernel_uses_gamma(k.kind)) {
                if (k.gamma) b["gamma"] = *k.gamma;
                else if (k.gamma_rule == GammaRule::median) b["gamma"] = "median";
                else if (k.gamma_rule == GammaRule::automatic) b["gamma"] = "auto";
            }
            if (kernel_uses_degree(k.kind) && k.degree) b["degree"] = *k.degree;
            if (kernel_uses_coef0(k.kind) && k.coef0) b["coef0"] = *k.coef0;
            jf.push_back(std::move(b));
        }
        jt.push_back({{"weight", t.weight}, {"factors", std::move(jf)}});
    }
    return {{"text", to_string()}, {"terms", std::move(jt)}};
}

KernelSpec KernelSpec::from_json(const Json& j) {
    try {
        KernelSpec spec;
        for (const auto& jt : j.at("terms")) {
            KernelTerm t;
            t.weight = jt.at("weight").get<double>();
            if (!(t.weight >= 0.0)) throw Error(ExitCode::bad_input, "negative kernel weight");
            for (const auto& jf : jt.at("factors")) {
                BaseKernel k;
                k.kind = kernel_kind_from_string(jf.at("kernel").get<std::string>());
                if (jf.contains("gamma")) {
                    if (jf["gamma"].is_string()) {
                        const auto g = jf["gamma"].get<std::string>();
                        if (g == "median") k.gamma_rule = GammaRule::median;
                        else if (g == "auto") k.gamma_rule = GammaRule::automatic;
                        else throw Error(ExitCode::bad_input, "bad gamma '" + g + "'");
                    } else {
                        k.gamma = jf["gamma"].get<double>();
                    }
                }
                if (jf.contains("degree")) k.degree = json_integer<int>(jf["degree"]);
                if (jf.contains("coef0")) k.coef0 = jf["coef0"].get<double>();
                t.factors.push_back(k);
            }
            if (t.factors.empty()) throw Error(ExitCode::bad_input, "kernel term without factors");
            spec.terms.push_back(std::move(t));
        }
        if (spec.terms.empty()) throw Error(ExitCode::bad_input, "kernel without terms");
        return spec;
    } catch (const Json::exception& e) {
        throw Error(ExitCode::bad_input, std::string("invalid kernel JSON: ") + e.what());
    } catch (const UsageError& e) {
        throw Error(ExitCode::bad_input, std::string("invalid kernel JSON: ") + e.what());
    }
}

bool KernelSpec::resolved() const {
    for (const auto& t : terms)
        for (const auto& k : t.factors)
            if (!k.resolved()) return false;
    return true;
}

const BaseKernel* KernelSpec::single() const {
    if (terms.size() == 1 && terms[0].weight == 1.0 && terms[0].factors.size() == 1) return &terms[0].factors[0];
    return nullptr;
}

}  // namespace kestrel
