#include "app/worker/bench_spread.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "kernels/problem_text.h"

namespace tclens::worker {
namespace {

constexpr std::chrono::milliseconds kCancelCheck{50};

// One size of the sweep and what became of it.
struct Piece {
    kernels::GemmProblem problem;
    int moves = 0;  // how often a lost worker gave it back
    bool done = false;
    int worker = -1;  // who ran it, when done
    BenchResult result;
};

// A worker that cannot go on: lost (crashed, hung, garbage, cannot start, its context lost) or
// without what the work needs (no GPU, counters busy). A clean error of another kind is the
// request's fault and would be the same on every worker.
bool worker_is_out(const Reply& reply) {
    return reply.worker_lost() || reply.outcome == Reply::Outcome::kCannotStart ||
           (reply.outcome == Reply::Outcome::kError &&
            reply.error.kind == ErrorKind::kNeedsResource);
}

class Sweep {
  public:
    Sweep(const std::vector<SpreadWorker*>& workers, const BenchRequest& request,
          const SpreadProgress& progress, const std::atomic<bool>* cancel)
        : workers_(workers),
          request_(request),
          progress_(progress),
          cancel_(cancel),
          live_(int(workers.size())),
          lost_(workers.size(), false) {
        for (const kernels::GemmProblem& p : request.problems) {
            Piece piece;
            piece.problem = p;
            pieces_.push_back(std::move(piece));
        }
        for (std::size_t i = 0; i < pieces_.size(); ++i) queue_.push_back(i);
        // The largest work first: the sizes left for the end are short ones.
        std::stable_sort(queue_.begin(), queue_.end(), [&](std::size_t a, std::size_t b) {
            const kernels::GemmProblem& x = pieces_[a].problem;
            const kernels::GemmProblem& y = pieces_[b].problem;
            return double(x.m) * x.n * x.k > double(y.m) * y.n * y.k;
        });
    }

    SpreadBench run() {
        if (workers_.empty()) {
            Reply none;
            none.outcome = Reply::Outcome::kCannotStart;
            none.message = "no worker to spread the bench over";
            failure_ = none;
        }
        std::vector<std::thread> threads;
        for (int w = 0; w < int(workers_.size()); ++w) threads.emplace_back([this, w] { work(w); });
        for (std::thread& t : threads) t.join();
        return merge();
    }

  private:
    bool cancelled() const { return cancel_ != nullptr && cancel_->load(); }

    void work(int w) {
        while (const std::optional<std::size_t> index = next_piece()) {
            BenchRequest one = request_;
            one.problems = {pieces_[*index].problem};
            one.dram = request_.dram && !dram_taken();
            Reply reply = call(w, one);
            BenchResult result;
            if (read_result(reply, "bench", bench_from_json, result)) {
                finished(*index, w, std::move(result));
            } else if (worker_is_out(reply)) {
                out(w, *index, reply);
                return;
            } else {
                failed(*index, reply);
                return;
            }
        }
    }

    Reply call(int w, const RequestBody& body) {
        return workers_[std::size_t(w)]->call(
            body,
            [this, w](const Progress& p) {
                if (!progress_) return;
                const std::lock_guard<std::mutex> lock(progress_mutex_);
                progress_(w, p);
            },
            cancel_);
    }

    // The next size to run, waiting while a size held by another worker may still come back;
    // nullopt when none is left, the sweep failed or was cancelled.
    std::optional<std::size_t> next_piece() {
        std::unique_lock<std::mutex> lock(mutex_);
        // *cancel is set without a notify: look at it every kCancelCheck.
        while (!changed_.wait_for(lock, kCancelCheck, [&] {
            return !queue_.empty() || in_flight_ == 0 || failure_ || cancelled();
        })) {
        }
        if (queue_.empty() || failure_ || cancelled()) return std::nullopt;
        const std::size_t index = queue_.front();
        queue_.pop_front();
        ++in_flight_;
        return index;
    }

    bool dram_taken() {
        const std::lock_guard<std::mutex> lock(mutex_);
        return dram_ || !dram_error_.empty();
    }

    void finished(std::size_t index, int w, BenchResult result) {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (!dram_ && dram_error_.empty()) {
            dram_ = result.dram;
            dram_error_ = result.dram_error;
        }
        Piece& piece = pieces_[index];
        piece.done = true;
        piece.worker = w;
        piece.result = std::move(result);
        --in_flight_;
        changed_.notify_all();
    }

    // Worker `w` cannot go on; the size it held goes back to the queue once.
    void out(int w, std::size_t index, const Reply& reply) {
        const std::lock_guard<std::mutex> lock(mutex_);
        --live_;
        --in_flight_;
        lost_[std::size_t(w)] = true;
        Piece& piece = pieces_[index];
        std::string note = worker_name(w, workers_[std::size_t(w)]->hello()) + " was lost at " +
                           kernels::problem_text(piece.problem) + ": " + reply.message;
        if (workers_.size() == 1) {
            fail_locked(reply, reply.message);  // nothing to move: its own words are the failure
        } else if (live_ == 0) {
            fail_locked(reply, "every worker was lost; the last: " + note);
        } else if (piece.moves > 0) {
            fail_locked(reply, kernels::problem_text(piece.problem) +
                                   " lost a second worker: " + reply.message);
        } else {
            ++piece.moves;
            queue_.push_front(index);
            note += "; that size went to the others";
        }
        if (workers_.size() > 1) notes_.push_back(note);
        changed_.notify_all();
    }

    // A clean error that every worker would answer the same: the sweep stops.
    void failed(std::size_t index, const Reply& reply) {
        const std::lock_guard<std::mutex> lock(mutex_);
        --in_flight_;
        fail_locked(reply, kernels::problem_text(pieces_[index].problem) + ": " + reply.message);
        changed_.notify_all();
    }

    void fail_locked(const Reply& reply, const std::string& message) {
        if (failure_) return;
        failure_ = reply;
        failure_->message = message;
    }

    SpreadBench merge() {
        SpreadBench out;
        for (SpreadWorker* worker : workers_) out.workers.push_back(worker->hello());
        out.lost = lost_;
        out.notes = notes_;
        out.failure = failure_;
        out.dram = dram_;
        out.dram_error = dram_error_;
        bool peaks_taken = false;
        for (const Piece& piece : pieces_) {
            if (!piece.done) continue;
            const kernels::BenchReport& part = piece.result.report;
            if (!part.shared_gpu.empty() && out.report.shared_gpu.empty()) {
                out.report.shared_gpu = part.shared_gpu;
                out.notes.push_back(part.shared_gpu);
            }
            if (!peaks_taken && (!part.peaks.empty() || !part.peak_error.empty())) {
                out.report.peaks = part.peaks;
                out.report.instruction_peaks = part.instruction_peaks;
                out.report.peak_error = part.peak_error;
                peaks_taken = true;
            }
            for (std::size_t r = 0; r < part.rows.size(); ++r) {
                out.report.rows.push_back(part.rows[r]);
                if (r < piece.result.times.size()) out.times.push_back(piece.result.times[r]);
                out.row_worker.push_back(piece.worker);
            }
        }
        const bool all_done =
            std::all_of(pieces_.begin(), pieces_.end(), [](const Piece& p) { return p.done; });
        if (!all_done && !out.failure) {
            Reply cancelled;
            cancelled.outcome = Reply::Outcome::kCancelled;
            cancelled.message = "the bench was cancelled";
            out.failure = cancelled;
        }
        return out;
    }

    const std::vector<SpreadWorker*>& workers_;
    const BenchRequest& request_;
    const SpreadProgress& progress_;
    const std::atomic<bool>* cancel_;

    std::mutex mutex_;  // guards what follows
    std::condition_variable changed_;
    std::vector<Piece> pieces_;
    std::deque<std::size_t> queue_;
    int in_flight_ = 0;
    int live_;
    std::vector<bool> lost_;
    std::optional<Reply> failure_;
    std::optional<profiling::DramBandwidth> dram_;
    std::string dram_error_;
    std::vector<std::string> notes_;

    std::mutex progress_mutex_;  // one progress call at a time
};

}  // namespace

std::string worker_name(int index, const HelloResult& hello) {
    std::string name = "worker " + std::to_string(index + 1);
    if (hello.pid == 0) return name;
    const std::string gpu =
        hello.system.devices.empty() ? std::string("no GPU") : hello.system.devices.front().name;
    return name + " (" + hello.host + ", " + gpu + ")";
}

ClientOptions worker_on_gpu(const ClientOptions& base, int gpu, bool users_command) {
    ClientOptions pinned = base;
    if (pinned.remote) {
        pinned.remote->gpu = gpu;
    } else if (!users_command) {
        pinned.command += " --gpu " + std::to_string(gpu);
    }
    return pinned;
}

SpreadBench spread_bench(const std::vector<SpreadWorker*>& workers, const BenchRequest& request,
                         const SpreadProgress& progress, const std::atomic<bool>* cancel) {
    Sweep sweep(workers, request, progress, cancel);
    return sweep.run();
}

}  // namespace tclens::worker
