#include "viz/svg_export.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "common/atomic_file.h"

namespace tclens::viz {

namespace {

// Baseline of a line of text of height `size`, below its top: the ascent of common monospace
// fonts at font-size == line height.
constexpr float kBaselineFraction = 0.8f;

// `value` rounded to two decimals, without trailing zeros ("12", "12.5", "-0.25").
void append_number(std::string& out, float value) {
    long long hundredths = std::llround(static_cast<double>(value) * 100.0);
    if (hundredths < 0) {
        out += '-';
        hundredths = -hundredths;
    }
    out += std::to_string(hundredths / 100);
    const int fraction = static_cast<int>(hundredths % 100);
    if (fraction != 0) {
        out += '.';
        out += static_cast<char>('0' + fraction / 10);
        if (fraction % 10 != 0) out += static_cast<char>('0' + fraction % 10);
    }
}

void append_attribute(std::string& out, const char* name, float value) {
    out += ' ';
    out += name;
    out += "=\"";
    append_number(out, value);
    out += '"';
}

// name="#rrggbb" plus name-opacity="..." when not opaque.
void append_colour(std::string& out, const char* name, Rgba colour) {
    static const char kHex[] = "0123456789abcdef";
    out += ' ';
    out += name;
    out += "=\"#";
    for (std::uint8_t channel : {colour.r, colour.g, colour.b}) {
        out += kHex[channel >> 4];
        out += kHex[channel & 15];
    }
    out += '"';
    if (colour.a != 255) {
        out += ' ';
        out += name;
        out += "-opacity=\"";
        append_number(out, colour.a / 255.0f);
        out += '"';
    }
}

// XML character data: markup characters escaped, bytes outside printable ASCII shown as '?'.
void append_escaped(std::string& out, const std::string& text) {
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += (c >= 32 && c < 127) ? c : '?';
        }
    }
}

void append_rect(std::string& out, const DrawRect& rect) {
    const bool stroked = rect.stroke.a != 0 && rect.stroke_width > 0;
    // The outline sits inside the rect (draw_list.h): SVG centres it on the edge, so inset the
    // geometry by half its width; the stroke's outer half then covers the inset fill margin.
    const float inset = stroked ? 0.5f * rect.stroke_width : 0.0f;
    out += "<rect";
    append_attribute(out, "x", rect.x + inset);
    append_attribute(out, "y", rect.y + inset);
    append_attribute(out, "width", std::fmax(0.0f, rect.w - 2 * inset));
    append_attribute(out, "height", std::fmax(0.0f, rect.h - 2 * inset));
    if (rect.fill.a == 0) {
        out += " fill=\"none\"";
    } else {
        append_colour(out, "fill", rect.fill);
    }
    if (stroked) {
        append_colour(out, "stroke", rect.stroke);
        append_attribute(out, "stroke-width", rect.stroke_width);
    }
    out += "/>\n";
}

void append_line(std::string& out, const DrawLine& line) {
    out += "<line";
    append_attribute(out, "x1", line.x0);
    append_attribute(out, "y1", line.y0);
    append_attribute(out, "x2", line.x1);
    append_attribute(out, "y2", line.y1);
    append_colour(out, "stroke", line.colour);
    append_attribute(out, "stroke-width", line.width);
    out += "/>\n";
}

void append_text(std::string& out, const DrawText& text) {
    out += "<text";
    append_attribute(out, "x", text.x);
    append_attribute(out, "y", text.y + kBaselineFraction * text.size);
    append_attribute(out, "font-size", text.size);
    append_colour(out, "fill", text.colour);
    if (text.align == TextAlign::kCenter) out += " text-anchor=\"middle\"";
    out += '>';
    append_escaped(out, text.text);
    out += "</text>\n";
}

}  // namespace

std::string to_svg(const DrawList& list) {
    std::string out;
    out.reserve(128 + list.rects.size() * 96 + list.texts.size() * 112);
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\"";
    append_attribute(out, "width", list.width);
    append_attribute(out, "height", list.height);
    out += " viewBox=\"0 0 ";
    append_number(out, list.width);
    out += ' ';
    append_number(out, list.height);
    out += "\" font-family=\"monospace\">\n";
    out += "<path class=\"background\" d=\"M0 0H";
    append_number(out, list.width);
    out += 'V';
    append_number(out, list.height);
    out += "H0Z\"";
    append_colour(out, "fill", list.background);
    out += "/>\n";
    for (const DrawRect& rect : list.rects) append_rect(out, rect);
    for (const DrawLine& line : list.lines) append_line(out, line);
    for (const DrawText& text : list.texts) append_text(out, text);
    out += "</svg>\n";
    return out;
}

std::string write_svg(const DrawList& list, const std::string& path) {
    return common::write_bytes_atomically(path, to_svg(list));
}

}  // namespace tclens::viz
