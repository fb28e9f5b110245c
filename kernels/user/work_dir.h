#pragma once
// A folder for one compiled user kernel (shim, library, cubin), removed with its contents when
// the last owner lets go, unless it was given by the caller (then it is left as it is).

#include <memory>
#include <string>

#include "common/expected.h"

namespace tclens::kernels::user {

class WorkDir {
  public:
    // `given` = "": a fresh folder "tclens-user-XXXXXX" under $TMPDIR (or /tmp), owned; else
    // `given` itself (created if missing), not owned. Error: one line naming the folder.
    static common::Expected<std::shared_ptr<WorkDir>> create(const std::string& given);
    ~WorkDir();
    WorkDir(const WorkDir&) = delete;
    WorkDir& operator=(const WorkDir&) = delete;

    const std::string& path() const { return path_; }
    // path() + "/" + name.
    std::string file(const std::string& name) const { return path_ + "/" + name; }

  private:
    WorkDir(std::string path, bool owned) : path_(std::move(path)), owned_(owned) {}
    std::string path_;
    bool owned_ = false;
};

}  // namespace tclens::kernels::user
