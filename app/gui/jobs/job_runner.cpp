#include "app/gui/jobs/job_runner.h"

#include <algorithm>
#include <exception>

namespace tclens::gui {

void JobProgress::report(float fraction, std::string message) {
    std::lock_guard lock(runner_.mutex_);
    if (runner_.running_id_ != id_) return;
    runner_.status_.fraction = std::clamp(fraction, 0.0f, 1.0f);
    runner_.status_.message = std::move(message);
}

bool JobProgress::cancelled() const { return runner_.cancel_running_.load(); }

const std::atomic<bool>& JobProgress::cancel_flag() const { return runner_.cancel_running_; }

JobRunner::JobRunner() : worker_([this] { worker_loop(); }) {}

JobRunner::~JobRunner() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        cancel_running_ = true;
        queue_.clear();
    }
    wake_.notify_all();
    worker_.join();
}

std::uint64_t JobRunner::post(std::string title, Work work) {
    std::uint64_t id;
    {
        std::lock_guard lock(mutex_);
        id = next_id_++;
        queue_.push_back(Job{id, std::move(title), std::move(work)});
        status_.queued = queue_.size();
    }
    wake_.notify_one();
    return id;
}

void JobRunner::cancel_current() {
    std::lock_guard lock(mutex_);
    if (running_id_ != 0) cancel_running_ = true;
}

void JobRunner::cancel_all() {
    std::lock_guard lock(mutex_);
    if (running_id_ != 0) cancel_running_ = true;
    status_.finished += queue_.size();
    queue_.clear();
    status_.queued = 0;
    if (running_id_ == 0) idle_.notify_all();
}

JobStatus JobRunner::status() const {
    std::lock_guard lock(mutex_);
    return status_;
}

bool JobRunner::wait_idle(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return idle_.wait_for(lock, timeout, [this] { return running_id_ == 0 && queue_.empty(); });
}

void JobRunner::worker_loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (stopping_) return;
        Job job = std::move(queue_.front());
        queue_.pop_front();
        running_id_ = job.id;
        cancel_running_ = false;
        status_.busy = true;
        status_.title = job.title;
        status_.fraction = 0.0f;
        status_.message.clear();
        status_.queued = queue_.size();
        lock.unlock();

        JobProgress progress(*this, job.id);
        std::string error;
        try {
            job.work(progress);
        } catch (const std::exception& e) {
            error = job.title + ": " + e.what();
        } catch (...) {
            error = job.title + ": unknown error";
        }

        lock.lock();
        if (!error.empty()) status_.last_error = error;
        running_id_ = 0;
        status_.busy = false;
        status_.title.clear();
        status_.message.clear();
        status_.fraction = 0.0f;
        ++status_.finished;
        if (queue_.empty()) idle_.notify_all();
    }
}

}  // namespace tclens::gui
