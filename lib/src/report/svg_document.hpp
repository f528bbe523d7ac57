#pragma once
// A standalone SVG document assembled as text: the root element with a white
// background and a <title>, then elements appended in drawing order.
#include <string>
#include <string_view>

namespace kestrel::report::detail {

inline constexpr double kTitleFont = 15, kMinTitleFont = 10, kTitleMargin = 12;

// The font size and text of a title fitted into `width` by the rule of SvgDocument::title.
struct FittedTitle {
    double font_size;
    std::string text;
};
FittedTitle fit_title(double width, const std::string& title);

class SvgDocument {
public:
    SvgDocument(double width, double height, const std::string& title);
    // A rectangular clip path that later elements name as clip-path="url(#id)".
    void clip_rect(const std::string& id, double x, double y, double w, double h);
    // Appends markup as it is (the caller escapes any text in it).
    void raw(std::string_view markup);
    // <text class="cls"> at (x, y) with text-anchor start|middle|end; `extra` is more
    // attributes; `superscript` is appended raised (log axis labels "10" + "-3").
    void text(double x, double y, const std::string& content, const char* anchor, const char* cls,
              const std::string& extra = "", const std::string& superscript = "");
    // The chart's title (class "title"), bold and centred on a document `width` wide, at
    // 15 px, shrunk to no less than kMinTitleFont when it is wider than the document less
    // its margins, and beyond that shortened in the middle with an ellipsis; the <title>
    // element keeps it whole. Every chart's title goes through here: one rule.
    void title(double width, double y, const std::string& content);
    std::string finish();

private:
    std::string body_;
};

}  // namespace kestrel::report::detail
