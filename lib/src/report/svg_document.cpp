#include "svg_document.hpp"

#include "svg_text.hpp"

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

std::string SvgDocument::finish() {
    body_ += "</svg>\n";
    return std::move(body_);
}

}  // namespace kestrel::report::detail
