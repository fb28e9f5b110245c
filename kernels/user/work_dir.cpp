#include "kernels/user/work_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

namespace tclens::kernels::user {
namespace {

// Where fresh work folders go: the first of these that is set and not empty.
std::string temp_base() {
    for (const char* variable : {"XDG_RUNTIME_DIR", "TMPDIR"}) {
        const char* value = std::getenv(variable);
        if (value != nullptr && *value != '\0') return value;
    }
    return "/tmp";
}

}  // namespace

std::string private_folder_problem(const std::string& path) {
    struct stat facts {};
    if (lstat(path.c_str(), &facts) != 0)
        return "work folder '" + path + "': " + std::strerror(errno);
    if (!S_ISDIR(facts.st_mode)) return "work folder '" + path + "' is not a folder (or a link)";
    if (facts.st_uid != geteuid()) {
        return "work folder '" + path + "' belongs to user " + std::to_string(facts.st_uid) +
               ", not to this one (" + std::to_string(geteuid()) + ")";
    }
    if ((facts.st_mode & 077) != 0) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%03o", static_cast<unsigned>(facts.st_mode & 0777));
        return "work folder '" + path + "' has mode " + mode +
               ": others could change what is loaded from it (0700 needed)";
    }
    return "";
}

bool WorkDir::holds(const std::string& file) const {
    const std::string prefix = path_ + "/";
    return file.size() > prefix.size() && file.compare(0, prefix.size(), prefix) == 0 &&
           file.find("/../") == std::string::npos &&
           file.find("/..", file.size() - 3) == std::string::npos;
}

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
    const std::string pattern = temp_base() + "/tclens-user-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (mkdtemp(buffer.data()) == nullptr) {
        return Result::failure("cannot make a work folder " + pattern + ": " +
                               std::strerror(errno));
    }
    auto made = std::shared_ptr<WorkDir>(new WorkDir(buffer.data(), true));  // removed if refused
    if (const std::string bad = private_folder_problem(made->path()); !bad.empty())
        return Result::failure(bad);
    return Result::success(made);
}

WorkDir::~WorkDir() {
    if (!owned_) return;
    std::error_code ignored;  // nothing useful to do about a folder that will not go
    std::filesystem::remove_all(path_, ignored);
}

}  // namespace tclens::kernels::user
