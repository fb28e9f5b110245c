#pragma once
// The "result" object of each request of the worker protocol (docs/worker-protocol.md), both
// ways. The worker writes them with to_json; the client reads them with the *_from_json
// functions, strictly at the top level (unknown keys refused) and through the existing readers
// below it (profiling/bench_json.h, profiling/profile_json.h), so a bench or profile that went
// through the worker is the same document `tclens bench --json` / `tclens profile --json` print.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kernels/bench_result.h"
#include "kernels/gemm.h"
#include "kernels/probes/clock_skew_probe.h"
#include "kernels/probes/fragment_probe.h"
#include "kernels/user/fragment_exercise.h"
#include "profiling/bank_result.h"
#include "profiling/device_info.h"
#include "profiling/profile_result.h"
#include "profiling/recorded_mix.h"
#include "profiling/recording.h"
#include "profiling/source/source_profile.h"
#include "viz/warp_trace.h"

namespace tclens::worker {

// The SASS instruction mixes of a worker's build (its census, kernels/instruction_mix.h) for its
// first GPU's compute capability (kernels::kDefaultMixSm without one): each registry kernel
// that has one, and when none has, why in one line (the census's reason, e.g. "this build had no
// cuobjdump ...").
struct WorkerMixes {
    std::vector<profiling::RecordedInstructionMix> mixes;
    std::string missing;  // "" when `mixes` has any
};

// hello: {"protocol", "tclens_version", "pid", "host", "system": device JSON
//         (profiling/device_json.h), "instruction_mixes": [profiling/recorded_mix.h entries],
//         "instruction_mixes_missing": line}: who answers, on which machine's GPUs (over ssh,
//         not the client's), and the mixes of its build (worker_mix.h reads them).
// The two instruction_mixes keys are optional both ways: a worker of an earlier tclens, or a
// client build's (no census to send), leaves them out, and `mixes` is then nullopt.
struct HelloResult {
    int protocol = 0;
    std::string tclens_version;
    std::int64_t pid = 0;
    std::string host;  // gethostname()
    profiling::SystemReport system;
    std::optional<WorkerMixes> mixes;
};

// One size a loaded kernel was asked about: "" when it can run it, else why not.
struct CanRun {
    kernels::GemmProblem problem;
    std::string reason;
    // How it launches that size when it can and its launch says so (a directive's grid and
    // block: "grid (32,16,1) x block (256,1,1)"), else "". Optional in the JSON.
    std::string plan;
};

// load: {"kernel": descriptor (profiling::to_json(KernelDescriptor)), "form", "path",
//        "function", "compile_ms", "load_ms", "loaded", "can_run": [{"problem", "reason", "plan"}],
//        "warnings": [lines], "instruction_mix": profiling/recorded_mix.h entry or null,
//        "instruction_mix_missing": line}
// The two instruction_mix keys may be left out (a worker of an earlier tclens): the mix is then
// missing with "the worker sent no instruction mix".
struct LoadResult {
    nlohmann::json descriptor;  // as `tclens kernels --json` lists a kernel
    std::string id;             // descriptor["id"], e.g. "yours.matmul_3"
    kernels::Precision precision = kernels::Precision::kF32;
    std::string reference_id;  // its cuBLAS reference
    std::string form;          // "host launcher", "directive kernel", "exercise"
    std::string path;          // the user's file as given
    std::string function;      // the function used, qualified
    double compile_ms = 0;
    double load_ms = 0;   // 0 when compile_only
    bool loaded = false;  // false: compiled only (compile_only, or no GPU to load on)
    std::vector<CanRun> can_run;
    std::vector<std::string> warnings;  // the compiler's warnings about the user's file
    // The SASS instruction mix of the cubin it was built into (profiling/source/cubin_mix.h),
    // kernel_id = id, for the GPU it was loaded on; only when loaded. Else why not, one line.
    std::optional<profiling::RecordedInstructionMix> instruction_mix;
    std::string instruction_mix_missing;
};

// Host wall time of one run's verification (steps 1-3 of kernels/runner.h) and timing (4).
struct RunTimes {
    std::string kernel;
    kernels::GemmProblem problem;
    double verify_ms = 0;
    double time_ms = 0;
};

// bench: {"report": profiling::to_json(BenchReport), "runs": [{"kernel", "problem",
//         "verify_ms", "time_ms", "out_of_bounds", "error_map": viz/error_map_json.h or null}],
//         "dram": {"bytes_per_s", "method"} or null, "dram_error": line}
// "runs" has one entry per report row, in order: what the row JSON leaves out. Reading puts
// out_of_bounds and error_map back into the rows' checks (kernels::Verification). "dram" holds
// the bandwidth a request with "dram" measured, "dram_error" why it could not; both optional.
struct BenchResult {
    kernels::BenchReport report;
    std::vector<RunTimes> times;  // one per report row, same order
    std::optional<profiling::DramBandwidth> dram;
    std::string dram_error;
};

// profile: {"profile": profile JSON} or {"timeline": timeline JSON}
struct ProfileResult {
    std::optional<profiling::KernelProfile> profile;
    std::optional<profiling::KernelTimeline> timeline;
};

// exercise: {"summary", "layout_id", "function", "product_correct", "wrong",
//            "operands": [{"operand": "A", "rows", "cols", "wrong", "elements": [{"row", "col",
//            "lane", "reg", "sub", "correct", "went_row", "went_col", "outcome"}]}]}
struct ExerciseResult {
    kernels::user::ExerciseReport report;
    std::string summary;  // report.summary(), written by the worker
};

// source: {"source": source profile JSON (profiling/source/source_profile_json.h, as tclens source
//          --json writes it)}: a profile that was taken (its error empty); a refused one is an
//          error message instead.
struct SourceResult {
    profiling::SourceProfile profile;
};

// trace: {"trace": warp trace JSON (viz/warp_trace_json.h, as tclens trace --json writes it)}:
// the phases, and kernel_ms / untraced_ms, the traced and untraced kernels' median times (the
// overhead).
struct TraceResult {
    viz::WarpTrace trace;
};

// bank_measure: {"device": the GPU's name, "wavefronts_per_request", "iterations", "requests",
//                "wavefront_metric", "instruction_metric", "baseline_wavefronts",
//                "run_wavefronts", "instructions_per_iteration", "passes"}: a measurement that
// was taken (profiling::BankMeasurement with its error ok); a refused one is an error message.
struct BankMeasureResult {
    std::string device;
    profiling::BankMeasurement measurement;
};

// layout_verify: {"layout", "device", "matched", "total", "mismatches": [lines]}: the probe's
// elements compared with the model (kernels::LayoutComparison); a probe that could not run
// (no GPU, an instruction this GPU lacks, a CUDA error) is an error message instead.
struct LayoutVerifyResult {
    std::string layout;
    std::string device;
    kernels::LayoutComparison comparison;
};

// clock_skew: {"device": the GPU's name, "rounds", "blocks", "distinct_sms", "min_spread_ns",
//              "median_spread_ns", "max_spread_ns", "median_clock_spread", "tick_ns"}: the
// probe's summary (kernels::ClockSkewSummary); a probe that could not run is an error message.
struct ClockSkewResult {
    std::string device;
    kernels::ClockSkewSummary summary;
};

nlohmann::json to_json(const HelloResult& result);
nlohmann::json to_json(const LoadResult& result);
nlohmann::json to_json(const BenchResult& result);
nlohmann::json to_json(const ProfileResult& result);
nlohmann::json to_json(const ExerciseResult& result);
nlohmann::json to_json(const SourceResult& result);
nlohmann::json to_json(const TraceResult& result);
nlohmann::json to_json(const BankMeasureResult& result);
nlohmann::json to_json(const LayoutVerifyResult& result);
nlohmann::json to_json(const ClockSkewResult& result);

// Each false, with `error` one line naming the first bad field, when `json` is not what to_json
// writes.
bool hello_from_json(const nlohmann::json& json, HelloResult& result, std::string& error);
bool load_from_json(const nlohmann::json& json, LoadResult& result, std::string& error);
bool bench_from_json(const nlohmann::json& json, BenchResult& result, std::string& error);
bool profile_from_json(const nlohmann::json& json, ProfileResult& result, std::string& error);
bool exercise_from_json(const nlohmann::json& json, ExerciseResult& result, std::string& error);
bool source_from_json(const nlohmann::json& json, SourceResult& result, std::string& error);
bool trace_from_json(const nlohmann::json& json, TraceResult& result, std::string& error);
bool bank_measure_from_json(const nlohmann::json& json, BankMeasureResult& result,
                            std::string& error);
bool layout_verify_from_json(const nlohmann::json& json, LayoutVerifyResult& result,
                             std::string& error);
bool clock_skew_from_json(const nlohmann::json& json, ClockSkewResult& result, std::string& error);

}  // namespace tclens::worker
