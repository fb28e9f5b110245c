#pragma once
// A bench spread over several workers (docs/many-gpus.md): the GPUs of one host (`--workers N`,
// each worker pinned to its own GPU), several hosts, or workers a cluster's scheduler started
// (`srun ... tclens worker`).
//
// The unit of work is one size: every kernel of the bench on it, each verified and timed next to
// its same-run cuBLAS reference on the GPU of the worker that takes it, so a row's % of cuBLAS
// never compares two GPUs. Each worker takes the next size when it has finished one, the largest
// work first (so the last sizes to finish are short ones).
//
// A worker lost mid-sweep (it crashed, hung, wrote garbage, cannot be reached, or has no GPU)
// takes no more sizes; the size it held goes to another worker, once, and the result says so in
// one line. Nothing measured is lost: a sweep that cannot finish returns the rows it has with
// its failure.

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/worker/client.h"

namespace tclens::worker {

// One worker as a spread sees it: a WorkerClient (ClientSpreadWorker), or a test's fake.
// call() is made from the spread's thread of this worker only.
class SpreadWorker {
  public:
    virtual ~SpreadWorker() = default;
    virtual Reply call(const RequestBody& body, const ProgressHandler& progress,
                       const std::atomic<bool>* cancel) = 0;
    // Who answered the last call (its host and GPU); empty before the first.
    virtual HelloResult hello() const = 0;
};

// A client someone else owns (the GUI's one worker), for a spread over it alone.
class BorrowedSpreadWorker : public SpreadWorker {
  public:
    explicit BorrowedSpreadWorker(WorkerClient& client) : client_(client) {}
    Reply call(const RequestBody& body, const ProgressHandler& progress,
               const std::atomic<bool>* cancel) override {
        return client_.call(body, progress, cancel);
    }
    HelloResult hello() const override { return client_.worker(); }

  private:
    WorkerClient& client_;
};

class ClientSpreadWorker : public SpreadWorker {
  public:
    explicit ClientSpreadWorker(ClientOptions options) : client_(std::move(options)) {}
    Reply call(const RequestBody& body, const ProgressHandler& progress,
               const std::atomic<bool>* cancel) override {
        return client_.call(body, progress, cancel);
    }
    HelloResult hello() const override { return client_.worker(); }
    // For what comes before the sweep (loading kernels of yours on it).
    WorkerClient& client() { return client_; }

  private:
    WorkerClient client_;
};

struct SpreadBench {
    kernels::BenchReport report;       // rows problem-major, sizes in the request's order
    std::vector<RunTimes> times;       // one per row
    std::vector<int> row_worker;       // one per row: the index of the worker that ran it
    std::vector<HelloResult> workers;  // each worker's hello (pid 0: it never answered)
    std::vector<bool> lost;            // one per worker: it was lost and took no more sizes
    // One line per worker lost: "worker 2 (gpu-b, NVIDIA H200) was lost at 4096x4096x4096: <why>;
    // that size went to the others".
    std::vector<std::string> notes;
    std::optional<Reply> failure;  // set when the sweep could not finish: why, one line
    // request.dram: the first measurement that came back (or why it failed); see spread_bench.
    std::optional<profiling::DramBandwidth> dram;
    std::string dram_error;
};

// `base` pinned to GPU `gpu` of its host, as --workers N starts its i-th worker: over ssh
// (base.remote) the remote worker's --gpu; this tclens's worker (or $TCLENS_WORKER) with
// " --gpu N" appended; a command of the user's (`users_command`, e.g. srun) as it is: its
// scheduler places it.
ClientOptions worker_on_gpu(const ClientOptions& base, int gpu, bool users_command);

// Called from the workers' threads, one at a time: `worker` is the index of the one reporting.
using SpreadProgress = std::function<void(int worker, const Progress& progress)>;

// "worker 2 (gpu-b, NVIDIA H200)" or "worker 2" before it answered: names in notes and progress.
std::string worker_name(int index, const HelloResult& hello);

// Benches `request` one size at a time over the workers, as the header says (kernels of yours
// in it must be loaded on every worker before). `request.peaks`: every
// worker measures its own GPU's peaks (a worker measures once per process; later sizes reuse
// them); the report's peaks are the first worker's that finished a size. Setting *cancel stops
// the sweep (calls in flight are killed).
SpreadBench spread_bench(const std::vector<SpreadWorker*>& workers, const BenchRequest& request,
                         const SpreadProgress& progress = {},
                         const std::atomic<bool>* cancel = nullptr);

}  // namespace tclens::worker
