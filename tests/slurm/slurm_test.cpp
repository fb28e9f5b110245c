// Workers started by Slurm's `srun` (docs/many-gpus.md), with no GPU (CI): a single-node Slurm
// that slurm_fixture.sh starts on this machine runs `tclens worker` as a job step whose stdin and
// stdout are the client's pipe. Without slurm-wlm or munge the tests are reported skipped
// ("skipped: no slurm (...)"), never passed. Each test starts its own Slurm (~2 s: each gtest
// runs in a process of its own), and every srun is wrapped in `timeout` (an srun that can never
// run waits forever).

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "tests/support/cli_checks.h"
#include "tests/support/run_command.h"
#include "tests/support/source_dir.h"
#include "tests/support/tclens_binary.h"

namespace tclens::test {
namespace {

constexpr int kSkipped = 77;  // slurm_fixture.sh: this machine cannot run Slurm

// The worker command of docs/many-gpus.md: -Q keeps srun's own notes ("job N queued ...") off
// stderr, -u passes each line on at once, --gres=gpu:1 takes one of the node's two fake GPUs.
const std::string kSrunWorker = "timeout 60 srun -n1 -Q -u --gres=gpu:1 '" + kTclens + "' worker";

// A single-node Slurm for one test; commands run with SLURM_CONF naming it.
class SlurmCluster {
  public:
    SlurmCluster() : dir_(temp_path("slurm")) {
        const CommandResult started =
            run_command("bash " + kSource + "/tests/slurm/slurm_fixture.sh start " + dir_,
                        std::chrono::seconds(30));
        if (started.exit_code == kSkipped) {
            skipped_ = started.err;
        } else if (started.exit_code != 0) {
            failed_ = started.err;
        }
    }
    ~SlurmCluster() {
        run_command("bash " + kSource + "/tests/slurm/slurm_fixture.sh stop " + dir_);
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }
    const std::string& skipped() const { return skipped_; }
    const std::string& failed() const { return failed_; }
    // `ENV tclens ARGS` with srun reading this cluster's slurm.conf; ENV may end in a command that
    // runs tclens (salloc).
    CommandResult tclens(const std::string& args, const std::string& env = "") const {
        return run_command(
            "env SLURM_CONF=" + dir_ + "/slurm.conf " + env + " " + kTclens + " " + args,
            std::chrono::seconds(60));
    }

  private:
    std::string dir_;
    std::string skipped_;
    std::string failed_;
};

#define START_SLURM(cluster)                                           \
    SlurmCluster cluster;                                              \
    if (!cluster.skipped().empty()) GTEST_SKIP() << cluster.skipped(); \
    ASSERT_EQ(cluster.failed(), "")

// A sweep of `rows` rows under an injected launch failure (exit 1, each row failed its launch)
// whose rows came from both workers, and no worker lost.
void expect_rows_from_both_workers(const CommandResult& result, std::size_t rows) {
    EXPECT_EQ(result.exit_code, 1) << result.err;  // every row failed its (injected) launch
    const nlohmann::json report = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << result.out << result.err;
    ASSERT_EQ(report["workers"].size(), 2u) << result.out;
    ASSERT_EQ(report["results"].size(), rows) << result.out;
    std::set<int> workers;
    for (const nlohmann::json& row : report["results"]) {
        workers.insert(row["worker"].get<int>());
        EXPECT_TRUE(contains(row["error"].get<std::string>(), "TCLENS_INJECT_FAULT")) << row;
    }
    EXPECT_EQ(workers, (std::set<int>{1, 2})) << result.out;
    EXPECT_EQ(report["notes"].size(), 0u) << report["notes"];
}

// The worker srun started answers hello; without a GPU the bench ends in its one line, exit 3.
TEST(SlurmWorker, ABenchThroughSrunSaysNoGpuInOneLine) {
    START_SLURM(cluster);
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    const CommandResult result = cluster.tclens(
        "bench --kernels naive_fma.f32 --mnk 64x64x64 "
        "--worker \"" +
        kSrunWorker + "\"");
    EXPECT_EQ(result.exit_code, 3) << result.err;
    EXPECT_TRUE(is_one_line(result.err)) << result.err;
    EXPECT_TRUE(contains(result.err, "tclens: no GPU on " + std::string(host) + ": "))
        << result.err;
    EXPECT_EQ(result.out, "");
}

// `--workers 2` with an srun command starts two jobs, one per fake GPU, at once (a second
// that waited for the first would hang the sweep); the caller's environment reaches them
// (srun's default --export=ALL), so an injected launch failure gives every row an answer without
// a GPU, and the rows come from both workers.
TEST(SlurmWorker, TwoSrunWorkersShareASweep) {
    START_SLURM(cluster);
    const CommandResult result = cluster.tclens(
        "bench --kernels naive_fma.f32 --no-reference --no-peak --mnk 64x64x64 --mnk 96x96x96 "
        "--mnk 128x128x128 --mnk 160x160x160 --json --workers 2 --worker \"" +
            kSrunWorker + "\"",
        "TCLENS_INJECT_FAULT=launch-failure");
    expect_rows_from_both_workers(result, 4);
}

// `--workers 2` with an srun command inside an allocation (salloc from a login node): with
// --exact each step takes one CPU and one fake GPU, so both run at once (without it the first
// step takes the allocation's CPUs and the second never starts).
TEST(SlurmWorker, TwoSrunStepsOfOneAllocationShareASweep) {
    START_SLURM(cluster);
    const std::string worker =
        "timeout 60 srun -n1 -Q -u --exact --gres=gpu:1 '" + kTclens + "' worker";
    const CommandResult result = cluster.tclens(
        "bench --kernels naive_fma.f32 --no-reference --no-peak --mnk 64x64x64 --mnk 96x96x96 "
        "--json --workers 2 --worker \"" +
            worker + "\"",
        "TCLENS_INJECT_FAULT=launch-failure timeout 60 salloc -Q -n2 --gres=gpu:2");
    expect_rows_from_both_workers(result, 2);
}

}  // namespace
}  // namespace tclens::test
