#include "viz/png_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>

namespace tclens::viz {

std::string write_png(const RgbaImage& image, const std::string& path) {
    if (image.width <= 0 || image.height <= 0 ||
        image.pixels.size() != static_cast<size_t>(image.width) * image.height * 4) {
        return "cannot write " + path + ": image is empty or its pixel buffer has the wrong size";
    }
    const std::string temporary = path + ".tmp";
    const int stride = image.width * 4;
    errno = 0;
    if (!stbi_write_png(temporary.c_str(), image.width, image.height, 4, image.pixels.data(),
                        stride)) {
        const std::string reason = errno ? std::strerror(errno) : "PNG encoder failed";
        std::remove(temporary.c_str());
        return "cannot write " + path + ": " + reason;
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        std::remove(temporary.c_str());
        return "cannot write " + path + ": " + reason;
    }
    return "";
}

}  // namespace tclens::viz
