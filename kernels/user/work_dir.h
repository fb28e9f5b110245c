#pragma once
// A folder for one compiled user kernel (shim, library, cubin), removed with its contents when
// the last owner lets go, unless it was given by the caller (then it is left as it is).
// On a server shared by a class, what a worker writes stays private to its user: a fresh folder is
// made by mkdtemp (mode 0700) and checked to be a real folder (not a link) of this user with no
// access for others before anything is written to it; the loader opens a library only from there
// (holds()).

#include <memory>
#include <string>

#include "common/expected.h"

namespace tclens::kernels::user {

// "" when `path` is a folder, not a link, owned by this process's user, with no access for group
// or others (mode 0700 or tighter); else why not, one line naming it.
std::string private_folder_problem(const std::string& path);

class WorkDir {
  public:
    // `given` = "": a fresh private folder "tclens-user-XXXXXX" under $XDG_RUNTIME_DIR, else
    // $TMPDIR, else /tmp (the first that is set and not empty), owned; else `given` itself
    // (created if missing), not owned. Error: one line naming the folder.
    static common::Expected<std::shared_ptr<WorkDir>> create(const std::string& given);
    ~WorkDir();
    WorkDir(const WorkDir&) = delete;
    WorkDir& operator=(const WorkDir&) = delete;

    const std::string& path() const { return path_; }
    // path() + "/" + name.
    std::string file(const std::string& name) const { return path_ + "/" + name; }
    // True when `file` is a path inside this folder (lexically: no "..", no link followed).
    bool holds(const std::string& file) const;

  private:
    WorkDir(std::string path, bool owned) : path_(std::move(path)), owned_(owned) {}
    std::string path_;
    bool owned_ = false;
};

}  // namespace tclens::kernels::user
