// `tclens record` before any GPU work: usage errors (exit 2, one line naming the value), an
// unwritable path (exit 1, nothing left behind), and exit 3 where there is no GPU; then a whole
// recording taken from a scripted worker (tests/data/scripted_worker.sh) with results no GPU
// could give, in the order the worker must see them. Real recordings are made on a GPU
// (tests/gpu/app/cli/record_command_test.cpp).

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/worker/results.h"
#include "profiling/device_info.h"
#include "profiling/device_json.h"
#include "profiling/device_query.h"
#include "profiling/profile_json.h"
#include "profiling/recording.h"
#include "profiling/source/source_profile_json.h"
#include "tests/support/cli_checks.h"
#include "tests/support/run_command.h"
#include "tests/support/scripted_gpu.h"
#include "tests/support/tclens_binary.h"
#include "tests/support/user_kernel_files.h"

namespace tclens {
namespace {

namespace fs = std::filesystem;
using test::run_command;

using test::kTclens;

void expect_record_usage_error(const std::string& args, const std::string& named) {
    const std::string path = test::temp_path("usage.json");
    const auto result = run_command(kTclens + " record " + path + " " + args);
    EXPECT_EQ(result.exit_code, 2) << args << "\n" << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << args << "\n" << result.err;
    EXPECT_NE(result.err.find(named), std::string::npos) << args << "\n" << result.err;
    EXPECT_EQ(result.out, "") << args;
    EXPECT_FALSE(fs::exists(path)) << args;
}

TEST(RecordCommand, BadArgumentsAreUsageErrors) {
    expect_record_usage_error("--mnk 0x64x64", "'0x64x64'");
    expect_record_usage_error("--mnk abc", "'abc'");
    expect_record_usage_error("--preset huge", "'huge'");
    expect_record_usage_error("--kernels naive_fma.f32,warp_speed", "'warp_speed'");
    expect_record_usage_error("--timeline-ms 5", "--timeline-ms");
    expect_record_usage_error("--no-timelines --timeline-ms 500", "--no-timelines");
    expect_record_usage_error("--colour red", "--colour");
}

TEST(RecordCommand, FileIsRequired) {
    const auto result = run_command(kTclens + " record");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("FILE"), std::string::npos) << result.err;
}

TEST(RecordCommand, UnwritablePathExits1AndLeavesNothing) {
    const std::string folder = test::temp_path("no_such_folder");
    const std::string path = folder + "/r.json";
    const auto result = run_command(kTclens + " record " + path + " --mnk 64x64x64");
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find(path), std::string::npos) << result.err;
    EXPECT_FALSE(fs::exists(folder));

    const std::string directory = test::temp_path("a_directory");
    fs::create_directory(directory);
    const auto onto_directory = run_command(kTclens + " record " + directory);
    EXPECT_EQ(onto_directory.exit_code, 1) << onto_directory.err;
    EXPECT_TRUE(test::is_one_line(onto_directory.err)) << onto_directory.err;
    EXPECT_NE(onto_directory.err.find("directory"), std::string::npos) << onto_directory.err;
    EXPECT_TRUE(fs::is_empty(directory));
    EXPECT_FALSE(fs::exists(directory + ".tmp"));
    fs::remove(directory);
}

TEST(RecordCommand, WithoutAGpuExits3AndWritesNothing) {
    if (profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
    const std::string path = test::temp_path("no_gpu.json");
    const auto result = run_command(kTclens + " record " + path);
    EXPECT_EQ(result.exit_code, 3);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("GPU"), std::string::npos) << result.err;
    EXPECT_FALSE(fs::exists(path));
    EXPECT_FALSE(fs::exists(path + ".tmp"));
}

TEST(RecordCommand, HelpStatesTheDefaultsAndTheirCost) {
    const auto result = run_command(kTclens + " record --help");
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_NE(result.out.find("4096x4096x4096"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("s on an H100"), std::string::npos) << result.out;  // its cost
    EXPECT_NE(result.out.find("--no-timelines"), std::string::npos) << result.out;
}

TEST(RecordCommand, AUsersKernelIsCheckedBeforeAnyWork) {
    expect_record_usage_error("--kernel kernel.py", "not a CUDA file");
    expect_record_usage_error("--kernel k.cu:9bad", "'9bad'");
}

// Canned worker answers for a recording of smem_tiled.f32 at 64x64x64 on "Scripted H999": the
// hello's system, the bench (one verified row, 1.25 TB/s of DRAM), a source profile with
// `samples` PC samples on one instruction, and a profile with one metric of value 42.5.
struct CannedRecording {
    std::string folder = test::temp_path("canned_record");
    std::string system = folder + "/system.json";
    std::string bench = folder + "/bench.json";
    std::string source = folder + "/source.json";
    std::string profile = folder + "/profile.json";
    std::string log = folder + "/requests.log";

    explicit CannedRecording(std::uint64_t samples) {
        fs::create_directories(folder);
        fs::remove(log);
        profiling::SystemReport system_report;
        profiling::DeviceFacts gpu;
        gpu.name = "Scripted H999";
        gpu.cc_major = 9;
        gpu.sm_count = 132;
        system_report.devices.push_back(gpu);
        std::ofstream(system) << profiling::to_json(system_report).dump();
        const kernels::GemmProblem problem{64, 64, 64};
        worker::BenchResult bench_result;
        kernels::BenchRow row;
        row.result.kernel_id = "smem_tiled.f32";
        row.result.problem = problem;
        row.result.check.passed = true;
        row.result.timed_runs = 30;
        row.result.median_ms = row.result.min_ms = row.result.max_ms = 0.125;
        bench_result.report.rows.push_back(row);
        bench_result.times.push_back({row.result.kernel_id, problem, 1, 2});
        bench_result.dram = profiling::DramBandwidth{1.25e12, "scripted"};
        std::ofstream(bench) << worker::to_json(bench_result).dump();
        profiling::SourceProfile source_profile;
        source_profile.kernel_id = "smem_tiled.f32";
        source_profile.problem = problem;
        profiling::InstructionProfile instruction;
        instruction.function = "scripted";
        instruction.samples = samples;
        if (samples > 0) instruction.stalls.push_back({"long_scoreboard", samples});
        instruction.counted = true;
        instruction.executed = 7;
        source_profile.instructions.push_back(instruction);
        std::ofstream(source) << nlohmann::json{{"source", profiling::to_json(source_profile)}};
        profiling::KernelProfile kernel_profile;
        kernel_profile.kernel_id = "smem_tiled.f32";
        kernel_profile.problem = problem;
        kernel_profile.metrics.push_back({"gpu__time_duration.sum", "Duration", "ns", 42.5});
        std::ofstream(profile) << nlohmann::json{{"profile", profiling::to_json(kernel_profile)}};
    }

    std::string worker() const {
        return test::scripted_worker("none SCRIPTED_SYSTEM=" + system + " SCRIPTED_BENCH=" + bench +
                                     " SCRIPTED_SOURCE=" + source + " SCRIPTED_PROFILE=" + profile +
                                     " SCRIPTED_LOG=" + log);
    }

    // Device JSON of one "Scripted H999" at PCI bus `bus`, in the folder; returns its path.
    std::string gpu_at(const std::string& bus) const {
        profiling::SystemReport system_report;
        profiling::DeviceFacts gpu;
        gpu.name = "Scripted H999";
        gpu.pci_bus_id = bus;
        gpu.cc_major = 9;
        gpu.sm_count = 132;
        system_report.devices.push_back(gpu);
        const std::string path = folder + "/system_" + bus.substr(5, 2) + ".json";
        std::ofstream(path) << profiling::to_json(system_report).dump();
        return path;
    }

    // The canned answers without the shell's "--worker '...'" around them: for commands that
    // choose their own SCRIPTED_SYSTEM.
    std::string answers() const {
        return "SCRIPTED_BENCH=" + bench + " SCRIPTED_SOURCE=" + source +
               " SCRIPTED_PROFILE=" + profile + " SCRIPTED_LOG=" + log;
    }
};

const std::string kScriptedWorker =
    std::string(TCLENS_SOURCE_DIR) + "/tests/data/scripted_worker.sh";

// The indices of the workers `recording`'s bench rows ran on, each once, in order.
std::vector<int> row_workers(const profiling::Recording& recording) {
    std::vector<int> workers = recording.bench_worker;
    std::sort(workers.begin(), workers.end());
    workers.erase(std::unique(workers.begin(), workers.end()), workers.end());
    return workers;
}

TEST(RecordCommand, EveryPartComesFromAWorkerEachSourceFromAFreshOne) {
    const CannedRecording canned(1234);
    const std::string path = canned.folder + "/recording.json";
    fs::remove(path);
    const auto result =
        run_command(kTclens + " record " + path +
                    " --kernels smem_tiled.f32 --mnk 64x64x64 --no-timelines " + canned.worker());
    ASSERT_EQ(result.exit_code, 0) << result.err;
    // The source profile in a worker of its own (hello, source, shutdown), between the bench and
    // the profile of the first: CUPTI gives a kernel that already ran in a process no PC samples.
    EXPECT_EQ(test::read_file(canned.log),
              "hello\nbench\nhello\nsource\nshutdown\nprofile\nshutdown\n");
    EXPECT_NE(result.out.find("1 of 1 source profiles whole"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("DRAM 1.25 TB/s, on Scripted H999"), std::string::npos) << result.out;
    profiling::Recording recording;
    std::string error;
    ASSERT_TRUE(profiling::load_recording(path, recording, error)) << error;
    EXPECT_EQ(recording.system.devices.at(0).name, "Scripted H999");
    EXPECT_EQ(recording.dram_bandwidth.bytes_per_s, 1.25e12);
    ASSERT_EQ(recording.bench.size(), 1u);
    EXPECT_EQ(recording.bench[0].result.median_ms, 0.125);
    ASSERT_EQ(recording.sources.size(), 1u);
    EXPECT_EQ(recording.sources[0].total_samples(), 1234u);
    ASSERT_EQ(recording.profiles.size(), 1u);
    EXPECT_EQ(recording.profiles[0].metrics.at(0).value, 42.5);
}

// The mixes a recording carries are the census of the build of the worker that ran (its hello),
// not this build's: the scripted worker plants a smem_tiled.f32 mix no census has (HMMA 4242).
TEST(RecordCommand, TheMixesRecordedAreThoseOfTheWorkersBuild) {
    const CannedRecording canned(1234);
    const std::string mixes = test::planted_worker_mixes("smem_tiled.f32");
    const std::string path = canned.folder + "/recording_mixes.json";
    const auto result = run_command(
        kTclens + " record " + path + " --kernels smem_tiled.f32 --mnk 64x64x64 --no-timelines " +
        test::scripted_worker("none SCRIPTED_SYSTEM=" + canned.system + " SCRIPTED_MIXES=" + mixes +
                              " " + canned.answers()));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    profiling::Recording recording;
    std::string error;
    ASSERT_TRUE(profiling::load_recording(path, recording, error)) << error;
    fs::remove(path);
    const profiling::RecordedInstructionMix* mix =
        profiling::find_mix(recording.instruction_mixes, "smem_tiled.f32");
    ASSERT_NE(mix, nullptr);
    EXPECT_EQ(mix->mix[kernels::OpClass::kHmma], test::kPlantedHmma);
}

TEST(RecordCommand, ASourceProfileWithoutSamplesIsOneLineAndExit1) {
    const CannedRecording canned(0);
    const std::string path = canned.folder + "/hollow.json";
    const auto result =
        run_command(kTclens + " record " + path +
                    " --kernels smem_tiled.f32 --mnk 64x64x64 --no-timelines " + canned.worker());
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_NE(result.out.find("0 of 1 source profiles whole"), std::string::npos) << result.out;
    EXPECT_EQ(test::last_line(result.err),
              "tclens: record: source profile of smem_tiled.f32: PC sampling gave no samples")
        << result.err;
    EXPECT_TRUE(fs::exists(path));  // what was taken is kept
}

}  // namespace
}  // namespace tclens

namespace tclens {
namespace {

// --workers 2 with one scripted command: the first copy to start claims GPU 0000:01:00.0, the
// other 0000:02:00.0. The two sizes are spread over both (each takes one as the sweep starts);
// the recording lists both workers and each row names its own; the per-kernel parts come from the
// first worker.
TEST(RecordCommand, WorkersSpreadTheBenchAndEveryRowNamesItsWorkersGpu) {
    const CannedRecording canned(1234);
    const std::string claim = canned.folder + "/claim";
    fs::remove_all(claim);
    const std::string first = canned.gpu_at("0000:01:00.0");
    const std::string second = canned.gpu_at("0000:02:00.0");
    const std::string worker = "if mkdir " + claim + " 2>/dev/null; then S=" + first +
                               "; else S=" + second + "; fi; SCRIPTED_SYSTEM=$S " +
                               canned.answers() + " exec sh " + kScriptedWorker;
    const std::string path = canned.folder + "/two.json";
    fs::remove(path);
    const auto result = run_command(kTclens + " record " + path +
                                    " --kernels smem_tiled.f32 --mnk 64x64x64 --mnk 96x96x96 "
                                    "--no-timelines --workers 2 --worker '" +
                                    worker + "'");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(test::contains(result.out,
                               "; the bench over 2 workers: w1 scripted: Scripted H999 "
                               "(0000:01:00.0), w2 scripted: Scripted H999 "
                               "(0000:02:00.0)"))
        << result.out;
    profiling::Recording recording;
    std::string error;
    ASSERT_TRUE(profiling::load_recording(path, recording, error)) << error;
    ASSERT_EQ(recording.workers.size(), 2u);
    EXPECT_EQ(recording.workers[0].host, "scripted");
    EXPECT_EQ(recording.workers[0].system.devices.at(0).pci_bus_id, "0000:01:00.0");
    EXPECT_EQ(recording.workers[1].system.devices.at(0).pci_bus_id, "0000:02:00.0");
    ASSERT_EQ(recording.bench.size(), 2u);
    EXPECT_EQ(row_workers(recording), (std::vector<int>{0, 1}));
    EXPECT_EQ(profiling::row_gpu_text(recording, 0).rfind("scripted: Scripted H999 (0000:0", 0),
              0u);
    EXPECT_TRUE(recording.notes.empty());
    EXPECT_EQ(recording.system.devices.at(0).pci_bus_id, "0000:01:00.0");
    ASSERT_EQ(recording.profiles.size(), 1u);
    EXPECT_EQ(recording.dram_bandwidth.bytes_per_s, 1.25e12);
    // The file names each row's worker, and the workers' GPUs.
    const nlohmann::json file = nlohmann::json::parse(test::read_file(path));
    EXPECT_EQ(file["schema_version"], 5);
    EXPECT_EQ(file["workers"][1]["device"]["devices"][0]["pci_bus_id"], "0000:02:00.0");
    EXPECT_TRUE(file["bench"][0]["worker"] == 1 || file["bench"][0]["worker"] == 2);
    fs::remove_all(claim);
}

// Two --worker commands, the first dying (SIGSEGV) on its bench: its size goes to the other, the
// record finishes there (the per-kernel parts too), writes every row and says so in one line.
TEST(RecordCommand, AWorkerLostMidRecordGivesItsSizeToTheOtherAndSaysSoInOneLine) {
    const CannedRecording canned(1234);
    const std::string dying =
        "SCRIPTED_WORKER=crash SCRIPTED_SYSTEM=" + canned.gpu_at("0000:01:00.0") + " exec sh " +
        kScriptedWorker;
    const std::string living = "SCRIPTED_SYSTEM=" + canned.gpu_at("0000:02:00.0") + " " +
                               canned.answers() + " exec sh " + kScriptedWorker;
    const std::string path = canned.folder + "/lost.json";
    fs::remove(path);
    const auto result = run_command(kTclens + " record " + path +
                                    " --kernels smem_tiled.f32 --mnk 64x64x64 --mnk 96x96x96 "
                                    "--no-timelines --worker '" +
                                    dying + "' --worker '" + living + "'");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    std::vector<std::string> lost_lines;
    std::istringstream lines(result.err);
    for (std::string line; std::getline(lines, line);) {
        if (test::contains(line, "was lost")) lost_lines.push_back(line);
    }
    ASSERT_EQ(lost_lines.size(), 1u) << result.err;
    EXPECT_EQ(lost_lines[0].rfind("tclens: worker 1 (scripted, Scripted H999) was lost at ", 0), 0u)
        << lost_lines[0];
    EXPECT_TRUE(test::contains(lost_lines[0], "; that size went to the others")) << lost_lines[0];
    profiling::Recording recording;
    std::string error;
    ASSERT_TRUE(profiling::load_recording(path, recording, error)) << error;
    ASSERT_EQ(recording.bench.size(), 2u);
    EXPECT_EQ(row_workers(recording), (std::vector<int>{1}));
    ASSERT_EQ(recording.notes.size(), 1u);
    EXPECT_EQ("tclens: " + recording.notes[0], lost_lines[0]);
    // The per-kernel parts from the worker that was not lost.
    EXPECT_EQ(recording.system.devices.at(0).pci_bus_id, "0000:02:00.0");
    ASSERT_EQ(recording.sources.size(), 1u);
    EXPECT_EQ(recording.sources[0].total_samples(), 1234u);
    ASSERT_EQ(recording.profiles.size(), 1u);
    EXPECT_TRUE(recording.profiles[0].ok());
    EXPECT_FALSE(fs::exists(path + ".tmp"));
}

TEST(RecordCommand, WorkersIsCheckedBeforeAnyWorkerStarts) {
    expect_record_usage_error("--workers 0", "--workers");
    expect_record_usage_error("--workers 65", "--workers");
    expect_record_usage_error("--worker a --remote gpu1", "--remote");
}

}  // namespace
}  // namespace tclens
