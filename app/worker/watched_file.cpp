#include "app/worker/watched_file.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <utility>

namespace tclens::worker {

FileStamp file_stamp(const std::string& path) {
    struct stat facts {};
    if (stat(path.c_str(), &facts) != 0) return {};
    return {true,
            static_cast<std::int64_t>(facts.st_mtim.tv_sec) * 1'000'000'000 + facts.st_mtim.tv_nsec,
            static_cast<std::int64_t>(facts.st_size)};
}

std::optional<std::string> read_file_text(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return std::nullopt;
    std::ostringstream bytes;
    bytes << file.rdbuf();
    if (!file && !file.eof()) return std::nullopt;
    return bytes.str();
}

WatchedFile::WatchedFile(std::string path, std::optional<std::string> built_text)
    : path_(std::move(path)), taken_text_(std::move(built_text)) {
    if (taken_text_) taken_ = file_stamp(path_);
}

std::optional<std::string> WatchedFile::poll() {
    const FileStamp now = file_stamp(path_);
    missing_ = !now.exists;
    if (!now.exists || (taken_text_ && now == taken_)) {
        pending_ = now;
        return std::nullopt;
    }
    const bool settled = now == pending_;
    pending_ = now;
    if (!settled) return std::nullopt;
    std::optional<std::string> text = read_file_text(path_);
    if (!text) return std::nullopt;
    taken_ = now;
    if (taken_text_ && *text == *taken_text_) return std::nullopt;  // saved without a change
    taken_text_ = text;
    return text;
}

}  // namespace tclens::worker
