#pragma once
// A child's stderr read on a thread of its own (a worker reached through ssh): it keeps the last
// line that was not blank, so that a link that fails can be told in one line ("cannot reach
// gpu1: ssh: Could not resolve hostname gpu1: ..."), and, once pass_on() was called, copies
// every line to this process's stderr (what the worker and the user's kernel print).
// Lines read before pass_on() are held back: a start that fails shows only the client's one line.

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace tclens::worker {

class StderrTail {
  public:
    // Reads `fd` (not owned) until its end or finish(); the fd must stay open until then.
    explicit StderrTail(int fd);
    // finish(), if not called yet.
    ~StderrTail();
    StderrTail(const StderrTail&) = delete;
    StderrTail& operator=(const StderrTail&) = delete;

    // From now on, lines go to this process's stderr too, the ones held so far first.
    void pass_on();
    // Waits up to `grace` for the end of the stream (a child that exited has written all it
    // will), then stops reading. Call it before the fd is closed.
    void finish(std::chrono::milliseconds grace = std::chrono::milliseconds(300));
    // The last line that was not blank, trailing spaces and '\r' removed; "" when none.
    std::string last_line() const;

  private:
    void read_all();
    void take(std::string line);

    int fd_;
    std::atomic<bool> stop_{false};
    mutable std::mutex mutex_;
    std::condition_variable ended_;
    bool at_end_ = false;
    bool passing_ = false;
    std::string held_;  // lines read before pass_on(), each with its '\n'
    std::string last_;
    std::thread thread_;
};

}  // namespace tclens::worker
