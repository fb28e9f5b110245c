#include "app/worker/stderr_tail.h"

#include <unistd.h>

#include "app/worker/line_io.h"

namespace tclens::worker {
namespace {

// More of a stderr line than this is not worth keeping for a one-line error.
constexpr std::size_t kMaxStderrLine = 64 * 1024;
// What is held back before pass_on(): the start of a login's chatter, never all of it.
constexpr std::size_t kMaxHeld = 64 * 1024;

void write_all(const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(STDERR_FILENO, text.data() + done, text.size() - done);
        if (n <= 0) return;  // nowhere to write: the lines are lost, the worker goes on
        done += static_cast<std::size_t>(n);
    }
}

}  // namespace

StderrTail::StderrTail(int fd) : fd_(fd), thread_([this] { read_all(); }) {}

StderrTail::~StderrTail() { finish(); }

void StderrTail::read_all() {
    LineReader reader(fd_, kMaxStderrLine);
    for (;;) {
        std::string line;
        const LineReader::Status status = reader.read_line(line, std::nullopt, &stop_);
        if (status == LineReader::Status::kLine) {
            take(std::move(line));
        } else if (status != LineReader::Status::kTooLong) {
            break;
        }
    }
    std::lock_guard<std::mutex> lock(mutex_);
    at_end_ = true;
    ended_.notify_all();
}

void StderrTail::take(std::string line) {
    std::string shown = line + "\n";
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
        line.pop_back();
    std::lock_guard<std::mutex> lock(mutex_);
    if (!line.empty()) last_ = line;
    if (passing_) {
        write_all(shown);
    } else if (held_.size() + shown.size() <= kMaxHeld) {
        held_ += shown;
    }
}

void StderrTail::pass_on() {
    std::lock_guard<std::mutex> lock(mutex_);
    passing_ = true;
    write_all(held_);
    held_.clear();
}

void StderrTail::finish(std::chrono::milliseconds grace) {
    if (!thread_.joinable()) return;
    {
        std::unique_lock<std::mutex> lock(mutex_);
        ended_.wait_for(lock, grace, [this] { return at_end_; });
    }
    stop_ = true;
    thread_.join();
}

std::string StderrTail::last_line() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return last_;
}

}  // namespace tclens::worker
