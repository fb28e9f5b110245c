#pragma once
// A user's file watched for saves, as `tclens watch` and the GUI's Watch toggle see them. The
// file is polled (stat, every ~100 ms) rather than watched through inotify, so that editors that
// save by renaming a new file over the old one, network folders and ssh workers all work.
//
// poll() is called at each look; it returns the file's text when a new save has settled:
//   - the file exists and its (size, modification time) differ from the last version taken;
//   - they have stayed the same since the previous poll (an editor may still be writing);
//   - the text differs from the last version's (a save without a change is no new version).
// The first settled look at an existing file is a save too (version 1), unless the watcher was
// started with the text already built (`built_text`), which then counts as the last version.
// A missing file is no save; `missing()` says so, for a "waiting for FILE" line.

#include <cstdint>
#include <optional>
#include <string>

namespace tclens::worker {

struct FileStamp {
    bool exists = false;
    std::int64_t mtime_ns = 0;
    std::int64_t size = 0;
    bool operator==(const FileStamp& o) const {
        return exists == o.exists && mtime_ns == o.mtime_ns && size == o.size;
    }
    bool operator!=(const FileStamp& o) const { return !(*this == o); }
};

// stat() of `path`; exists false when it cannot be read.
FileStamp file_stamp(const std::string& path);

// The whole file as bytes; nullopt when it cannot be opened or read.
std::optional<std::string> read_file_text(const std::string& path);

class WatchedFile {
  public:
    explicit WatchedFile(std::string path, std::optional<std::string> built_text = std::nullopt);

    // The text of a settled new save, else nullopt (see the top).
    std::optional<std::string> poll();

    bool missing() const { return missing_; }
    const std::string& path() const { return path_; }
    // The modification time of the save poll() returned last (0 before any).
    std::int64_t taken_mtime_ns() const { return taken_.mtime_ns; }

  private:
    std::string path_;
    FileStamp taken_;    // the stamp of the last version taken
    FileStamp pending_;  // what the last poll saw, not yet taken
    std::optional<std::string> taken_text_;
    bool missing_ = false;
};

}  // namespace tclens::worker
