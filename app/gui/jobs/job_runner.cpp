#include "app/gui/jobs/job_runner.h"

#include <algorithm>
#include <deque>
#include <exception>
#include <mutex>
#include <vector>

namespace tclens::gui {
namespace detail {

// One posted job. Every field but `cancel` is guarded by its board's mutex.
struct JobRecord {
    std::uint64_t id = 0;
    std::string title;
    JobRunner::Work work;  // released once the job has run or was cancelled
    JobState state = JobState::kQueued;
    float fraction = 0.0f;
    std::string message;
    std::string error;
    std::atomic<bool> cancel{false};  // the job is asked to stop
};

// The runner's queue and the state every handle reads; outlives the runner while handles do.
struct JobBoard {
    std::mutex mutex;
    std::condition_variable wake;  // a job was queued, or the runner stops
    std::condition_variable idle;  // nothing runs and nothing is queued
    std::deque<std::shared_ptr<JobRecord>> queue;
    std::shared_ptr<JobRecord> running;
    bool stopping = false;
    std::uint64_t finished = 0;
    std::string last_error;

    bool is_idle() const { return running == nullptr && queue.empty(); }
    // Marks a job that will never run as cancelled; returns its work, to be released unlocked.
    JobRunner::Work drop(JobRecord& job) {
        job.state = JobState::kCancelled;
        ++finished;
        return std::move(job.work);
    }
};

}  // namespace detail

JobSnapshot JobHandle::snapshot() const {
    JobSnapshot snapshot;
    if (!job_) return snapshot;
    std::lock_guard lock(board_->mutex);
    snapshot.id = job_->id;
    snapshot.title = job_->title;
    snapshot.state = job_->state;
    snapshot.fraction = job_->fraction;
    snapshot.message = job_->message;
    snapshot.error = job_->error;
    if (job_->state == JobState::kQueued) {
        const auto& queue = board_->queue;
        const auto at = std::find(queue.begin(), queue.end(), job_);
        snapshot.ahead = std::size_t(at - queue.begin()) + (board_->running ? 1 : 0);
    }
    return snapshot;
}

void JobHandle::cancel() const {
    if (!job_) return;
    JobRunner::Work released;
    std::lock_guard lock(board_->mutex);
    if (job_->state == JobState::kRunning) {
        job_->cancel = true;
    } else if (job_->state == JobState::kQueued) {
        auto& queue = board_->queue;
        queue.erase(std::find(queue.begin(), queue.end(), job_));
        released = board_->drop(*job_);
        if (board_->is_idle()) board_->idle.notify_all();
    }
}

void JobProgress::report(float fraction, std::string message) {
    std::lock_guard lock(board_.mutex);
    job_.fraction = std::clamp(fraction, 0.0f, 1.0f);
    job_.message = std::move(message);
}

bool JobProgress::cancelled() const { return job_.cancel.load(); }

const std::atomic<bool>& JobProgress::cancel_flag() const { return job_.cancel; }

JobRunner::JobRunner()
    : board_(std::make_shared<detail::JobBoard>()), worker_([this] { worker_loop(); }) {}

JobRunner::~JobRunner() {
    std::vector<Work> released;
    {
        std::lock_guard lock(board_->mutex);
        board_->stopping = true;
        if (board_->running) board_->running->cancel = true;
        for (const auto& job : board_->queue) released.push_back(board_->drop(*job));
        board_->queue.clear();
    }
    board_->wake.notify_all();
    worker_.join();
}

JobHandle JobRunner::post(std::string title, Work work) {
    auto job = std::make_shared<detail::JobRecord>();
    job->title = std::move(title);
    job->work = std::move(work);
    {
        std::lock_guard lock(board_->mutex);
        job->id = next_id_++;
        board_->queue.push_back(job);
    }
    board_->wake.notify_one();
    return JobHandle(board_, std::move(job));
}

void JobRunner::cancel_current() {
    std::lock_guard lock(board_->mutex);
    if (board_->running) board_->running->cancel = true;
}

void JobRunner::cancel_all() {
    std::vector<Work> released;
    std::lock_guard lock(board_->mutex);
    if (board_->running) board_->running->cancel = true;
    for (const auto& job : board_->queue) released.push_back(board_->drop(*job));
    board_->queue.clear();
    if (board_->is_idle()) board_->idle.notify_all();
}

JobStatus JobRunner::status() const {
    std::lock_guard lock(board_->mutex);
    JobStatus status;
    if (const auto& job = board_->running) {
        status.busy = true;
        status.title = job->title;
        status.fraction = job->fraction;
        status.message = job->message;
    }
    status.queued = board_->queue.size();
    status.finished = board_->finished;
    status.last_error = board_->last_error;
    return status;
}

bool JobRunner::wait_idle(std::chrono::milliseconds timeout) {
    std::unique_lock lock(board_->mutex);
    return board_->idle.wait_for(lock, timeout, [this] { return board_->is_idle(); });
}

void JobRunner::worker_loop() {
    detail::JobBoard& board = *board_;
    std::unique_lock lock(board.mutex);
    for (;;) {
        board.wake.wait(lock, [&] { return board.stopping || !board.queue.empty(); });
        if (board.stopping) return;
        const std::shared_ptr<detail::JobRecord> job = board.queue.front();
        board.queue.pop_front();
        board.running = job;
        job->state = JobState::kRunning;
        Work work = std::move(job->work);
        lock.unlock();

        JobProgress progress(board, *job);
        std::string error;
        try {
            work(progress);
        } catch (const std::exception& e) {
            error = job->title + ": " + e.what();
        } catch (...) {
            error = job->title + ": unknown error";
        }
        work = nullptr;  // the job's captures go before it counts as finished

        lock.lock();
        if (!error.empty()) {
            job->state = JobState::kFailed;
            job->error = error;
            board.last_error = error;
        } else {
            job->state = job->cancel ? JobState::kCancelled : JobState::kDone;
        }
        job->message.clear();
        board.running = nullptr;
        ++board.finished;
        if (board.is_idle()) board.idle.notify_all();
    }
}

}  // namespace tclens::gui
