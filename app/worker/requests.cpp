#include "app/worker/requests.h"

#include <limits>
#include <nlohmann/json.hpp>

#include "app/worker/strict_fields.h"
#include "common/text.h"
#include "kernels/problem_text.h"
#include "kernels/trace_limits.h"

namespace tclens::worker {
namespace {

constexpr std::size_t kMaxIdBytes = 256;      // a kernel id, swizzle spec, pattern, layout id
constexpr std::size_t kMaxRefBytes = 4096;    // "path.cu[:name]"
constexpr std::size_t kMaxKernels = 64;       // per bench request
constexpr std::size_t kMaxProblems = 64;      // per bench or load request
constexpr std::size_t kMaxMetrics = 256;      // names per profile request
constexpr std::size_t kMaxMetricBytes = 256;  // one CUPTI name
constexpr std::uint64_t kMaxSeed = std::numeric_limits<std::uint64_t>::max();

constexpr int kMaxTileSide = 1 << 20;  // a bank tile's rows or row bytes

const char* const kTypes[] = {
    "hello", "load",         "bench",         "profile",      "exercise", "shutdown",  "source",
    "trace", "bank_measure", "layout_verify", "live_profile", "stop",     "clock_skew"};

nlohmann::json problem_texts(const std::vector<kernels::GemmProblem>& problems) {
    nlohmann::json texts = nlohmann::json::array();
    for (const kernels::GemmProblem& p : problems) texts.push_back(kernels::problem_text(p));
    return texts;
}

// The "timeline" field of a profile or live_profile request: null, or its object.
template <typename Timeline>
nlohmann::json timeline_json(const std::optional<Timeline>& timeline) {
    if (!timeline) return nullptr;
    nlohmann::json object = {{"interval_ns", timeline->interval_ns},
                             {"duration_ms", timeline->duration_ms}};
    if (!timeline->metrics.empty()) object["metrics"] = timeline->metrics;
    return object;
}

struct Encoder {
    nlohmann::json& out;
    void operator()(const HelloRequest& r) const { out["protocol"] = r.protocol; }
    void operator()(const LoadRequest& r) const {
        out["ref"] = r.ref;
        out["compile_only"] = r.compile_only;
        if (!r.problems.empty()) out["problems"] = problem_texts(r.problems);
    }
    void operator()(const BenchRequest& r) const {
        out["kernels"] = r.kernels;
        out["problems"] = problem_texts(r.problems);
        out["runs"] = r.runs;
        out["warmup"] = r.warmup;
        out["seed"] = r.seed;
        out["peaks"] = r.peaks;
        out["references"] = r.references;
        out["dram"] = r.dram;
        out["check_counters"] = r.check_counters;
    }
    void operator()(const WorkerProfileRequest& r) const {
        out["kernel"] = r.kernel;
        out["problem"] = kernels::problem_text(r.problem);
        if (!r.metrics.empty()) out["metrics"] = r.metrics;
        out["drop_unavailable"] = r.drop_unavailable;
        out["flush_l2"] = r.flush_l2;
        out["seed"] = r.seed;
        out["timeline"] = timeline_json(r.timeline);
    }
    void operator()(const ExerciseRequest& r) const { out["ref"] = r.ref; }
    void operator()(const ShutdownRequest&) const {}
    void operator()(const WorkerSourceRequest& r) const {
        out["kernel"] = r.kernel;
        out["problem"] = kernels::problem_text(r.problem);
        out["seed"] = r.seed;
        out["target_samples"] = r.target_samples;
        out["period_log2"] = r.period_log2;
    }
    void operator()(const TraceRequest& r) const {
        out["kernel"] = r.kernel;
        out["problem"] = kernels::problem_text(r.problem);
        out["blocks"] = r.blocks;
        out["seed"] = r.seed;
    }
    void operator()(const BankMeasureRequest& r) const {
        out["swizzle"] = r.swizzle;
        out["pattern"] = r.pattern;
        out["rows"] = r.rows;
        out["row_bytes"] = r.row_bytes;
        out["iterations"] = r.iterations;
    }
    void operator()(const LayoutVerifyRequest& r) const { out["layout"] = r.layout; }
    void operator()(const LiveProfileRequest& r) const {
        out["kernels"] = r.kernels;
        out["problem"] = kernels::problem_text(r.problem);
        if (!r.metrics.empty()) out["metrics"] = r.metrics;
        out["seed"] = r.seed;
        out["timeline"] = timeline_json(r.timeline);
        out["max_updates"] = r.max_updates;
    }
    void operator()(const StopRequest&) const {}
    void operator()(const ClockSkewRequest& r) const { out["rounds"] = r.rounds; }
};

RequestBody read_hello(StrictFields& f) {
    HelloRequest r;
    f.whole("protocol", r.protocol, true, 1, 1000000);
    return r;
}

RequestBody read_load(StrictFields& f) {
    LoadRequest r;
    f.text("ref", r.ref, true, kMaxRefBytes);
    f.flag("compile_only", r.compile_only, false);
    f.problems("problems", r.problems, false, kMaxProblems);
    return r;
}

RequestBody read_bench(StrictFields& f) {
    BenchRequest r;
    f.texts("kernels", r.kernels, true, 1, kMaxKernels, kMaxIdBytes);
    f.problems("problems", r.problems, true, kMaxProblems);
    f.whole("runs", r.runs, false, 1, 1000);
    f.whole("warmup", r.warmup, false, 0, 100);
    f.whole("seed", r.seed, false, kMaxSeed);
    f.flag("peaks", r.peaks, false);
    f.flag("references", r.references, false);
    f.flag("dram", r.dram, false);
    f.flag("check_counters", r.check_counters, false);
    return r;
}

// The PM sampling interval of a timeline object, 100 us .. 10 ms.
void read_interval(StrictFields& f, std::uint64_t& interval_ns) {
    f.whole("interval_ns", interval_ns, false, 10'000'000);
    if (f.ok() && interval_ns < 100'000) {
        f.fail("field 'interval_ns' must be a whole number from 100000 to 10000000, got " +
               std::to_string(interval_ns));
    }
}

TimelineSettings read_timeline(const nlohmann::json& object, StrictFields& outer) {
    TimelineSettings t;
    StrictFields f(object, "profile request's timeline");
    f.texts("metrics", t.metrics, false, 1, kMaxMetrics, kMaxMetricBytes);
    read_interval(f, t.interval_ns);
    f.whole("duration_ms", t.duration_ms, false, 50, 10000);
    f.finish();
    if (!f.ok()) outer.fail(f.error());
    return t;
}

LiveTimelineSettings read_live_timeline(const nlohmann::json& object, StrictFields& outer) {
    LiveTimelineSettings t;
    StrictFields f(object, "live_profile request's timeline");
    f.texts("metrics", t.metrics, false, 1, kMaxMetrics, kMaxMetricBytes);
    read_interval(f, t.interval_ns);
    f.whole("duration_ms", t.duration_ms, false, 0, 3'600'000);
    f.finish();
    if (!f.ok()) outer.fail(f.error());
    return t;
}

RequestBody read_live_profile(StrictFields& f) {
    LiveProfileRequest r;
    f.texts("kernels", r.kernels, true, 1, kMaxLiveKernels, kMaxIdBytes);
    f.problem("problem", r.problem, true);
    f.texts("metrics", r.metrics, false, 1, kMaxMetrics, kMaxMetricBytes);
    f.whole("seed", r.seed, false, kMaxSeed);
    if (const nlohmann::json* timeline = f.object("timeline", false, true)) {
        r.timeline = read_live_timeline(*timeline, f);
    }
    f.whole("max_updates", r.max_updates, false, 1'000'000'000);
    if (f.ok() && !r.timeline && r.metrics.empty())
        f.fail("give 'metrics' (range profiler names) or a 'timeline' object");
    if (f.ok() && r.timeline && !r.metrics.empty())
        f.fail("'metrics' is for the range profiler; a timeline takes 'timeline.metrics'");
    if (f.ok() && r.timeline && r.kernels.size() > 1) {
        f.fail("a timeline samples one kernel, got " + std::to_string(r.kernels.size()) +
               " in 'kernels'");
    }
    return r;
}

RequestBody read_profile(StrictFields& f) {
    WorkerProfileRequest r;
    f.text("kernel", r.kernel, true, kMaxIdBytes);
    f.problem("problem", r.problem, true);
    f.texts("metrics", r.metrics, false, 1, kMaxMetrics, kMaxMetricBytes);
    f.flag("drop_unavailable", r.drop_unavailable, false);
    f.flag("flush_l2", r.flush_l2, false);
    f.whole("seed", r.seed, false, kMaxSeed);
    if (const nlohmann::json* timeline = f.object("timeline", false, true)) {
        r.timeline = read_timeline(*timeline, f);
    }
    if (f.ok() && !r.timeline && r.metrics.empty())
        f.fail("give 'metrics' (range profiler names) or a 'timeline' object");
    if (f.ok() && r.timeline && !r.metrics.empty())
        f.fail("'metrics' is for the range profiler; a timeline takes 'timeline.metrics'");
    return r;
}

RequestBody read_exercise(StrictFields& f) {
    ExerciseRequest r;
    f.text("ref", r.ref, true, kMaxRefBytes);
    return r;
}

RequestBody read_source(StrictFields& f) {
    WorkerSourceRequest r;
    f.text("kernel", r.kernel, true, kMaxIdBytes);
    f.problem("problem", r.problem, true);
    f.whole("seed", r.seed, false, kMaxSeed);
    f.whole("target_samples", r.target_samples, false, 100'000'000);
    if (f.ok() && r.target_samples < 1000) {
        f.fail("field 'target_samples' must be a whole number from 1000 to 100000000, got " +
               std::to_string(r.target_samples));
    }
    f.whole("period_log2", r.period_log2, false, 0, 31);
    if (f.ok() && r.period_log2 > 0 && r.period_log2 < 5) {
        f.fail("field 'period_log2' must be 0 (chosen) or a whole number from 5 to 31, got " +
               std::to_string(r.period_log2));
    }
    return r;
}

RequestBody read_trace(StrictFields& f) {
    TraceRequest r;
    f.text("kernel", r.kernel, true, kMaxIdBytes);
    f.problem("problem", r.problem, true);
    f.whole("blocks", r.blocks, false, 1, kernels::kMaxTracedBlocks);
    f.whole("seed", r.seed, false, kMaxSeed);
    return r;
}

RequestBody read_bank_measure(StrictFields& f) {
    BankMeasureRequest r;
    f.text("swizzle", r.swizzle, true, kMaxIdBytes);
    f.text("pattern", r.pattern, true, kMaxIdBytes);
    f.whole("rows", r.rows, true, 1, kMaxTileSide);
    f.whole("row_bytes", r.row_bytes, true, 1, kMaxTileSide);
    f.whole("iterations", r.iterations, false, 1, 1'000'000);
    return r;
}

RequestBody read_layout_verify(StrictFields& f) {
    LayoutVerifyRequest r;
    f.text("layout", r.layout, true, kMaxIdBytes);
    return r;
}

RequestBody read_clock_skew(StrictFields& f) {
    ClockSkewRequest r;
    f.whole("rounds", r.rounds, false, 1, kMaxClockSkewRounds);
    return r;
}

}  // namespace

const char* request_type(const RequestBody& body) { return kTypes[body.index()]; }

std::string request_types() { return common::join(kTypes, ", "); }

std::string encode_request(const Request& request) {
    nlohmann::json out = {{"id", request.id}, {"type", request_type(request.body)}};
    std::visit(Encoder{out}, request.body);
    return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

DecodedRequest decode_request(std::string_view line) {
    DecodedRequest decoded;
    if (line.size() > kMaxRequestBytes) {
        decoded.error = "request: a line of " + std::to_string(line.size()) +
                        " bytes is longer than the " + std::to_string(kMaxRequestBytes) +
                        " a request may have";
        return decoded;
    }
    const nlohmann::json json = nlohmann::json::parse(line, nullptr, false);
    if (json.is_discarded()) {
        decoded.error = "request: not JSON (one object per line, see docs/worker-protocol.md)";
        return decoded;
    }
    StrictFields envelope(json, "request");
    envelope.whole("id", decoded.id, true, 1, kMaxRequestId);
    if (!envelope.ok()) {
        decoded.id = 0;
        decoded.error = envelope.error();
        return decoded;
    }
    std::string type;
    envelope.text("type", type, true, 64);
    int index = -1;
    for (int i = 0; i < static_cast<int>(std::size(kTypes)); ++i) {
        if (type == kTypes[i]) index = i;
    }
    if (envelope.ok() && index < 0) {
        envelope.fail("unknown type " + shown_value(type) + " (valid: " + request_types() + ")");
    }
    if (!envelope.ok()) {
        decoded.error = envelope.error();
        return decoded;
    }
    StrictFields f(json, type + " request");
    f.known("id");
    f.known("type");
    RequestBody body;
    switch (index) {
        case 0:
            body = read_hello(f);
            break;
        case 1:
            body = read_load(f);
            break;
        case 2:
            body = read_bench(f);
            break;
        case 3:
            body = read_profile(f);
            break;
        case 4:
            body = read_exercise(f);
            break;
        case 6:
            body = read_source(f);
            break;
        case 7:
            body = read_trace(f);
            break;
        case 8:
            body = read_bank_measure(f);
            break;
        case 9:
            body = read_layout_verify(f);
            break;
        case 10:
            body = read_live_profile(f);
            break;
        case 11:
            body = StopRequest{};
            break;
        case 12:
            body = read_clock_skew(f);
            break;
        default:
            body = ShutdownRequest{};
            break;
    }
    f.finish();
    if (!f.ok()) {
        decoded.error = f.error();
        return decoded;
    }
    decoded.request = Request{decoded.id, std::move(body)};
    return decoded;
}

}  // namespace tclens::worker
