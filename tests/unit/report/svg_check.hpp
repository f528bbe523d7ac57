#pragma once
// A strict little XML reader for the tests: enough of XML 1.0 to prove an SVG is
// well-formed (one root, tags closed in order, attributes quoted and unique, only the
// predefined entities) and to list its elements with their attributes and text.
#include <cctype>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace kestrel::test {

struct XmlElement {
    std::string name;
    std::map<std::string, std::string> attrs;
    std::string text;  // direct and nested character data, entities decoded
};

namespace xml_detail {

inline std::string decode(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '<') throw std::runtime_error("raw '<' in character data");
        if (s[i] != '&') {
            out += s[i];
            continue;
        }
        const auto semi = s.find(';', i);
        if (semi == std::string::npos) throw std::runtime_error("unterminated entity");
        const std::string e = s.substr(i + 1, semi - i - 1);
        if (e == "amp") out += '&';
        else if (e == "lt") out += '<';
        else if (e == "gt") out += '>';
        else if (e == "quot") out += '"';
        else if (e == "apos") out += '\'';
        else throw std::runtime_error("unknown entity &" + e + ";");
        i = semi;
    }
    return out;
}

inline bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' || c == '.';
}

}  // namespace xml_detail

// Throws std::runtime_error describing the first problem.
inline std::vector<XmlElement> parse_xml(const std::string& doc) {
    using namespace xml_detail;
    std::vector<XmlElement> all;
    std::vector<std::size_t> open;  // indices into all
    std::size_t i = 0, roots = 0;
    if (doc.rfind("<?xml", 0) == 0) i = doc.find("?>") + 2;
    while (i < doc.size()) {
        const auto lt = doc.find('<', i);
        const std::string text = doc.substr(i, lt == std::string::npos ? std::string::npos : lt - i);
        const std::string decoded = decode(text);
        if (open.empty() && decoded.find_first_not_of(" \t\r\n") != std::string::npos)
            throw std::runtime_error("text outside the root element");
        for (std::size_t o : open) all[o].text += decoded;
        if (lt == std::string::npos) break;
        if (doc.compare(lt, 4, "<!--") == 0) {
            i = doc.find("-->", lt) + 3;
            continue;
        }
        const auto gt = doc.find('>', lt);
        if (gt == std::string::npos) throw std::runtime_error("unterminated tag");
        std::string tag = doc.substr(lt + 1, gt - lt - 1);
        i = gt + 1;
        if (!tag.empty() && tag[0] == '/') {
            const std::string name = tag.substr(1);
            if (open.empty() || all[open.back()].name != name) throw std::runtime_error("mismatched </" + name + ">");
            open.pop_back();
            continue;
        }
        const bool self_closing = !tag.empty() && tag.back() == '/';
        if (self_closing) tag.pop_back();
        XmlElement e;
        std::size_t p = 0;
        while (p < tag.size() && name_char(tag[p])) e.name += tag[p++];
        if (e.name.empty()) throw std::runtime_error("tag without a name");
        while (true) {
            while (p < tag.size() && std::isspace(static_cast<unsigned char>(tag[p]))) ++p;
            if (p >= tag.size()) break;
            std::string key;
            while (p < tag.size() && name_char(tag[p])) key += tag[p++];
            if (key.empty() || p + 1 >= tag.size() || tag[p] != '=' || (tag[p + 1] != '"' && tag[p + 1] != '\''))
                throw std::runtime_error("bad attribute in <" + e.name + ">");
            const char q = tag[p + 1];
            const auto end = tag.find(q, p + 2);
            if (end == std::string::npos) throw std::runtime_error("unterminated attribute " + key);
            if (e.attrs.count(key)) throw std::runtime_error("duplicate attribute " + key);
            e.attrs[key] = decode(tag.substr(p + 2, end - p - 2));
            p = end + 1;
        }
        if (open.empty() && ++roots > 1) throw std::runtime_error("more than one root element");
        all.push_back(e);
        if (!self_closing) open.push_back(all.size() - 1);
    }
    if (!open.empty()) throw std::runtime_error("unclosed <" + all[open.back()].name + ">");
    if (roots != 1) throw std::runtime_error("no root element");
    return all;
}

inline std::vector<XmlElement> elements_named(const std::vector<XmlElement>& all, const std::string& name,
                                              const std::string& cls = "") {
    std::vector<XmlElement> out;
    for (const auto& e : all)
        if (e.name == name && (cls.empty() || (e.attrs.count("class") && e.attrs.at("class") == cls))) out.push_back(e);
    return out;
}

}  // namespace kestrel::test
