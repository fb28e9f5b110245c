#include "app/gui/jobs/bench_job.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "kernels/problem_text.h"
#include "app/gui/app_context.h"

namespace tclens::gui {
namespace {

// Mirrors JobProgress::cancelled() into an atomic that RunOptions::cancel can point at, by
// polling on a thread of its own: the runner checks that atomic between launches, which can
// be milliseconds apart inside one run, while the bench's progress callback only comes between
// runs (a naive kernel at 8192^3 runs for many seconds).
class CancelMirror {
public:
    explicit CancelMirror(const JobProgress& progress)
        : thread_([this, &progress] {
              std::unique_lock lock(mutex_);
              while (!done_) {
                  if (progress.cancelled()) {
                      flag.store(true);
                      return;
                  }
                  wake_.wait_for(lock, std::chrono::milliseconds(20));
              }
          }) {}
    ~CancelMirror() {
        {
            std::lock_guard lock(mutex_);
            done_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    CancelMirror(const CancelMirror&) = delete;
    CancelMirror& operator=(const CancelMirror&) = delete;

    std::atomic<bool> flag{false};

private:
    std::mutex mutex_;
    std::condition_variable wake_;
    bool done_ = false;
    std::thread thread_;  // last: started after the members it uses exist
};

// "" when the request names at least one known kernel and one size, else why not.
std::string request_error(const kernels::BenchRequest& request) {
    if (request.kernel_ids.empty()) return "no kernels selected";
    if (request.problems.empty()) return "no sizes given";
    std::string error;
    kernels::bench_kernels(request.kernel_ids, error);
    return error;
}

}  // namespace

std::uint64_t request_bench(AppContext& context, kernels::BenchRequest request) {
    request.run.cancel = nullptr;
    return context.jobs.post(kBenchJobTitle, [&context, request](JobProgress& progress) {
        auto result = std::make_shared<BenchResults>();
        result->request = request;
        const auto system = context.system.latest();
        if (system && system->has_gpu()) result->device = system->devices.front().name;
        result->error = request_error(request);
        if (!result->error.empty()) {
            context.bench_results.publish(std::move(result));
            return;
        }
        progress.report(0.0f, "initialising CUDA");
        kernels::GemmRunner runner;
        if (!runner.init_error().empty()) {
            result->error = runner.init_error();
            context.bench_results.publish(std::move(result));
            return;
        }
        CancelMirror cancel(progress);
        kernels::BenchRequest run = request;
        run.run.cancel = &cancel.flag;
        if (run.measure_peaks) progress.report(0.0f, "measuring peaks");
        result->report = kernels::run_bench(
            run, runner,
            [&progress](int index, int total, const kernels::KernelDescriptor& kernel,
                        const kernels::GemmProblem& problem) {
                progress.report(float(index) / float(total),
                                std::to_string(index + 1) + "/" + std::to_string(total) + " " +
                                    kernel.id + " " + kernels::problem_text(problem));
            });
        result->cancelled = cancel.flag.load();
        context.bench_results.publish(std::move(result));
    });
}

}  // namespace tclens::gui
