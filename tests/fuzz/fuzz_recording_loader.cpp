// libFuzzer harness for the recording loader (profiling/recording.h): load_recording on a file
// holding the input, then the JSON round trip of what it loaded.
//
// Input: the file's bytes. The file is an in-memory one (memfd), opened by its /proc path, so
// that every run goes through the real loader (size checks, read, parse, schema) without disk.
// Invariants:
//   - the loader either loads or gives one error that names the path and what is wrong;
//   - deferring the bulk (load_recording_deferring_bulk) reads the same recording, or refuses
//     with the same error, or finds the bulk damaged when it is asked for;
//   - a loaded recording written out (to_json, dumped as text) loads again, and writing that
//     one out gives the same text.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "profiling/recording.h"
#include "tests/fuzz/fuzz_support.h"

namespace tclens::fuzz {
namespace {

// One in-memory file for the whole run, rewritten for each input.
class MemoryFile {
  public:
    MemoryFile() : fd_(memfd_create("tclens_fuzz_recording", 0)) {
        TCLENS_FUZZ_CHECK(fd_ >= 0, "memfd_create failed");
        path_ = "/proc/self/fd/" + std::to_string(fd_);
    }
    const std::string& path() const { return path_; }
    void hold(const std::uint8_t* data, std::size_t size) {
        TCLENS_FUZZ_CHECK(ftruncate(fd_, 0) == 0, "ftruncate failed");
        std::size_t written = 0;
        while (written < size) {
            const ssize_t now =
                pwrite(fd_, data + written, size - written, static_cast<off_t>(written));
            TCLENS_FUZZ_CHECK(now > 0, "pwrite failed");
            written += static_cast<std::size_t>(now);
        }
    }

  private:
    int fd_;
    std::string path_;
};

void check_round_trip(const profiling::Recording& recording) {
    const std::string text = profiling::to_json(recording).dump(1);
    profiling::Recording again;
    std::string error;
    TCLENS_FUZZ_CHECK(profiling::recording_from_json(nlohmann::json::parse(text), again, error),
                      "a loaded recording, written out, does not load: " + error);
    TCLENS_FUZZ_CHECK(error.empty(), error);
    // Compared as text: JSON has no NaN, so a NaN field (read from null) is written as null
    // again, while as json values NaN != NaN.
    TCLENS_FUZZ_CHECK(profiling::to_json(again).dump(1) == text,
                      "a loaded recording changes when written out and loaded again:\n" + text);
}

}  // namespace
}  // namespace tclens::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tclens;
    static fuzz::MemoryFile file;
    file.hold(data, size);

    profiling::Recording recording, deferred;
    std::string error, deferred_error;
    const bool whole = profiling::load_recording(file.path(), recording, error);
    const bool light =
        profiling::load_recording_deferring_bulk(file.path(), deferred, deferred_error);
    if (!whole) {
        const std::string prefix = "cannot open recording " + file.path() + ": ";
        TCLENS_FUZZ_CHECK(
            error.size() > prefix.size() && error.compare(0, prefix.size(), prefix) == 0, error);
        // Deferred, the same refusal, or a bulk that says it is damaged when asked for.
        TCLENS_FUZZ_CHECK(
            light ? deferred.bulk && !deferred.bulk->error().empty() : deferred_error == error,
            error + " / " + deferred_error);
        return 0;
    }
    TCLENS_FUZZ_CHECK(light, "read whole but not deferred: " + deferred_error);
    TCLENS_FUZZ_CHECK(profiling::to_json(deferred).dump(1) == profiling::to_json(recording).dump(1),
                      "the deferred read differs from the whole one");
    TCLENS_FUZZ_CHECK(error.empty(), error);
    TCLENS_FUZZ_CHECK(recording.schema_version == profiling::kRecordingSchemaVersion,
                      std::to_string(recording.schema_version));
    fuzz::check_round_trip(recording);
    return 0;
}
