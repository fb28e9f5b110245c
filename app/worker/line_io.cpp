#include "app/worker/line_io.h"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>

namespace tclens::worker {

LineReader::LineReader(int fd, std::size_t max_line) : fd_(fd), max_line_(max_line) {}

LineReader::Status LineReader::read_line(std::string& line,
                                         std::optional<Clock::time_point> deadline,
                                         const std::atomic<bool>* stop) {
    char chunk[64 * 1024];
    for (;;) {
        if (skipping_) {
            const std::size_t end = buffer_.find('\n');
            if (end == std::string::npos) {
                buffer_.clear();
            } else {
                buffer_.erase(0, end + 1);
                skipping_ = false;
            }
        }
        if (!skipping_) {
            const std::size_t end = buffer_.find('\n');
            if (end != std::string::npos && end <= max_line_) {
                line.assign(buffer_, 0, end);
                buffer_.erase(0, end + 1);
                return Status::kLine;
            }
            if (end != std::string::npos || buffer_.size() > max_line_) {
                skipping_ = true;
                return Status::kTooLong;
            }
        }
        if (stop != nullptr && stop->load()) return Status::kStopped;
        int wait_ms = -1;
        if (deadline) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now());
            // Past the deadline, one look without waiting: what has arrived is still read.
            wait_ms = left.count() <= 0
                          ? 0
                          : static_cast<int>(std::min<long long>(left.count() + 1, 1 << 30));
        }
        if (stop != nullptr && (wait_ms < 0 || wait_ms > kStopCheck.count()))
            wait_ms = static_cast<int>(kStopCheck.count());
        pollfd poll_fd{fd_, POLLIN, 0};
        const int ready = poll(&poll_fd, 1, wait_ms);
        if (ready < 0) {
            if (errno == EINTR) continue;
            line = std::strerror(errno);
            return Status::kError;
        }
        if (ready == 0) {
            if (deadline && Clock::now() >= *deadline) return Status::kTimeout;
            continue;
        }
        const ssize_t got = read(fd_, chunk, sizeof chunk);
        if (got < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            line = std::strerror(errno);
            return Status::kError;
        }
        if (got == 0) return Status::kEnd;
        buffer_.append(chunk, static_cast<std::size_t>(got));
    }
}

bool write_line(int fd, std::string_view text) {
    // Hold SIGPIPE back in this thread; if the write raised one, take it off the pending set
    // before letting signals through again (unless one was pending already).
    sigset_t pipe_only, previous;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    const bool was_pending = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_only, &previous);

    std::string data(text);
    data += '\n';
    bool ok = true;
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t wrote = write(fd, data.data() + done, data.size() - done);
        if (wrote < 0) {
            if (errno == EINTR) continue;
            ok = false;
            if (errno == EPIPE && !was_pending) {
                const timespec no_wait{0, 0};
                sigtimedwait(&pipe_only, nullptr, &no_wait);
            }
            break;
        }
        done += static_cast<std::size_t>(wrote);
    }
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    return ok;
}

}  // namespace tclens::worker
