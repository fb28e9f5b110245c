#include "viz/png_writer.h"

#include <cerrno>
#include <cstring>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>

#include "common/atomic_file.h"

namespace tclens::viz {

std::string write_png(const RgbaImage& image, const std::string& path) {
    if (image.width <= 0 || image.height <= 0 ||
        image.pixels.size() != static_cast<size_t>(image.width) * image.height * 4) {
        return "cannot write " + path + ": image is empty or its pixel buffer has the wrong size";
    }
    const int stride = image.width * 4;
    return common::write_file_atomically(path, [&](const std::string& temporary) -> std::string {
        errno = 0;
        if (stbi_write_png(temporary.c_str(), image.width, image.height, 4, image.pixels.data(),
                           stride)) {
            return "";
        }
        return errno ? std::strerror(errno) : "PNG encoder failed";
    });
}

}  // namespace tclens::viz
