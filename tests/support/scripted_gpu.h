#pragma once
// A scripted worker (tests/data/scripted_worker.sh) whose hello names a GPU no machine has
// ("Scripted H999", 999 SMs), and the text of a panel drawn with it: the tests that show a panel
// draws what the worker answered (canned results no GPU gives), not what this process measured.

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "app/worker/live_updates.h"
#include "profiling/device_info.h"
#include "profiling/device_json.h"
#include "profiling/metric_catalogue.h"
#include "profiling/recorded_mix.h"
#include "profiling/source/source_profile_json.h"
#include "tests/support/run_command.h"
#include "tests/support/source_dir.h"
#include "tests/support/tclens_binary.h"

namespace tclens::test {

inline constexpr const char* kScriptedGpu = "Scripted H999";

// The machine the scripted worker's hello describes: one kScriptedGpu with 999 SMs.
inline profiling::SystemReport scripted_gpu_system() {
    profiling::SystemReport system;
    system.runtime_version = 13000;
    system.driver_cuda_version = 13000;
    system.driver_version = "999.1";
    profiling::DeviceFacts device;
    device.name = kScriptedGpu;
    device.pci_bus_id = "0000:99:00.0";
    device.cc_major = 9;
    device.sm_count = 999;
    system.devices = {device};
    return system;
}

// The worker's answer to a source request for mma_cp_async.bf16 at `problem` on kScriptedGpu: one
// HMMA with 424242 PC samples, which no run gives (a canned result for SCRIPTED_SOURCE).
inline std::string scripted_source_answer(const kernels::GemmProblem& problem) {
    profiling::SourceProfile canned;
    canned.kernel_id = "mma_cp_async.bf16";
    canned.problem = problem;
    canned.device = kScriptedGpu;
    canned.check.passed = true;
    canned.functions = {"scripted_gemm"};
    profiling::InstructionProfile instruction;
    instruction.function = "scripted_gemm";
    instruction.pc = 0x40;
    instruction.sass = "HMMA.16816.F32.BF16 R4, R8, R12, R4";
    instruction.opcode = "HMMA";
    instruction.stalls = {{"math_pipe_throttle", 424242}};
    instruction.samples = 424242;
    canned.instructions = {instruction};
    return nlohmann::json{{"source", profiling::to_json(canned)}}.dump();
}

// The worker's answer to a trace request for mma_cp_async.bf16 at 128x128x64: 2 of 4 blocks, two
// phases (load_issue 180 ns and store 120 ns of the warps' time), kernel_ms 4242, which no run
// gives (a canned result for SCRIPTED_TRACE).
inline std::string scripted_trace_answer() {
    return R"({"trace":{"kernel":"mma_cp_async.bf16","m":128,"n":128,"k":64,"blocks_launched":4,)"
           R"("blocks_traced":2,"warps_per_block":4,"wgmma_per_phase":1,"dropped":0,)"
           R"("kernel_ms":4242.0,"untraced_ms":0.01,"phases":[[0,0,5,"load_issue",0,0,100,180],)"
           R"([1,3,7,"store",-1,20,90,120]]}})";
}

// The metric value of the scripted worker's live profile: no run gives it.
inline constexpr double kScriptedLiveValue = 42.4242;

// One update of the scripted worker's live_profile stream (SCRIPTED_LIVE_UPDATE): kernel 0 of the
// request, mma_cp_async.bf16 at `problem` on kScriptedGpu, its one metric (the default set's
// first) at kScriptedLiveValue.
inline std::string scripted_live_update(const kernels::GemmProblem& problem) {
    worker::LiveUpdate update;
    update.kernel = 0;
    profiling::KernelProfile& profile = update.profile;
    profile.kernel_id = "mma_cp_async.bf16";
    profile.precision = kernels::Precision::kBF16;
    profile.problem = problem;
    profile.device = kScriptedGpu;
    profile.check.passed = true;
    profile.passes = 1;
    const std::string name = profiling::metric_set("default").front();
    profile.metrics = {{name, name, "%", kScriptedLiveValue}};
    return worker::to_json(update).dump();
}

// Writes `text` and a newline to the temporary file `name` and returns its path (a canned
// result for SCRIPTED_<TYPE>, or SCRIPTED_SYSTEM's device JSON).
inline std::string write_canned(const std::string& name, const std::string& text) {
    const std::string path = temp_path(name);
    std::ofstream(path) << text << "\n";
    return path;
}

// HMMA count of the mix planted_worker_mixes plants: no census of a real build has it.
inline constexpr int kPlantedHmma = 4242;

// Writes, as the file SCRIPTED_MIXES names (the instruction mixes the scripted worker's hello
// carries), one sm_90a mix of `kernel_id` with kPlantedHmma HMMA, and returns its path.
inline std::string planted_worker_mixes(const std::string& kernel_id) {
    kernels::InstructionMix planted;
    planted.arch = "sm_90a";
    planted.functions = 1;
    planted.counts[std::size_t(kernels::OpClass::kHmma)] = kPlantedHmma;
    return write_canned("planted_mixes_" + kernel_id + ".json",
                        nlohmann::json::array({profiling::to_json(profiling::RecordedInstructionMix{
                                                  kernel_id, 90, planted})})
                            .dump());
}

// The command of a scripted worker with kScriptedGpu and `variables` ("SCRIPTED_SOURCE=F").
inline std::string scripted_gpu_worker(const std::string& variables) {
    const std::string system =
        write_canned("scripted_gpu_system.json", profiling::to_json(scripted_gpu_system()).dump());
    return "SCRIPTED_SYSTEM=" + system + " " + variables + " sh " + kSource +
           "/tests/data/scripted_worker.sh";
}

// What `tclens headless --view VIEW <arguments> --frames 5 --text F` drew with `worker` as its
// worker ($TCLENS_WORKER); "" when it failed (the failure is in `result`).
inline std::string panel_text_with_worker(const std::string& worker, const std::string& view,
                                          const std::string& arguments, CommandResult& result) {
    const std::string out = temp_path("panel_with_worker_" + view + ".txt");
    result = run_command("env -u DISPLAY TCLENS_WORKER='" + worker + "' " + kTclens +
                         " headless --view " + view + " --size 1600x1000 " + arguments +
                         " --frames 5 --text " + out);
    std::string text = read_file(out);
    std::remove(out.c_str());
    return text;
}

}  // namespace tclens::test
