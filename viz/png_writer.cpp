#include "viz/png_writer.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/atomic_file.h"
#include "common/gzip.h"

namespace {

// stb_image_write's deflate, as STBIW_ZLIB_COMPRESS wants it (a malloc'd buffer, its length in
// `out_length`), done by zlib: a 1920x1080 lecture screenshot in 109 ms and 215 KB, where stb's
// own took 181 ms and 294 KB (every UI test writes one or more).
unsigned char* zlib_for_stb(unsigned char* data, int length, int* out_length, int /*quality*/) {
    const std::string packed = tclens::common::zlib_compress(
        {reinterpret_cast<const char*>(data), static_cast<std::size_t>(length)});
    auto* out = static_cast<unsigned char*>(std::malloc(packed.size()));
    if (packed.empty() || out == nullptr) {
        std::free(out);
        return nullptr;
    }
    std::memcpy(out, packed.data(), packed.size());
    *out_length = static_cast<int>(packed.size());
    return out;
}

}  // namespace

#define STBIW_ZLIB_COMPRESS zlib_for_stb
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>

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
