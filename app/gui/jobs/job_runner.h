#pragma once
// One worker thread that runs long jobs (GPU queries, benchmarks, profiling) in FIFO order,
// so a frame never waits for the GPU. Panels post jobs and read status(); a job reports
// progress and checks cancelled() at safe points. A job's exception becomes status().last_error.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace tclens::gui {

class JobProgress {
  public:
    // fraction in [0, 1] (clamped), message shown next to the progress bar.
    void report(float fraction, std::string message);
    bool cancelled() const;
    // The flag behind cancelled(), for code that polls an atomic between its own steps (e.g.
    // kernels::RunOptions::cancel). Valid while the job runs.
    const std::atomic<bool>& cancel_flag() const;

  private:
    friend class JobRunner;
    JobProgress(class JobRunner& runner, std::uint64_t id) : runner_(runner), id_(id) {}
    class JobRunner& runner_;
    std::uint64_t id_;
};

struct JobStatus {
    bool busy = false;           // a job is running
    std::string title;           // the running job's title
    float fraction = 0.0f;       // its last reported progress
    std::string message;         // its last reported message
    std::size_t queued = 0;      // jobs waiting behind it
    std::uint64_t finished = 0;  // jobs completed, cancelled or failed so far
    std::string last_error;      // "title: what()" of the last job that threw, else ""
};

class JobRunner {
  public:
    using Work = std::function<void(JobProgress&)>;

    JobRunner();
    ~JobRunner();  // cancels the running job, drops queued ones, joins the thread
    JobRunner(const JobRunner&) = delete;
    JobRunner& operator=(const JobRunner&) = delete;

    // Queues `work`; returns its id (ids start at 1 and increase).
    std::uint64_t post(std::string title, Work work);
    // Asks the running job to stop (it sees cancelled() == true); queued jobs stay.
    void cancel_current();
    // cancel_current() and drop every queued job.
    void cancel_all();
    JobStatus status() const;
    // Blocks until no job is running or queued; false if `timeout` passed first.
    bool wait_idle(std::chrono::milliseconds timeout);

  private:
    friend class JobProgress;
    struct Job {
        std::uint64_t id;
        std::string title;
        Work work;
    };
    void worker_loop();

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable idle_;
    std::deque<Job> queue_;
    JobStatus status_;
    std::uint64_t next_id_ = 1;
    std::uint64_t running_id_ = 0;
    std::atomic<bool> cancel_running_{false};  // the running job is asked to stop
    bool stopping_ = false;
    std::thread worker_;  // last: started after every other member exists
};

}  // namespace tclens::gui
