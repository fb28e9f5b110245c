#include "common/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace tclens::common {

std::string write_file_atomically(
    const std::string& path,
    const std::function<std::string(const std::string& temporary)>& write) {
    const std::string temporary = path + ".tmp";
    std::string reason = write(temporary);
    if (reason.empty() && std::rename(temporary.c_str(), path.c_str()) != 0) {
        reason = std::strerror(errno);
    }
    if (reason.empty()) return "";
    std::remove(temporary.c_str());
    return "cannot write " + path + ": " + reason;
}

std::string write_bytes_atomically(const std::string& path, std::string_view bytes) {
    return write_file_atomically(path, [bytes](const std::string& temporary) -> std::string {
        std::FILE* file = std::fopen(temporary.c_str(), "wb");
        if (!file) return std::strerror(errno);
        const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
        const int write_errno = errno;
        const bool closed = std::fclose(file) == 0;
        if (written && closed) return "";
        const int code = written ? errno : write_errno;
        return code ? std::strerror(code) : "write failed";
    });
}

}  // namespace tclens::common
