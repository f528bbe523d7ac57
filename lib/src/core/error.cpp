#include "kestrel/core/error.hpp"

namespace kestrel {

std::string SourceLocation::to_string() const {
    std::string s = file.empty() ? std::string("<input>") : file;
    if (line > 0) {
        s += ':' + std::to_string(line);
        if (column > 0) s += ':' + std::to_string(column);
    }
    return s;
}

ErrorText& ErrorText::operator+=(const ErrorText& more) {
    const std::size_t shift = text_.size();
    text_ += more.text_;
    for (OptionMention m : more.mentions_) {
        m.at += shift;
        mentions_.push_back(std::move(m));
    }
    return *this;
}

std::string ErrorText::respelled(const std::function<std::string(const std::string& key)>& spelling) const {
    std::string out;
    std::size_t from = 0;
    for (const auto& m : mentions_) {
        // Mentions are in text order and inside the text (operator+= keeps them so); a
        // hand-made list that is not is shown as the library wrote it.
        if (m.at < from || m.at + m.length > text_.size()) return text_;
        out.append(text_, from, m.at - from);
        const std::string spelled = spelling(m.key);
        if (spelled.empty())
            out.append(text_, m.at, m.length);
        else
            out += spelled;
        from = m.at + m.length;
    }
    out.append(text_, from, std::string::npos);
    return out;
}

ErrorText option_named(const std::string& key) {
    const std::size_t dot = key.rfind('.');
    std::string shown = dot == std::string::npos ? key : key.substr(dot + 1);
    const std::size_t length = shown.size();
    return ErrorText(std::move(shown), {{0, length, key}});
}

ErrorText operator+(ErrorText a, const ErrorText& b) {
    a += b;
    return a;
}

ErrorText operator+(ErrorText a, std::string_view b) {
    a += b;
    return a;
}

ErrorText operator+(std::string_view a, const ErrorText& b) {
    ErrorText out{std::string(a)};
    out += b;
    return out;
}

Error::Error(ExitCode code, const ErrorText& what)
    : std::runtime_error(what.text()),
      code_(code),
      mentions_(what.mentions().empty()
                    ? nullptr
                    : std::make_shared<const std::vector<ErrorText::OptionMention>>(what.mentions())) {}

ErrorText Error::text() const {
    return mentions_ ? ErrorText(what(), *mentions_) : ErrorText(what());
}

}  // namespace kestrel
