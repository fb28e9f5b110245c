#include "viz/palette.h"

#include <algorithm>
#include <cmath>

namespace tclens::viz {

namespace {

constexpr Rgba rgb(unsigned hex) {
    return {static_cast<std::uint8_t>(hex >> 16), static_cast<std::uint8_t>(hex >> 8),
            static_cast<std::uint8_t>(hex), 255};
}

// Relative luminance (Rec. 709 weights on the sRGB values), 0..255; good enough to choose
// between a light and a dark label.
float luminance(Rgba c) { return 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b; }

// HSV (hue in turns, saturation and value in 0..1) -> opaque RGB.
Rgba hsv(float hue, float saturation, float value) {
    const float h = 6.0f * (hue - std::floor(hue));
    const int sector = static_cast<int>(h) % 6;
    const float f = h - std::floor(h);
    const float p = value * (1.0f - saturation);
    const float q = value * (1.0f - saturation * f);
    const float t = value * (1.0f - saturation * (1.0f - f));
    const float rgb_of[6][3] = {{value, t, p}, {q, value, p}, {p, value, t},
                                {p, q, value}, {t, p, value}, {value, p, q}};
    auto byte = [](float c) { return static_cast<std::uint8_t>(std::lround(255.0f * c)); };
    return {byte(rgb_of[sector][0]), byte(rgb_of[sector][1]), byte(rgb_of[sector][2]), 255};
}

std::vector<Rgba> hue_ramp(int count, float saturation, float value) {
    std::vector<Rgba> ramp;
    for (int i = 0; i < count; ++i) {
        ramp.push_back(hsv(static_cast<float>(i) / static_cast<float>(count), saturation, value));
    }
    return ramp;
}

constexpr int kBanks = 32;

}  // namespace

const Palette& dark_palette() {
    static const Palette palette{
        "dark",
        rgb(0x1b1d23),
        rgb(0xe6e6e6),
        rgb(0x0f1014),
        rgb(0xffd84a),
        {rgb(0x3b6ea5), rgb(0xc0622f), rgb(0x3f8f4f), rgb(0xb8434a), rgb(0x7e5aa8), rgb(0x8c6a3f),
         rgb(0xb0508f), rgb(0x5f6b78), rgb(0x6f7d25), rgb(0x2f8f8f), rgb(0x4b55a8), rgb(0x9a7a22)},
        // light blue, dark blue, orange, mauve, pale yellow
        {rgb(0x78aee0), rgb(0x3a5fa8), rgb(0xc8781e), rgb(0xb070a8), rgb(0xe8e08c)},
        rgb(0x4a8fd6),  // better: blue
        rgb(0xd9822b),  // worse: orange
        rgb(0x5f6b78),  // no better direction: grey
    };
    return palette;
}

const Palette& high_contrast_palette() {
    static const Palette palette{
        "high-contrast",
        rgb(0x000000),
        rgb(0xffffff),
        rgb(0x000000),
        rgb(0xffffff),
        {rgb(0xe69f00), rgb(0x56b4e9), rgb(0x009e73), rgb(0xf0e442), rgb(0x0072b2), rgb(0xd55e00),
         rgb(0xcc79a7), rgb(0x999999)},
        // Okabe-Ito sky blue, blue, orange, reddish purple; a pale yellow
        {rgb(0x56b4e9), rgb(0x0072b2), rgb(0xe69f00), rgb(0xcc79a7), rgb(0xfff58a)},
        rgb(0x56b4e9),  // better: Okabe-Ito sky blue
        rgb(0xe69f00),  // worse: orange
        rgb(0x999999),  // no better direction: grey
    };
    return palette;
}

int conflict_bucket(int degree) {
    int bucket = 0;
    while (bucket + 1 < kConflictBuckets && (1 << bucket) < degree) ++bucket;
    return bucket;
}

std::string conflict_bucket_label(int bucket) {
    if (bucket <= 0) return "1";
    if (bucket == 1) return "2";
    return std::to_string((1 << (bucket - 1)) + 1) + "-" + std::to_string(1 << bucket);
}

const BankPalette& dark_bank_palette() {
    static const BankPalette palette{
        "dark",
        hue_ramp(kBanks, 0.55f, 0.78f),
        rgb(0x2a2d35),
        {rgb(0x2f7f6f), rgb(0xb9a235), rgb(0xd67a2a), rgb(0xc8402f), rgb(0xa82a78), rgb(0x8a4fd8)},
    };
    return palette;
}

const BankPalette& high_contrast_bank_palette() {
    static const BankPalette palette{
        "high-contrast",
        hue_ramp(kBanks, 0.85f, 1.0f),
        rgb(0x202020),
        {rgb(0x009e73), rgb(0xf0e442), rgb(0xe69f00), rgb(0xff3b1f), rgb(0xff2fd0), rgb(0xb98cff)},
    };
    return palette;
}

const Rgba& bank_colour(const BankPalette& palette, int bank) {
    const int size = static_cast<int>(palette.banks.size());
    const int wrapped = bank % size;
    return palette.banks[static_cast<size_t>(wrapped < 0 ? wrapped + size : wrapped)];
}

const Rgba& conflict_colour(const BankPalette& palette, int degree) {
    if (degree <= 0) return palette.idle;
    const size_t bucket = static_cast<size_t>(conflict_bucket(degree));
    return palette.heat[std::min(bucket, palette.heat.size() - 1)];
}

namespace {

const Rgba& wrapped_at(const std::vector<Rgba>& colours, int index) {
    const int size = static_cast<int>(colours.size());
    const int wrapped = index % size;
    return colours[static_cast<size_t>(wrapped < 0 ? wrapped + size : wrapped)];
}

}  // namespace

const Rgba& category_colour(const Palette& palette, int index) {
    return wrapped_at(palette.categories, index);
}

const Rgba& precision_colour(const Palette& palette, int precision) {
    return wrapped_at(palette.precisions, precision);
}

Rgba label_colour_on(const Palette& palette, Rgba fill) {
    const float l = luminance(fill);
    const float to_text =
        l > luminance(palette.text) ? l - luminance(palette.text) : luminance(palette.text) - l;
    const float to_background = l > luminance(palette.background)
                                    ? l - luminance(palette.background)
                                    : luminance(palette.background) - l;
    return to_text >= to_background ? palette.text : palette.background;
}

}  // namespace tclens::viz
