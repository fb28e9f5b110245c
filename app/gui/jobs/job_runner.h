#pragma once
// One worker thread that runs long jobs (GPU queries, benchmarks, profiling) in FIFO order,
// so a frame never waits for the GPU. post() returns a JobHandle: the poster reads its job's
// state (queued, running, done, failed, cancelled), progress and message through it and cancels
// it, queued or running, with no need to tell its job from others. A job reports progress and
// checks cancelled() at safe points; its exception fails it ("title: what()"). status() is the
// runner as a whole, for the shell's status bar.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace tclens::gui {

namespace detail {
struct JobBoard;
struct JobRecord;
}  // namespace detail

enum class JobState {
    kQueued,     // waiting behind other jobs
    kRunning,    // on the worker thread
    kDone,       // returned
    kFailed,     // threw: JobSnapshot::error says what
    kCancelled,  // cancelled while queued, or returned after it was asked to stop
};

// One job as its handle sees it at one moment.
struct JobSnapshot {
    std::uint64_t id = 0;  // 0: no job (a default JobHandle)
    std::string title;
    JobState state = JobState::kDone;
    float fraction = 0.0f;  // kRunning: its last reported progress, in [0, 1]
    std::string message;    // kRunning: its last reported message
    std::string error;      // kFailed: "title: what()"
    std::size_t ahead = 0;  // kQueued: jobs that run before it, the running one included
    bool active() const { return state == JobState::kQueued || state == JobState::kRunning; }
};

// The poster's hold on one job. Copies share the job; a handle may outlive the job and the
// runner: it then keeps reporting how the job ended. A default handle holds no job.
class JobHandle {
  public:
    JobHandle() = default;
    explicit operator bool() const { return job_ != nullptr; }
    JobSnapshot snapshot() const;
    // Queued: the job leaves the queue and never runs (kCancelled at once). Running: the job
    // sees cancelled() == true and is kCancelled when it returns. Finished or empty: nothing.
    void cancel() const;

  private:
    friend class JobRunner;
    JobHandle(std::shared_ptr<detail::JobBoard> board, std::shared_ptr<detail::JobRecord> job)
        : board_(std::move(board)), job_(std::move(job)) {}
    std::shared_ptr<detail::JobBoard> board_;
    std::shared_ptr<detail::JobRecord> job_;
};

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
    JobProgress(detail::JobBoard& board, detail::JobRecord& job) : board_(board), job_(job) {}
    detail::JobBoard& board_;
    detail::JobRecord& job_;
};

// The runner as a whole, for the status bar.
struct JobStatus {
    bool busy = false;           // a job is running
    std::string title;           // the running job's title
    float fraction = 0.0f;       // its last reported progress
    std::string message;         // its last reported message
    std::size_t queued = 0;      // jobs waiting behind it
    std::uint64_t finished = 0;  // jobs done, failed or cancelled so far
    std::string last_error;      // JobSnapshot::error of the last job that failed, else ""
};

class JobRunner {
  public:
    using Work = std::function<void(JobProgress&)>;

    JobRunner();
    ~JobRunner();  // cancels the running job and every queued one, joins the thread
    JobRunner(const JobRunner&) = delete;
    JobRunner& operator=(const JobRunner&) = delete;

    // Queues `work`. Ids start at 1 and increase.
    JobHandle post(std::string title, Work work);
    // Asks the running job to stop (it sees cancelled() == true); queued jobs stay.
    void cancel_current();
    // cancel_current() and cancel every queued job.
    void cancel_all();
    JobStatus status() const;
    // Blocks until no job is running or queued; false if `timeout` passed first.
    bool wait_idle(std::chrono::milliseconds timeout);

  private:
    void worker_loop();

    std::shared_ptr<detail::JobBoard> board_;  // shared with every handle
    std::uint64_t next_id_ = 1;                // guarded by the board's mutex
    std::thread worker_;                       // last: started after every other member exists
};

}  // namespace tclens::gui
