#pragma once
// Requests of the worker protocol, version kProtocolVersion (docs/worker-protocol.md): what the
// client asks `tclens worker` to do, one JSON object per line on the worker's stdin.
//
//   {"id": 3, "type": "bench", "kernels": ["yours.matmul", "wgmma_ws.bf16"],
//    "problems": ["4096x4096x4096"], "runs": 30, "warmup": 5, "seed": 1, "peaks": false,
//    "references": true}
//
// Every request has "id" (1 .. 2^53 - 1, chosen by the client and echoed in every message about
// the request) and "type"; the other fields depend on the type (below, with their defaults).
// Decoding is strict (app/worker/strict_fields.h): an unknown type or field, a wrong type or a
// value out of range is refused with one line naming the field.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "kernels/gemm.h"

namespace tclens::worker {

// 2: the streaming live_profile request, its update messages and the client's stop.
inline constexpr int kProtocolVersion = 2;
// Longest request line the worker reads; a longer one is refused without being parsed.
inline constexpr std::size_t kMaxRequestBytes = 1 << 20;
// Largest id: every JSON reader holds it exactly (2^53 - 1).
inline constexpr std::int64_t kMaxRequestId = (std::int64_t{1} << 53) - 1;

// {"type": "hello", "protocol": 2}: the worker answers with its versions and its GPU, or a
// "protocol" error when it speaks another version.
struct HelloRequest {
    int protocol = kProtocolVersion;
};

// {"type": "load", "ref": "path.cu[:name]", "compile_only": false, "problems": ["MxNxK", ...]}:
// compile (and unless compile_only, load) a user's kernel (kernels/user); the result names its
// id for later requests and, for each of `problems` (optional), whether it can run that size.
struct LoadRequest {
    std::string ref;
    bool compile_only = false;
    std::vector<kernels::GemmProblem> problems;
};

// {"type": "bench", "kernels": [ids], "problems": ["MxNxK", ...], "runs": 30, "warmup": 5,
//  "seed": 1, "peaks": true, "references": true, "dram": false, "check_counters": false}:
// kernels/bench.h's run_bench over registry ids and ids of loaded kernels. Before it (tclens
// record): check_counters refuses the request when the default metric set cannot be read (no
// permission, busy counters), and dram measures the DRAM bandwidth (kernels/dram_probe.h).
struct BenchRequest {
    std::vector<std::string> kernels;
    std::vector<kernels::GemmProblem> problems;
    int runs = 30;   // 1 .. 1000
    int warmup = 5;  // 0 .. 100
    std::uint64_t seed = 1;
    bool peaks = true;
    bool references = true;
    bool dram = false;
    bool check_counters = false;
};

// The "timeline" object of a profile request: PM sampling instead of the range profiler.
struct TimelineSettings {
    std::vector<std::string> metrics;       // empty: the "timeline" set
    std::uint64_t interval_ns = 1'000'000;  // 100 us .. 10 ms
    int duration_ms = 500;                  // 50 .. 10000
};

// {"type": "profile", "kernel": id, "problem": "MxNxK", "metrics": [names], "drop_unavailable":
//  false, "flush_l2": true, "seed": 1, "timeline": null | {"metrics", "interval_ns",
//  "duration_ms"}}: profiling/kernel_profile.h on one kernel (registry or loaded).
struct WorkerProfileRequest {
    std::string kernel;
    kernels::GemmProblem problem;
    std::vector<std::string> metrics;  // range profiler names; required unless timeline
    bool drop_unavailable = false;
    bool flush_l2 = true;
    std::uint64_t seed = 1;
    std::optional<TimelineSettings> timeline;
};

// {"type": "exercise", "ref": "path.cu[:name]"}: run a one-warp fragment exercise on
// self-describing inputs (kernels/user) and say which elements its mapping got wrong.
struct ExerciseRequest {
    std::string ref;
};

// {"type": "shutdown"}: the worker answers an empty result and exits 0.
struct ShutdownRequest {};

// {"type": "source", "kernel": id, "problem": "MxNxK", "seed": 1, "target_samples": 500000,
//  "period_log2": 0}: profiling/source/source_collector.h on one kernel (registry or loaded):
// PC sampling, per-instruction counts and the SASS with the lines of the kernel's own file.
// period_log2 0 lets the collector choose the period that gives about target_samples samples.
struct WorkerSourceRequest {
    std::string kernel;
    kernels::GemmProblem problem;
    std::uint64_t seed = 1;
    std::uint64_t target_samples = 500'000;  // 1000 .. 100000000
    int period_log2 = 0;                     // 0, or 5 .. 31
};

// {"type": "trace", "kernel": id, "problem": "MxNxK", "blocks": 8, "seed": 1}: the per-warp
// timeline of the first `blocks` blocks of the kernel's traced variant (kernels/trace_capture.h:
// traced and untraced runs verified, then timed); a loaded kernel's traced variant is built from
// its source with -DTCLENS_TRACE (kernels/user_trace.cuh).
struct TraceRequest {
    std::string kernel;  // a registry id or a loaded one
    kernels::GemmProblem problem;
    int blocks = 8;  // 1 .. 1024 (kernels::kMaxTracedBlocks)
    std::uint64_t seed = 1;
};

// {"type": "bank_measure", "swizzle": "xor", "pattern": "ldmatrix.x4", "rows": 16,
//  "row_bytes": 128, "iterations": 256}: the bank model of one warp access (viz/bank_model.h:
// a viz swizzle spec and pattern name on a rows x row_bytes tile) measured on the GPU with CUPTI
// (profiling/bank_measure.h). The model itself needs no GPU: the client computes it.
struct BankMeasureRequest {
    std::string swizzle;   // viz::parse_swizzle's spelling
    std::string pattern;   // viz::parse_pattern's name (a kernel access names its viz pattern)
    int rows = 0;          // 1 .. 1048576; viz::bank_requests checks the tile further
    int row_bytes = 0;     // 1 .. 1048576
    int iterations = 256;  // 1 .. 1000000 (profiling::kDefaultBankIterations)
};

// {"type": "layout_verify", "layout": "mma.m16n8k8.tf32"}: run the layout's GPU probe
// (kernels/probes/fragment_probe.h) and compare every element with the model.
struct LayoutVerifyRequest {
    std::string layout;  // one of viz::fragment_layout_ids()
};

// Most kernels one live_profile request takes turns on.
inline constexpr std::size_t kMaxLiveKernels = 8;

// The "timeline" object of a live_profile request: PM sampling of the first kernel, its samples
// streamed in batches, until stopped or for duration_ms.
struct LiveTimelineSettings {
    std::vector<std::string> metrics;       // empty: the "timeline" set
    std::uint64_t interval_ns = 1'000'000;  // 100 us .. 10 ms
    int duration_ms = 0;                    // 0: until stopped; else 1 .. 3600000
};

// {"type": "live_profile", "kernels": [ids], "problem": "MxNxK", "metrics": [names], "seed": 1,
//  "timeline": null | {"metrics", "interval_ns", "duration_ms"}, "max_updates": 0}: a streaming
// request (the GUI's Profile panel "Live"). Each kernel (registry or loaded) is verified and
// prepared once, then the kernels are profiled in turn, again and again, each profile an "update"
// message, until the client sends {"id": N, "type": "stop"}, max_updates (0: no limit) or a
// failure; names the chip rejects are left out of every profile. With "timeline", the first
// kernel runs under PM sampling instead and each update is a batch of samples.
struct LiveProfileRequest {
    std::vector<std::string> kernels;  // 1 .. kMaxLiveKernels
    kernels::GemmProblem problem;
    std::vector<std::string> metrics;  // range profiler names; required unless timeline
    std::uint64_t seed = 1;
    std::optional<LiveTimelineSettings> timeline;
    std::uint64_t max_updates = 0;  // 0 .. 10^9; 0: until stopped
};

// {"type": "stop", "id": N}: sent by the client while the streaming request N runs; the worker
// ends that request with its result after the update in progress. Never answered itself: a stop
// that arrives after the request ended (it crossed the result) is ignored.
struct StopRequest {};
// {"type": "clock_skew", "rounds": 101}: the clock skew probe (kernels/probes/clock_skew_probe.h)
// for `rounds` rounds: how far apart the SMs' %globaltimer readings of one instant are, the bound
// on the warp traces' common time base.
struct ClockSkewRequest {
    int rounds = 101;  // 1 .. kMaxClockSkewRounds
};
inline constexpr int kMaxClockSkewRounds = 10000;

using RequestBody =
    std::variant<HelloRequest, LoadRequest, BenchRequest, WorkerProfileRequest, ExerciseRequest,
                 ShutdownRequest, WorkerSourceRequest, TraceRequest, BankMeasureRequest,
                 LayoutVerifyRequest, LiveProfileRequest, StopRequest, ClockSkewRequest>;

struct Request {
    std::int64_t id = 0;
    RequestBody body;
};

// "hello", "load", "bench", "profile", "exercise", "shutdown", "source", "trace",
// "bank_measure", "layout_verify", "live_profile", "stop", "clock_skew".
const char* request_type(const RequestBody& body);
// Every type, for error messages: "hello, load, bench, profile, exercise, shutdown, source,
// trace, bank_measure, layout_verify, live_profile, stop, clock_skew".
std::string request_types();

// One line of JSON, without the '\n'. Defaults are written out, so the line says everything.
std::string encode_request(const Request& request);

// What decode_request found in a line.
struct DecodedRequest {
    std::optional<Request> request;  // set when the line is a valid request
    std::int64_t id = 0;             // the line's id when it could be read, even if the rest is bad
    std::string error;               // one line naming what is wrong when `request` is unset
};

// Reads one line (without its '\n') strictly: JSON, an object, a valid id and type, only the
// type's fields, each of the right type and range.
DecodedRequest decode_request(std::string_view line);

}  // namespace tclens::worker
