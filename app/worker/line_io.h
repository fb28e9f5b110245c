#pragma once
// Lines over file descriptors (pipes), the transport of the worker protocol: a reader that waits
// for a whole '\n'-terminated line until a deadline, and a writer that never raises SIGPIPE.
// POSIX only; no CUDA.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tclens::worker {

using Clock = std::chrono::steady_clock;

class LineReader {
  public:
    // Reads from `fd` (not owned), refusing lines longer than `max_line` bytes.
    LineReader(int fd, std::size_t max_line);

    enum class Status {
        kLine,     // `line` holds the next line, without its '\n'
        kEnd,      // the other end closed (a partial last line is dropped)
        kTimeout,  // no whole line before the deadline; a later call goes on where this stopped
        kTooLong,  // a line longer than max_line: skipped up to its '\n' by the next calls
        kError,    // read() failed; `line` holds strerror
        kStopped,  // *stop was set
    };
    static constexpr std::chrono::milliseconds kStopCheck{100};

    // Waits for the next line until `deadline` (forever without one); a deadline that has passed
    // reads what has already arrived without waiting (a look between a stream's updates).
    // Interrupted system calls are retried. With `stop`, it also looks at *stop at least every
    // kStopCheck and returns kStopped once it is set.
    Status read_line(std::string& line, std::optional<Clock::time_point> deadline = std::nullopt,
                     const std::atomic<bool>* stop = nullptr);

  private:
    int fd_;
    std::size_t max_line_;
    std::string buffer_;
    bool skipping_ = false;  // inside a line that was too long, dropping bytes up to its '\n'
};

// Writes `text` and a '\n' to `fd`, all of it. False when the other end is closed (EPIPE) or
// write() fails otherwise; SIGPIPE is held back for the call, so a dead reader cannot kill us.
bool write_line(int fd, std::string_view text);

}  // namespace tclens::worker
