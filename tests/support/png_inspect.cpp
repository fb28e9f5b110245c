#include "tests/support/png_inspect.h"

#include <set>

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#include <stb_image.h>

namespace tclens::test {

PngFacts inspect_png(const std::string& path) {
    PngFacts facts;
    int channels = 0;
    unsigned char* data = stbi_load(path.c_str(), &facts.width, &facts.height, &channels, 4);
    if (!data) return facts;
    facts.loaded = true;
    facts.rgba.assign(data, data + size_t(facts.width) * facts.height * 4);
    stbi_image_free(data);

    std::set<std::uint32_t> colours;
    for (int y = 0; y < facts.height; ++y) {
        bool row_has_text = false;
        for (int x = 0; x < facts.width; ++x) {
            const std::uint8_t* p = &facts.rgba[(size_t(y) * facts.width + x) * 4];
            colours.insert(std::uint32_t(p[0]) << 16 | std::uint32_t(p[1]) << 8 | p[2]);
            if (p[0] > 200 && p[1] > 200 && p[2] > 200) {
                ++facts.text_pixels;
                row_has_text = true;
            }
        }
        facts.text_rows += row_has_text;
    }
    facts.distinct_colours = static_cast<int>(colours.size());
    return facts;
}

}  // namespace tclens::test
