#include "kernels/user/work_dir.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

namespace tclens::kernels::user {

common::Expected<std::shared_ptr<WorkDir>> WorkDir::create(const std::string& given) {
    using Result = common::Expected<std::shared_ptr<WorkDir>>;
    if (!given.empty()) {
        std::error_code error;
        std::filesystem::create_directories(given, error);
        if (error || !std::filesystem::is_directory(given)) {
            return Result::failure("work folder '" + given + "' cannot be made: " +
                                   (error ? error.message() : "not a folder"));
        }
        return Result::success(std::shared_ptr<WorkDir>(new WorkDir(given, false)));
    }
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/tclens-user-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (mkdtemp(buffer.data()) == nullptr) {
        return Result::failure("cannot make a work folder " + pattern + ": " +
                               std::strerror(errno));
    }
    return Result::success(std::shared_ptr<WorkDir>(new WorkDir(buffer.data(), true)));
}

WorkDir::~WorkDir() {
    if (!owned_) return;
    std::error_code ignored;  // nothing useful to do about a folder that will not go
    std::filesystem::remove_all(path_, ignored);
}

}  // namespace tclens::kernels::user
