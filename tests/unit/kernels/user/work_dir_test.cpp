// Tests for kernels/user/work_dir.*: a worker's work folder is fresh, private to its user (mode
// 0700, owned by it), made under $XDG_RUNTIME_DIR, $TMPDIR or /tmp, removed when let go, and the
// loader's check holds() accepts only files inside it.

#include "kernels/user/work_dir.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

namespace tclens::kernels::user {
namespace {

// Sets (or, with nullopt, unsets) an environment variable for one test.
class ScopedVariable {
  public:
    ScopedVariable(const char* name, const std::optional<std::string>& value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value) {
            setenv(name, value->c_str(), 1);
        } else {
            unsetenv(name);
        }
    }
    ~ScopedVariable() {
        if (old_) {
            setenv(name_, old_->c_str(), 1);
        } else {
            unsetenv(name_);
        }
    }

  private:
    const char* name_;
    std::optional<std::string> old_;
};

std::string scratch(const std::string& name) {
    const std::string path =
        (std::filesystem::temp_directory_path() / (name + "-" + std::to_string(getpid()))).string();
    std::filesystem::create_directories(path);
    return path;
}

TEST(WorkDir, AFreshFolderIsPrivateToItsUser) {
    const std::string base = scratch("tclens-work-dir-test");
    ScopedVariable runtime("XDG_RUNTIME_DIR", base);
    std::string path;
    {
        const auto work = WorkDir::create("");
        ASSERT_TRUE(work) << work.error();
        path = (*work)->path();
        EXPECT_EQ(path.rfind(base + "/tclens-user-", 0), 0u) << path;
        struct stat facts {};
        ASSERT_EQ(lstat(path.c_str(), &facts), 0);
        EXPECT_TRUE(S_ISDIR(facts.st_mode));
        EXPECT_EQ(facts.st_mode & 0777, 0700u);
        EXPECT_EQ(facts.st_uid, geteuid());
        EXPECT_EQ(private_folder_problem(path), "");
    }
    EXPECT_FALSE(std::filesystem::exists(path));  // removed when the last owner let go
    std::filesystem::remove_all(base);
}

TEST(WorkDir, WithoutXdgRuntimeDirItGoesToTmpdir) {
    const std::string base = scratch("tclens-work-dir-tmp");
    ScopedVariable runtime("XDG_RUNTIME_DIR", std::nullopt);
    ScopedVariable tmp("TMPDIR", base);
    const auto work = WorkDir::create("");
    ASSERT_TRUE(work) << work.error();
    EXPECT_EQ((*work)->path().rfind(base + "/tclens-user-", 0), 0u) << (*work)->path();
    std::filesystem::remove_all(base);
}

TEST(WorkDir, AFolderOthersCanWriteOrALinkIsNotPrivate) {
    const std::string base = scratch("tclens-work-dir-open");
    chmod(base.c_str(), 0755);
    EXPECT_NE(private_folder_problem(base).find("has mode 755"), std::string::npos)
        << private_folder_problem(base);
    const std::string link = base + "-link";
    std::filesystem::remove(link);
    chmod(base.c_str(), 0700);
    std::filesystem::create_directory_symlink(base, link);
    EXPECT_NE(private_folder_problem(link).find("is not a folder (or a link)"), std::string::npos)
        << private_folder_problem(link);
    EXPECT_NE(private_folder_problem(base + "/missing").find("No such file"), std::string::npos);
    std::filesystem::remove(link);
    std::filesystem::remove_all(base);
}

TEST(WorkDir, HoldsOnlyFilesInsideIt) {
    const std::string base = scratch("tclens-work-dir-holds");
    const auto work = WorkDir::create(base);
    ASSERT_TRUE(work) << work.error();
    EXPECT_TRUE((*work)->holds(base + "/libtclens_user.so"));
    EXPECT_TRUE((*work)->holds(base + "/keep/tclens_shim.cubin"));
    EXPECT_FALSE((*work)->holds(base));
    EXPECT_FALSE((*work)->holds(base + "/"));
    EXPECT_FALSE((*work)->holds(base + "x/lib.so"));
    EXPECT_FALSE((*work)->holds(base + "/../lib.so"));
    EXPECT_FALSE((*work)->holds(base + "/a/.."));
    EXPECT_FALSE((*work)->holds("/tmp/libevil.so"));
    std::filesystem::remove_all(base);
}

}  // namespace
}  // namespace tclens::kernels::user
