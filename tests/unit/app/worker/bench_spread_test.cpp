// A bench spread over several workers (app/worker/bench_spread.h), with fake workers that
// answer in this process: every size runs once and lands in the request's order, the largest
// first, and a worker that is lost, has no GPU or cannot load gives its size to the others once.
// The same over real pipes with scripted workers: tests/e2e/app/cli/bench_command_test.cpp.

#include "app/worker/bench_spread.h"

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "kernels/problem_text.h"

namespace tclens::worker {
namespace {

// A worker in this process: answers a bench with one verified row per kernel and size, after
// `delay`; can be told to die at its n-th bench, or to have no GPU.
class FakeWorker : public SpreadWorker {
  public:
    FakeWorker(std::string host, std::chrono::milliseconds delay = std::chrono::milliseconds(5))
        : host_(std::move(host)), delay_(delay) {}

    int die_at_bench = -1;    // 0-based bench call that crashes the worker; -1 never
    std::string die_at_size;  // a size ("MxNxK") that crashes every call on it; "" none
    bool no_gpu = false;
    bool usage_error = false;
    std::atomic<int> dram_asked{0};  // bench requests that asked for the DRAM bandwidth

    Reply call(const RequestBody& body, const ProgressHandler& progress,
               const std::atomic<bool>*) override {
        answered_ = true;
        Reply reply;
        if (no_gpu) {
            reply.outcome = Reply::Outcome::kError;
            reply.error = {ErrorKind::kNeedsResource, "bench needs an NVIDIA GPU (none)", false};
            reply.message = reply.error.message;
            return reply;
        }
        const auto* bench = std::get_if<BenchRequest>(&body);
        if (bench == nullptr) return reply;  // a load: fine
        const int call = benches_++;
        const std::string size = kernels::problem_text(bench->problems.at(0));
        std::this_thread::sleep_for(delay_);
        if (call == die_at_bench || size == die_at_size) {
            reply.outcome = Reply::Outcome::kCrashed;
            reply.message = "the worker died during the bench request (killed by signal 11)";
            return reply;
        }
        if (usage_error) {
            reply.outcome = Reply::Outcome::kError;
            reply.error = {ErrorKind::kUsage, "unknown kernel 'x'", false};
            reply.message = reply.error.message;
            return reply;
        }
        if (progress) progress({"run", size, 0, 1, 0});
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            ran_.push_back(size);
        }
        BenchResult result;
        for (const std::string& id : bench->kernels) {
            kernels::BenchRow row;
            row.result.kernel_id = id;
            row.result.problem = bench->problems.at(0);
            row.result.check.passed = true;
            row.result.check.reference = "cpu.fp64";
            row.result.timed_runs = 30;
            row.result.median_ms = 1;
            row.result.tflops = 1;
            result.report.rows.push_back(row);
            result.times.push_back({id, row.result.problem, 1, 1});
        }
        if (bench->peaks) result.report.peak_error = "peaks of " + host_;
        if (bench->dram) {
            ++dram_asked;
            result.dram = profiling::DramBandwidth{1e12, "copy on " + host_};
        }
        reply.result = to_json(result);
        return reply;
    }

    HelloResult hello() const override {
        HelloResult hello;
        if (!answered_) return hello;
        hello.pid = 42;
        hello.host = host_;
        return hello;
    }

    std::vector<std::string> ran() const {
        const std::lock_guard<std::mutex> lock(mutex_);
        return ran_;
    }

  private:
    std::string host_;
    std::chrono::milliseconds delay_;
    bool answered_ = false;
    int benches_ = 0;
    mutable std::mutex mutex_;
    std::vector<std::string> ran_;
};

BenchRequest request(std::vector<kernels::GemmProblem> problems) {
    BenchRequest r;
    r.kernels = {"a", "b"};
    r.problems = std::move(problems);
    return r;
}

const std::vector<kernels::GemmProblem> kSizes = {{64, 64, 64},    {512, 512, 512}, {128, 128, 128},
                                                  {256, 256, 256}, {32, 32, 32},    {96, 96, 96}};

// The sizes of the merged rows, one per row, in order.
std::vector<std::string> row_sizes(const SpreadBench& spread) {
    std::vector<std::string> sizes;
    for (const kernels::BenchRow& row : spread.report.rows)
        sizes.push_back(kernels::problem_text(row.result.problem));
    return sizes;
}

std::vector<std::string> expected_rows(const std::vector<kernels::GemmProblem>& sizes) {
    std::vector<std::string> rows;
    for (const kernels::GemmProblem& p : sizes) {
        rows.push_back(kernels::problem_text(p));
        rows.push_back(kernels::problem_text(p));
    }
    return rows;
}

TEST(BenchSpread, EverySizeRunsOnceOnSomeWorkerAndLandsInTheRequestsOrder) {
    FakeWorker one("gpu-a");
    FakeWorker two("gpu-b");
    const SpreadBench spread = spread_bench({&one, &two}, request(kSizes));
    ASSERT_FALSE(spread.failure) << spread.failure->message;
    EXPECT_EQ(row_sizes(spread), expected_rows(kSizes));
    EXPECT_EQ(spread.times.size(), spread.report.rows.size());
    ASSERT_EQ(spread.row_worker.size(), spread.report.rows.size());
    EXPECT_EQ(one.ran().size() + two.ran().size(), kSizes.size());
    EXPECT_FALSE(one.ran().empty());
    EXPECT_FALSE(two.ran().empty());
    for (std::size_t r = 0; r < spread.report.rows.size(); ++r) {
        const FakeWorker& ran_it = spread.row_worker[r] == 0 ? one : two;
        const std::vector<std::string> ran = ran_it.ran();
        EXPECT_NE(std::find(ran.begin(), ran.end(), row_sizes(spread)[r]), ran.end()) << r;
    }
    ASSERT_EQ(spread.workers.size(), 2u);
    EXPECT_EQ(spread.workers[1].host, "gpu-b");
    EXPECT_TRUE(spread.notes.empty());
}

TEST(BenchSpread, OneWorkerRunsTheLargestWorkFirst) {
    FakeWorker only("gpu-a");
    const SpreadBench spread = spread_bench({&only}, request(kSizes));
    ASSERT_FALSE(spread.failure);
    EXPECT_EQ(only.ran(), (std::vector<std::string>{"512x512x512", "256x256x256", "128x128x128",
                                                    "96x96x96", "64x64x64", "32x32x32"}));
    EXPECT_EQ(row_sizes(spread), expected_rows(kSizes));
}

TEST(BenchSpread, AWorkerLostMidSweepGivesItsSizeToTheOtherAndTheResultSaysSo) {
    FakeWorker steady("gpu-a");
    FakeWorker dies("gpu-b");
    dies.die_at_bench = 1;
    const SpreadBench spread = spread_bench({&steady, &dies}, request(kSizes));
    ASSERT_FALSE(spread.failure) << spread.failure->message;
    EXPECT_EQ(row_sizes(spread), expected_rows(kSizes));
    EXPECT_EQ(dies.ran().size(), 1u);
    EXPECT_EQ(steady.ran().size(), kSizes.size() - 1);
    ASSERT_EQ(spread.notes.size(), 1u);
    const std::string& note = spread.notes[0];
    EXPECT_EQ(note.rfind("worker 2 (gpu-b, no GPU) was lost at ", 0), 0u) << note;
    EXPECT_NE(note.find("(killed by signal 11); that size went to the others"), std::string::npos)
        << note;
    EXPECT_EQ(spread.lost, (std::vector<bool>{false, true}));
}

// request.dram (tclens record) is asked until a result brings a measurement: at most once per
// worker (both may ask before either answers), not once per size; the first one is the sweep's.
TEST(BenchSpread, TheDramBandwidthIsMeasuredOncePerSweepNotPerSize) {
    FakeWorker one("gpu-a");
    FakeWorker two("gpu-b");
    BenchRequest asked = request(kSizes);
    asked.dram = true;
    const SpreadBench spread = spread_bench({&one, &two}, asked);
    ASSERT_FALSE(spread.failure) << spread.failure->message;
    EXPECT_GE(one.dram_asked + two.dram_asked, 1);
    EXPECT_LE(one.dram_asked + two.dram_asked, 2);
    ASSERT_TRUE(spread.dram);
    EXPECT_EQ(spread.dram->bytes_per_s, 1e12);
    EXPECT_EQ(spread.dram->method.rfind("copy on gpu-", 0), 0u) << spread.dram->method;
    EXPECT_EQ(spread.lost, (std::vector<bool>{false, false}));
    FakeWorker only("gpu-c");
    EXPECT_EQ(spread_bench({&only}, asked).dram->method, "copy on gpu-c");
    EXPECT_EQ(only.dram_asked, 1);
}

TEST(BenchSpread, ASizeThatKillsTwoWorkersFailsTheSweepAndKeepsWhatWasMeasured) {
    FakeWorker one("gpu-a");
    FakeWorker two("gpu-b");
    FakeWorker three("gpu-c", std::chrono::milliseconds(1));
    one.die_at_size = two.die_at_size = three.die_at_size = "512x512x512";
    const SpreadBench spread = spread_bench({&one, &two, &three}, request(kSizes));
    ASSERT_TRUE(spread.failure);
    EXPECT_EQ(spread.failure->outcome, Reply::Outcome::kCrashed);
    EXPECT_EQ(spread.failure->message.rfind("512x512x512 lost a second worker: ", 0), 0u)
        << spread.failure->message;
    EXPECT_EQ(spread.notes.size(), 2u);
    // What the third worker measured before the sweep stopped is kept.
    EXPECT_FALSE(spread.report.rows.empty());
}

TEST(BenchSpread, AWorkerWithoutAGpuIsLeftOutAndTheOtherRunsEverything) {
    FakeWorker gpu("gpu-a");
    FakeWorker none("laptop");
    none.no_gpu = true;
    const SpreadBench spread = spread_bench({&none, &gpu}, request(kSizes));
    ASSERT_FALSE(spread.failure) << spread.failure->message;
    EXPECT_EQ(gpu.ran().size(), kSizes.size());
    ASSERT_EQ(spread.notes.size(), 1u);
    EXPECT_NE(spread.notes[0].find("bench needs an NVIDIA GPU"), std::string::npos);
}

TEST(BenchSpread, OneWorkerWithoutAGpuFailsInItsOwnWords) {
    FakeWorker none("laptop");
    none.no_gpu = true;
    const SpreadBench spread = spread_bench({&none}, request(kSizes));
    ASSERT_TRUE(spread.failure);
    EXPECT_EQ(spread.failure->error.kind, ErrorKind::kNeedsResource);
    EXPECT_EQ(spread.failure->message, "bench needs an NVIDIA GPU (none)");
    EXPECT_TRUE(spread.report.rows.empty());
}

TEST(BenchSpread, EveryWorkerLostFailsWithTheLast) {
    FakeWorker one("gpu-a");
    FakeWorker two("gpu-b");
    one.no_gpu = two.no_gpu = true;
    const SpreadBench spread = spread_bench({&one, &two}, request(kSizes));
    ASSERT_TRUE(spread.failure);
    EXPECT_EQ(spread.failure->error.kind, ErrorKind::kNeedsResource);
    EXPECT_EQ(spread.failure->message.rfind("every worker was lost; the last: worker ", 0), 0u)
        << spread.failure->message;
}

TEST(BenchSpread, ACleanErrorStopsTheSweepWithItsSize) {
    FakeWorker one("gpu-a");
    one.usage_error = true;
    FakeWorker two("gpu-b");
    two.usage_error = true;
    const SpreadBench spread = spread_bench({&one, &two}, request(kSizes));
    ASSERT_TRUE(spread.failure);
    EXPECT_EQ(spread.failure->error.kind, ErrorKind::kUsage);
    EXPECT_NE(spread.failure->message.find(": unknown kernel 'x'"), std::string::npos)
        << spread.failure->message;
}

TEST(BenchSpread, TheFirstFinishedSizesPeaksAreTheReports) {
    FakeWorker only("gpu-a");
    BenchRequest r = request({{64, 64, 64}, {32, 32, 32}});
    r.peaks = true;
    const SpreadBench spread = spread_bench({&only}, r);
    ASSERT_FALSE(spread.failure);
    EXPECT_EQ(spread.report.peak_error, "peaks of gpu-a");
}

TEST(BenchSpread, ProgressNamesTheWorker) {
    FakeWorker one("gpu-a");
    FakeWorker two("gpu-b");
    std::vector<int> seen;
    spread_bench({&one, &two}, request(kSizes),
                 [&](int worker, const Progress&) { seen.push_back(worker); });
    EXPECT_EQ(seen.size(), kSizes.size());
    EXPECT_NE(std::find(seen.begin(), seen.end(), 0), seen.end());
    EXPECT_NE(std::find(seen.begin(), seen.end(), 1), seen.end());
}

TEST(BenchSpread, CancelStopsTheSweep) {
    FakeWorker one("gpu-a", std::chrono::milliseconds(30));
    std::atomic<bool> cancel{true};
    const SpreadBench spread = spread_bench({&one}, request(kSizes), {}, &cancel);
    ASSERT_TRUE(spread.failure);
    EXPECT_EQ(spread.failure->outcome, Reply::Outcome::kCancelled);
}

}  // namespace
}  // namespace tclens::worker
