#include "viz/palette.h"

namespace tclens::viz {

namespace {

constexpr Rgba rgb(unsigned hex) {
    return {static_cast<std::uint8_t>(hex >> 16), static_cast<std::uint8_t>(hex >> 8),
            static_cast<std::uint8_t>(hex), 255};
}

// Relative luminance (Rec. 709 weights on the sRGB values), 0..255; good enough to choose
// between a light and a dark label.
float luminance(Rgba c) { return 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b; }

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
    };
    return palette;
}

const Rgba& category_colour(const Palette& palette, int index) {
    const int size = static_cast<int>(palette.categories.size());
    const int wrapped = index % size;
    return palette.categories[static_cast<size_t>(wrapped < 0 ? wrapped + size : wrapped)];
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
