// kestrel-docgen: writes the man pages (kestrel-train(1) ... kestrel-auto(1), kestrel-export(1),
// kestrel-models(7)) and the bash and zsh completion scripts from the declarations
// that drive the commands themselves: each command's CLI11 app, captured fully
// declared through cli::set_app_visitor (the options, descriptions, defaults, choices
// and FILE arguments that --help prints), and the model registry with every model's
// ParamSpec (what --list-models and --help-params print). Nothing here repeats an
// option or a parameter; only the prose around them (examples, exit status wording)
// is written here.
//
//   kestrel-docgen OUTDIR BASH_HELPERS  ->  OUTDIR/man/*.1 *.7, OUTDIR/completion/kestrel.bash, _kestrel
//
// BASH_HELPERS is apps/docgen/completion_helpers.bash, the completion's shell functions.
//
// Exit status: 0, or 2 when a file cannot be written (nothing is left half-written:
// each file goes to a temporary name and is renamed into place), 1 on bad usage.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/commands.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/text_pieces.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/metrics/metric_registry.hpp"

namespace {

using namespace kestrel;

// --- what one command declares -------------------------------------------------------

enum class ValueKind { none, file, choice, model, param, metric, other };

struct OptionDoc {
    std::vector<std::string> names;  // "-m", "--model"; empty for a positional
    std::string positional;          // "TRAIN_FILE"
    std::string description;
    std::string value;               // "TEXT", "INT", "FILE", "[KIND=]FILE"; empty for a flag
    std::vector<std::string> choices;
    std::string default_value;
    bool required = false;
    bool repeatable = false;
    ValueKind kind = ValueKind::none;
};

struct CommandDoc {
    std::string name;
    std::vector<std::string> summary;   // the description's prose lines
    std::vector<std::string> synopsis;  // its usage lines ("  kestrel-train -m MODEL ...")
    std::vector<OptionDoc> options;     // in declaration order
    bool has_positionals = false;
};

OptionDoc option_doc(const CLI::Option& o) {
    OptionDoc d;
    for (const auto& s : o.get_snames()) d.names.push_back("-" + s);
    for (const auto& l : o.get_lnames()) d.names.push_back("--" + l);
    if (d.names.empty()) d.positional = o.get_name(true);
    d.description = o.get_description();
    d.required = o.get_required();
    d.default_value = o.get_default_str();
    if (o.get_type_size() > 0) {
        // "TEXT:{none,standard,minmax}": the type, then each validator's description.
        const std::string type = o.get_type_name();
        const auto colon = type.find(':');
        d.value = type.substr(0, colon);
        const auto open = type.find('{'), close = type.find('}');
        if (open != std::string::npos && close != std::string::npos && close > open)
            for (const auto& c : split_text(type.substr(open + 1, close - open - 1), ',')) d.choices.push_back(trim_blanks(c));
        d.repeatable = o.get_items_expected_max() > 1;
        const auto has = [&](const char* n) { return std::find(d.names.begin(), d.names.end(), n) != d.names.end(); };
        if (!d.choices.empty()) d.kind = ValueKind::choice;
        else if (d.value.find("FILE") != std::string::npos) d.kind = ValueKind::file;
        else if (has("--model")) d.kind = ValueKind::model;
        else if (has("--param") || has("--grid")) d.kind = ValueKind::param;
        else if (has("--metric")) d.kind = ValueKind::metric;
        else d.kind = ValueKind::other;
    }
    return d;
}

CommandDoc describe(const std::string& name, cli::Command body) {
    CommandDoc doc;
    doc.name = name;
    cli::set_app_visitor([&doc](const CLI::App& app) {
        for (const auto& line : split_text(app.get_description(), '\n')) {
            if (line.rfind("  ", 0) == 0) doc.synopsis.push_back(trim_blanks(line));
            else if (!trim_blanks(line).empty()) doc.summary.push_back(trim_blanks(line));
        }
        for (const CLI::Option* o : app.get_options()) {
            if (o->get_group().empty()) continue;  // hidden
            doc.options.push_back(option_doc(*o));
            doc.has_positionals |= doc.options.back().names.empty();
        }
    });
    std::ostringstream out, err;
    cli::Io io{out, err};
    const int rc = cli::run_command(name, body, {}, io);
    cli::set_app_visitor(nullptr);
    if (rc != 0 || doc.options.empty()) throw std::runtime_error(name + ": could not read its options: " + err.str());
    return doc;
}

struct Example {
    std::string what, command;
};

struct CommandText {
    const char* name;
    cli::Command body;
    std::vector<Example> examples;
};

// The prose: examples for each command (they run on the datasets bundled in data/).
const std::vector<CommandText>& commands() {
    static const std::vector<CommandText> list = {
        {"kestrel-train",
         cli::run_train,
         {{"List the models, then the parameters of one:", "kestrel-train --list-models\nkestrel-train -m logistic --help-params"},
          {"Train a logistic regression on standardized features and save it:",
           "kestrel-train -m logistic -p C=0.5 --scale standard data/iris/train.csv -o iris.json"},
          {"Train an RBF support vector classifier on a LIBSVM file:",
           "kestrel-train -m svc -p C=4 data/heart_scale/train.libsvm -o heart.json"}}},
        {"kestrel-predict",
         cli::run_predict,
         {{"Write predictions with class probabilities, and report the metrics on stderr:",
           "kestrel-predict iris.json data/iris/test.csv --proba -o pred.csv --metrics"},
          {"Metrics only, as JSON:", "kestrel-predict iris.json data/iris/test.csv --metrics --json"}}},
        {"kestrel-cv",
         cli::run_cv,
         {{"10-fold cross-validation repeated 3 times:", "kestrel-cv -m ridge -p alpha=0.1 -k 10 --repeat 3 data/diabetes/train.csv"},
          {"Leave-one-out, results as JSON:", "kestrel-cv -m logistic --loo data/iris/train.csv --json"}}},
        {"kestrel-gridsearch",
         cli::run_gridsearch,
         {{"Search C on a log2 grid and save the best model, refit on all the data:",
           "kestrel-gridsearch -m logistic -g 'C=2^-6:2^6:2' data/heart_scale/train.libsvm -o best.json"},
          {"Random search of 20 points, every point's scores in a CSV file:",
           "kestrel-gridsearch -m svc -g 'C=loguniform(0.01,100)' --n-iter 20 --results grid.csv data/iris/train.csv"}}},
        {"kestrel-select",
         cli::run_select,
         {{"Greedy forward selection scored by 5-fold cross-validation:",
           "kestrel-select -m logistic --direction forward data/iris/train.csv --output features.txt"},
          {"Features kept along an L1 regularization path:", "kestrel-select --method l1 -m lasso data/diabetes/train.csv"},
          {"Permutation importance of a saved model on held-out data:",
           "kestrel-select --method permutation -m iris.json --heldout data/iris/test.csv"}}},
        {"kestrel-explain",
         cli::run_explain,
         {{"Permutation importance and the SHAP summary of a saved model on held-out data:",
           "kestrel-explain iris.json data/iris/test.csv --importance --shap-summary"},
          {"Partial dependence of one column with its ICE curves, as a table and a plot:",
           "kestrel-explain iris.json data/iris/test.csv --ice petal_length --plot pdp.svg"}}},
        {"kestrel-auto",
         cli::run_auto,
         {{"The best of the default portfolio within 60 seconds, saved as the average of its fold models, with a report:",
           "kestrel-auto data/tables/penguins/train.csv --label-col species -o best.json --report report.md"},
          {"A reproducible run: 20 evaluations of three families, the same model at any --threads:",
           "kestrel-auto data/iris/train.csv --models logistic,forest,gbdt --max-evals 20 --seed 7 -o best.json"},
          {"A weighted ensemble of the best candidates, saved when it beats the best single one on the folds:",
           "kestrel-auto data/tables/penguins/train.csv --label-col species --metric log_loss --ensemble -o best.json"},
          {"A second layer over the best candidates' out-of-fold predictions, saved only when it beats them out of fold:",
           "kestrel-auto data/tables/penguins/train.csv --label-col species --ensemble --stack -o best.json"},
          {"The chosen model refit on all rows instead, for faster prediction:",
           "kestrel-auto data/iris/train.csv --max-evals 20 --refit-full -o best.json"}}},
        {"kestrel-export",
         cli::run_export,
         {{"Write a trained forest as ONNX, for ONNX Runtime:", "kestrel-export iris.json --to onnx -o iris.onnx"},
          {"The same with skl2onnx's ZipMap output of the probabilities:",
           "kestrel-export iris.json --to onnx --zipmap -o iris.onnx"}}},
    };
    return list;
}

// --- roff ------------------------------------------------------------------------------

// Text for a roff line: backslashes escaped, every '-' written \- (the ASCII minus that
// a user can copy into a shell: options, file names, commands), anything outside ASCII
// written as a \[uXXXX] glyph, and a line starting with a control character protected.
std::string roff(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c == '\\') {
            out += "\\e";
        } else if (c == '-') {
            out += "\\-";
        } else if (c >= 0x80) {
            // UTF-8 -> code point
            unsigned cp = 0;
            int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
            cp = c & (extra == 3 ? 0x07 : extra == 2 ? 0x0F : 0x1F);
            for (int k = 0; k < extra && i + 1 < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[++i]) & 0x3F);
            // Superscript and subscript signs outside Latin-1 have no glyph in groff's
            // PostScript fonts (a warning under -ww): written as ^2, _1, ^T instead.
            if (cp >= 0x2080 && cp <= 0x2089) {
                out += "_" + std::to_string(cp - 0x2080);
            } else if (cp >= 0x2074 && cp <= 0x2079) {
                out += "^" + std::to_string(cp - 0x2070);
            } else if (cp == 0x2070 || cp == 0x207A || cp == 0x207B || cp == 0x1D40) {
                out += cp == 0x2070 ? "^0" : cp == 0x207A ? "^+" : cp == 0x207B ? "^\\-" : "^T";
            } else {
                std::ostringstream hex;
                hex << "\\[u" << std::uppercase << std::hex << std::setw(4) << std::setfill('0') << cp << "]";
                out += hex.str();
            }
        } else {
            out += static_cast<char>(c);
        }
    }
    if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
    return out;
}

std::string bold(const std::string& s) { return "\\fB" + roff(s) + "\\fR"; }
std::string italic(const std::string& s) { return "\\fI" + roff(s) + "\\fR"; }

std::string upper(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

std::string sentence(std::string s) {
    if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
    if (!s.empty() && s.back() != '.' && s.back() != ')') s += '.';
    return s;
}

void header(std::ostream& os, const std::string& name, int section) {
    os << ".\\\" Generated by kestrel-docgen from the program's own declarations; do not edit.\n"
       << ".TH " << roff(upper(name)) << " " << section << " \"\" \"kestrel " << kestrel_version() << "\" \"kestrel manual\"\n";
}

// The exit codes (lib/include/kestrel/core/error.hpp; README.md, "Exit codes").
void exit_status(std::ostream& os) {
    const std::vector<std::pair<int, std::string>> codes = {
        {static_cast<int>(ExitCode::ok), "Success."},
        {static_cast<int>(ExitCode::usage),
         "Usage error: an unknown flag, model or parameter, or a parameter value out of its range."},
        {static_cast<int>(ExitCode::bad_input),
         "Bad input: a data file or model file that cannot be used, an input too large for --max-rows, "
         "--max-memory or the memory, or an output that cannot be written."},
        {static_cast<int>(ExitCode::internal),
         "Internal error (a bug: please report it), or a system library that a solver loads on first use is "
         "missing (OpenBLAS, package libopenblas0; COIN-OR CLP, package coinor-libclp1): the message names it."},
        {static_cast<int>(ExitCode::interrupted),
         "Interrupted by SIGINT (Ctrl-C); 143 for SIGTERM, 129 for SIGHUP. The temporary file of an output "
         "being written is removed, so no partial model is left."},
    };
    os << ".SH \"EXIT STATUS\"\n";
    for (const auto& [code, text] : codes) os << ".TP\n.B " << code << "\n" << roff(text) << "\n";
    os << ".PP\nEvery error is one line on standard error naming the file, line and column (or the\n"
       << "parameter) at fault. An output file is written to a temporary file and renamed into place,\n"
       << "so a failed run never leaves a half-written file.\n";
}

void examples(std::ostream& os, const std::vector<Example>& list) {
    os << ".SH EXAMPLES\n";
    for (const auto& e : list) {
        os << ".PP\n" << roff(e.what) << "\n.PP\n.RS 4\n.EX\n";
        for (const auto& line : split_text(e.command, '\n')) os << roff(line) << "\n";
        os << ".EE\n.RE\n";
    }
}

void see_also(std::ostream& os, const std::string& self) {
    std::vector<std::string> refs;
    for (const auto& c : commands())
        if (c.name != self) refs.push_back(std::string(".BR ") + roff(c.name) + " (1)");
    if (self != "kestrel-models") refs.push_back(".BR kestrel\\-models (7)");
    os << ".SH \"SEE ALSO\"\n";
    for (std::size_t i = 0; i < refs.size(); ++i) os << refs[i] << (i + 1 < refs.size() ? ",\n" : "\n");
    os << ".PP\nThe Markdown documentation installed with kestrel (share/doc/kestrel: cli.md,\n"
       << "model\\-selection.md, model\\-format.md and one page per model under models/).\n";
}

std::string option_head(const OptionDoc& o) {
    std::vector<std::string> names;
    for (const auto& n : o.names) names.push_back(bold(n));
    std::string s = join_text(names, ", ");
    if (!o.value.empty()) s += " " + italic(o.value);
    return s;
}

std::string man_page(const CommandDoc& c, const CommandText& text) {
    std::ostringstream os;
    header(os, c.name, 1);
    std::string what = join_text(c.summary, " ");
    if (!what.empty()) what[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(what[0])));
    if (!what.empty() && what.back() == '.') what.pop_back();
    os << ".SH NAME\n" << roff(c.name) << " \\- " << roff(what) << "\n";
    os << ".SH SYNOPSIS\n.nf\n";
    for (const auto& s : c.synopsis) {
        if (s.rfind(c.name, 0) == 0) os << bold(c.name) << roff(s.substr(c.name.size())) << "\n";
        else os << roff(s) << "\n";
    }
    os << ".fi\n.SH DESCRIPTION\n" << roff(sentence(join_text(c.summary, " "))) << "\n";
    os << ".PP\nData files are CSV (a header row; the label column is named label, or is the first)\n"
       << "or LIBSVM sparse files, given by path or as \\- for standard input;\n"
       << "gzip, zstd, xz and bzip2 files are recognised by their first bytes and decompressed as they are read.\n"
       << "The models and their parameters are listed in\n.BR kestrel\\-models (7).\n";
    if (c.has_positionals) {
        os << ".SH ARGUMENTS\n";
        for (const auto& o : c.options)
            if (o.names.empty())
                os << ".TP\n" << italic(o.positional) << "\n" << roff(sentence(o.description)) << "\n";
    }
    os << ".SH OPTIONS\n";
    for (const auto& o : c.options) {
        if (o.names.empty()) continue;
        os << ".TP\n" << option_head(o) << "\n" << roff(sentence(o.description)) << "\n";
        std::vector<std::string> notes;
        if (!o.choices.empty()) notes.push_back("One of: " + join_text(o.choices, ", ") + ".");
        if (!o.default_value.empty()) notes.push_back("Default: " + o.default_value + ".");
        if (o.required) notes.push_back("Required.");
        if (!notes.empty()) os << roff(join_text(notes, " ")) << "\n";
    }
    exit_status(os);
    examples(os, text.examples);
    see_also(os, c.name);
    return os.str();
}

// --- the models ----------------------------------------------------------------------

std::string number(double x) {
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    std::ostringstream os;
    os << std::setprecision(6) << x;
    return os.str();
}

std::string value_text(const Json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_float()) return number(v.get<double>());
    if (v.is_object() && v.contains("model")) {
        std::string s = v["model"].get<std::string>();
        std::vector<std::string> kv;
        if (v.contains("params"))
            for (const auto& [k, x] : v["params"].items()) kv.push_back(k + "=" + value_text(x));
        return kv.empty() ? s : s + "(" + join_text(kv, ",") + ")";
    }
    return v.dump();
}

std::string range_text(const ParamDef& d) {
    std::string s;
    if (d.min && d.max) s = (d.min_open ? "(" : "[") + number(*d.min) + ", " + number(*d.max) + (d.max_open ? ")" : "]");
    else if (d.min) s = (d.min_open ? "> " : ">= ") + number(*d.min);
    else if (d.max) s = (d.max_open ? "< " : "<= ") + number(*d.max);
    if (!d.choices.empty()) s += (s.empty() ? "" : " or ") + join_text(d.choices, ", ");
    return s;
}

std::string models_page() {
    std::ostringstream os;
    header(os, "kestrel-models", 7);
    os << ".SH NAME\nkestrel\\-models \\- the models of kestrel and their parameters\n"
       << ".SH SYNOPSIS\n.nf\n"
       << bold("kestrel-train") << " \\-m " << italic("MODEL") << " [\\-p " << italic("name") << "=" << italic("value")
       << "]... " << italic("TRAIN_FILE") << " \\-o " << italic("MODEL.json") << "\n"
       << bold("kestrel-train") << " \\-\\-list\\-models\n"
       << bold("kestrel-train") << " \\-m " << italic("MODEL") << " \\-\\-help\\-params\n.fi\n"
       << ".SH DESCRIPTION\nEvery model that\n.BR kestrel\\-train (1),\n.BR kestrel\\-cv (1),\n"
       << ".BR kestrel\\-gridsearch (1)\nand\n.BR kestrel\\-select (1)\n"
       << "accept with \\-m, with its parameters, given as \\-p name=value (or as grid axes, \\-g).\n"
       << "Each parameter is listed with its type, default and valid values; \"like\" names the matching\n"
       << "option of LIBSVM, LIBLINEAR or scikit\\-learn. Integer and real values may be written 2^\\-5 or 1e\\-3;\n"
       << "booleans as 0/1 or true/false. This page is generated from the same parameter tables\n"
       << "that check \\-p values and print \\-\\-help\\-params.\n";
    os << ".SH MODELS\n";
    const auto& r = registry();
    for (const auto& name : r.names()) {
        const ModelInfo& m = r.info(name);
        std::vector<std::string> tasks;
        for (Task t : m.tasks) tasks.push_back(to_string(t));
        os << ".SS " << roff(name) << "\n" << roff(sentence(m.summary)) << "\n.br\nTasks: " << roff(join_text(tasks, ", "))
           << " (default " << roff(tasks.empty() ? "" : tasks.front()) << ")";
        if (m.multiclass == Multiclass::binary_only)
            os << "; binary, " << roff(m.default_strategy) << " for more than two classes";
        os << ".\n";
        for (const auto& d : m.spec.defs()) {
            os << ".TP\n" << bold(d.name) << "=" << italic(to_string(d.type)) << "\n" << roff(sentence(d.help)) << "\n.br\n";
            std::string facts = "Default " + value_text(d.default_value);
            const auto range = range_text(d);
            if (!range.empty()) facts += (d.type == ParamType::choice ? "; one of " : "; valid ") + range;
            if (!d.anchor.empty()) facts += "; like " + d.anchor;
            if (!d.aliases.empty()) facts += "; also called " + join_text(d.aliases, ", ");
            os << roff(facts + ".") << "\n";
        }
    }
    os << ".SH \"EXIT STATUS\"\nAn unknown model or parameter, a value of the wrong type or outside its valid\n"
       << "range, is a usage error: the command exits with status 1 before reading any data, with a\n"
       << "message listing what is valid.\n";
    examples(os, {{"The models, then one model's parameters:", "kestrel-train --list-models\nkestrel-train -m svc --help-params"},
                  {"A model with two parameters:", "kestrel-train -m svc -p C=4 -p gamma=0.1 data/iris/train.csv -o svc.json"}});
    see_also(os, "kestrel-models");
    return os.str();
}

// --- completion ------------------------------------------------------------------------

// A single-quoted shell word.
std::string sq(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::vector<std::string> param_values(const ParamDef& d) {
    std::vector<std::string> v = d.choices;
    if (d.type == ParamType::boolean) v = {"true", "false"};
    if (d.type == ParamType::model) v = registry().names();
    return v;
}

std::vector<std::string> all_metrics() {
    std::set<std::string> s;
    for (Task t : {Task::classification, Task::regression})
        for (const auto& m : metric_names(t)) s.insert(m);
    return {s.begin(), s.end()};
}

std::string bash_completion(const std::vector<CommandDoc>& docs, const std::string& helpers) {
    std::ostringstream os;
    const auto& r = registry();
    os << "# bash completion for kestrel-train, kestrel-predict, kestrel-cv, kestrel-gridsearch, kestrel-select, kestrel-explain, kestrel-auto and kestrel-export\n"
       << "# Generated by kestrel-docgen " << kestrel_version()
       << " from the commands' option declarations and the model registry; do not edit.\n\n"
       << "_kestrel_models=" << sq(join_text(r.names(), " ")) << "\n"
       << "_kestrel_metrics=" << sq(join_text(all_metrics(), " ")) << "\n\n";
    os << "# The parameters of model $1, as name= words.\n_kestrel_param_names() {\n    case $1 in\n";
    for (const auto& name : r.names()) {
        std::vector<std::string> p;
        for (const auto& d : r.spec(name).defs()) p.push_back(d.name + "=");
        os << "        " << name << ") echo " << sq(join_text(p, " ")) << " ;;\n";
    }
    os << "    esac\n}\n\n# The values of parameter $2 of model $1, where they are a closed set.\n"
       << "_kestrel_param_values() {\n    case $1:$2 in\n";
    for (const auto& name : r.names())
        for (const auto& d : r.spec(name).defs()) {
            const auto v = param_values(d);
            if (!v.empty()) os << "        " << name << ":" << d.name << ") echo " << sq(join_text(v, " ")) << " ;;\n";
        }
    os << "    esac\n}\n\n";
    os << helpers;
    for (const auto& c : docs) {
        std::string fn = "_" + c.name;
        std::replace(fn.begin(), fn.end(), '-', '_');
        std::vector<std::string> flags;
        std::map<ValueKind, std::vector<std::string>> by_kind;
        std::map<std::string, std::vector<std::string>> choices;  // "--scale" -> values
        for (const auto& o : c.options) {
            if (o.names.empty()) continue;
            for (const auto& n : o.names) flags.push_back(n);
            if (o.kind == ValueKind::none) continue;
            const std::string pattern = join_text(o.names, " | ");
            if (o.kind == ValueKind::choice) choices[pattern] = o.choices;
            else by_kind[o.kind].push_back(pattern);
        }
        os << fn << "() {\n    local cur prev model split pre\n    _kestrel_words\n    case $prev in\n";
        for (const auto& [pattern, values] : choices)
            os << "        " << pattern << ")\n            _kestrel_reply " << sq(join_text(values, " ")) << "\n            return\n            ;;\n";
        const std::vector<std::pair<ValueKind, std::string>> actions = {
            {ValueKind::model, "_kestrel_reply \"$_kestrel_models\""},
            {ValueKind::param, "_kestrel_param"},
            {ValueKind::metric, "_kestrel_reply \"$_kestrel_metrics\""},
            {ValueKind::file, "_kestrel_files"},
            {ValueKind::other, "COMPREPLY=()"},
        };
        for (const auto& [kind, action] : actions) {
            if (!by_kind.count(kind)) continue;
            os << "        " << join_text(by_kind[kind], " | ") << ")\n            " << action << "\n            return\n            ;;\n";
        }
        os << "    esac\n    if [[ $cur == -* ]]; then\n        _kestrel_reply " << sq(join_text(flags, " ")) << "\n        return\n    fi\n";
        os << "    " << (c.has_positionals ? "_kestrel_files" : "COMPREPLY=()") << "\n}\n";
        os << "complete -F " << fn << " " << c.name << "\n\n";
    }
    return os.str();
}

// A zsh _arguments message or description: no brackets or colons unescaped.
std::string zdesc(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '[' || c == ']' || c == ':' || c == '\\') out += '\\';
        if (c == '\'') out += "'\\''";
        else out += c;
    }
    return out;
}

std::string zsh_completion(const std::vector<CommandDoc>& docs) {
    std::ostringstream os;
    const auto& r = registry();
    std::vector<std::string> names;
    for (const auto& c : docs) names.push_back(c.name);
    os << "#compdef " << join_text(names, " ") << "\n"
       << "# zsh completion for kestrel. Generated by kestrel-docgen " << kestrel_version()
       << " from the commands' option declarations and the model registry; do not edit.\n\n";
    os << "_kestrel_models() {\n    local -a models=(\n";
    for (const auto& n : r.names()) os << "        " << sq(n + ":" + zdesc(r.info(n).summary)) << "\n";
    os << "    )\n    _describe -t models 'model' models\n}\n\n";
    os << "_kestrel_metrics() {\n    local -a metrics=(" << join_text(all_metrics(), " ") << ")\n"
       << "    _describe -t metrics 'metric' metrics\n}\n\n";
    os << "# -p / -g: the chosen model's parameters as name=, then a choice's values.\n"
       << "_kestrel_params() {\n    local model=${opt_args[-m]:-${opt_args[--model]}}\n    local -a params values\n"
       << "    if compset -P '*='; then\n        case $model:${IPREFIX%=} in\n";
    for (const auto& name : r.names())
        for (const auto& d : r.spec(name).defs()) {
            const auto v = param_values(d);
            if (!v.empty()) os << "            (" << name << ":" << d.name << ") values=(" << join_text(v, " ") << ") ;;\n";
        }
    os << "        esac\n        _describe -t values 'value' values\n        return\n    fi\n    case $model in\n";
    for (const auto& name : r.names()) {
        os << "        (" << name << ") params=(\n";
        for (const auto& d : r.spec(name).defs()) os << "            " << sq(d.name + "=:" + zdesc(d.help)) << "\n";
        os << "        ) ;;\n";
    }
    os << "    esac\n    _describe -t params 'parameter' params -S ''\n}\n\n";
    os << "_kestrel() {\n    case $service in\n";
    for (const auto& c : docs) {
        os << "        (" << c.name << ")\n            _arguments -s -S \\\n";
        for (const auto& o : c.options) {
            if (o.names.empty()) continue;
            std::string action;
            switch (o.kind) {
                case ValueKind::none: break;
                case ValueKind::file: action = ":file:_files"; break;
                case ValueKind::choice: action = ":" + zdesc(o.value) + ":(" + join_text(o.choices, " ") + ")"; break;
                case ValueKind::model: action = ":model:_kestrel_models"; break;
                case ValueKind::param: action = ":parameter:_kestrel_params"; break;
                case ValueKind::metric: action = ":metric:_kestrel_metrics"; break;
                case ValueKind::other: action = ":" + zdesc(o.value) + ": "; break;
            }
            const std::string excl = o.names.size() > 1 && !o.repeatable ? "(" + join_text(o.names, " ") + ")" : "";
            for (const auto& n : o.names) {
                const std::string name = o.kind == ValueKind::none ? n : n + (n.size() == 2 ? "+" : "=");
                os << "                " << sq((o.repeatable ? "*" : excl) + name + "[" + zdesc(o.description) + "]" + action)
                   << " \\\n";
            }
        }
        os << "                " << (c.has_positionals ? sq("*:file:_files") : "") << "\n            ;;\n";
    }
    os << "    esac\n}\n\n_kestrel \"$@\"\n";
    return os.str();
}

// --- output ----------------------------------------------------------------------------

void write_file(const std::filesystem::path& path, const std::string& text) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) throw OutputError(path.parent_path().string() + ": cannot create the directory: " + ec.message());
    write_file_atomically(path.string(), text);
}

int run(const std::vector<std::string>& args, cli::Io& io) {
    if (args.size() != 2 || args[0].empty() || args[0][0] == '-') {
        io.err << "usage: kestrel-docgen OUTDIR BASH_HELPERS\n";
        return static_cast<int>(ExitCode::usage);
    }
    const std::filesystem::path out = args[0];
    std::vector<CommandDoc> docs;
    for (const auto& c : commands()) docs.push_back(describe(c.name, c.body));
    for (std::size_t i = 0; i < docs.size(); ++i)
        write_file(out / "man" / (docs[i].name + ".1"), man_page(docs[i], commands()[i]));
    write_file(out / "man" / "kestrel-models.7", models_page());
    write_file(out / "completion" / "kestrel.bash", bash_completion(docs, read_whole_file(args[1])));
    write_file(out / "completion" / "_kestrel", zsh_completion(docs));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return kestrel::cli::main_entry(
        "kestrel-docgen", [](const std::vector<std::string>& args, kestrel::cli::Io& io) { return run(args, io); }, argc,
        argv);
}
