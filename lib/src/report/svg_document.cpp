#include "svg_document.hpp"

#include "svg_text.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace kestrel::report::detail {

SvgDocument::SvgDocument(double width, double height, const std::string& title) {
    const std::string w = coord(width), h = coord(height);
    body_ = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + w + "\" height=\"" + h +
            "\" viewBox=\"0 0 " + w + " " + h +
            "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\" fill=\"#222222\">\n";
    if (!title.empty()) body_ += "<title>" + xml_escape(title) + "</title>\n";
    body_ += "<rect class=\"background\" x=\"0\" y=\"0\" width=\"" + w + "\" height=\"" + h + "\" fill=\"#ffffff\"/>\n";
}

void SvgDocument::clip_rect(const std::string& id, double x, double y, double w, double h) {
    body_ += "<defs><clipPath id=\"" + xml_escape(id) + "\"><rect x=\"" + coord(x) + "\" y=\"" + coord(y) +
             "\" width=\"" + coord(w) + "\" height=\"" + coord(h) + "\"/></clipPath></defs>\n";
}

void SvgDocument::raw(std::string_view markup) { body_ += markup; }

void SvgDocument::text(double x, double y, const std::string& content, const char* anchor, const char* cls,
                       const std::string& extra, const std::string& superscript) {
    body_ += "<text class=\"" + std::string(cls) + "\" x=\"" + coord(x) + "\" y=\"" + coord(y) + "\" text-anchor=\"" +
             anchor + "\"" + (extra.empty() ? "" : " " + extra) + ">" + xml_escape(content);
    if (!superscript.empty()) body_ += "<tspan dy=\"-6\" font-size=\"9\">" + xml_escape(superscript) + "</tspan>";
    body_ += "</text>\n";
}

FittedTitle fit_title(double width, const std::string& title) {
    const double room = std::max(width - 2 * kTitleMargin, 1.0);
    const double natural = text_width(title, kTitleFont);
    if (natural <= room) return {kTitleFont, title};
    // Half-pixel steps keep the attribute short and the bytes stable across machines.
    const double shrunk = std::floor(kTitleFont * room / natural * 2) / 2;
    if (shrunk >= kMinTitleFont) return {shrunk, title};
    // Still too wide at the smallest legible size: keep both ends (the chart's kind and
    // the file's name), drop the middle, by whole UTF-8 code points.
    std::vector<std::size_t> starts;  // byte offsets of the code points
    for (std::size_t i = 0; i < title.size(); ++i)
        if ((static_cast<unsigned char>(title[i]) & 0xC0) != 0x80) starts.push_back(i);
    const std::string ellipsis = "\xE2\x80\xA6";  // U+2026
    std::size_t keep = starts.size();
    std::string text = title;
    while (keep > 1 && text_width(text, kMinTitleFont) > room) {
        --keep;
        const std::size_t head = (keep + 1) / 2, tail = keep - head;
        const std::size_t head_end = starts[head];
        const std::size_t tail_start = starts[starts.size() - tail];
        text = title.substr(0, head_end) + ellipsis + (tail > 0 ? title.substr(tail_start) : std::string());
    }
    return {kMinTitleFont, text};
}

void SvgDocument::title(double width, double y, const std::string& content) {
    const FittedTitle t = fit_title(width, content);
    text(width / 2, y, t.text, "middle", "title", "font-size=\"" + coord(t.font_size) + "\" font-weight=\"bold\"");
}

std::string SvgDocument::finish() {
    body_ += "</svg>\n";
    return std::move(body_);
}

}  // namespace kestrel::report::detail
