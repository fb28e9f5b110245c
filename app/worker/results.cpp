#include "app/worker/results.h"

#include "app/worker/requests.h"
#include "app/worker/strict_fields.h"
#include "kernels/problem_text.h"
#include "profiling/bench_json.h"
#include "profiling/device_json.h"
#include "profiling/json_reader.h"
#include "profiling/profile_json.h"
#include "profiling/source/source_profile_json.h"
#include "viz/error_map_json.h"
#include "viz/warp_trace_json.h"

namespace tclens::worker {
namespace {

constexpr std::size_t kMaxText = 64 * 1024;
constexpr std::size_t kMaxItems = 100000;

// A hello's optional "instruction_mixes": an array of profiling/recorded_mix.h entries.
void read_mixes(const nlohmann::json& json, StrictFields& f,
                std::vector<profiling::RecordedInstructionMix>& mixes) {
    f.known("instruction_mixes");
    if (!f.ok() || !json.contains("instruction_mixes")) return;
    const nlohmann::json& list = json.at("instruction_mixes");
    if (!list.is_array() || list.size() > kMaxItems) {
        return f.fail("field 'instruction_mixes' must be an array of at most " +
                      std::to_string(kMaxItems) + " mixes, got " + shown_value(list));
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
        profiling::RecordedInstructionMix mix;
        std::string mix_error;
        if (!profiling::recorded_mix_from_json(list[i], mix, mix_error)) {
            return f.fail("field 'instruction_mixes' item " + std::to_string(i) + ": " + mix_error);
        }
        mixes.push_back(std::move(mix));
    }
}

}  // namespace

nlohmann::json to_json(const HelloResult& r) {
    nlohmann::json json = {{"protocol", r.protocol},
                           {"tclens_version", r.tclens_version},
                           {"pid", r.pid},
                           {"host", r.host},
                           {"system", profiling::to_json(r.system)}};
    if (r.mixes) {
        nlohmann::json mixes = nlohmann::json::array();
        for (const profiling::RecordedInstructionMix& mix : r.mixes->mixes) {
            mixes.push_back(profiling::to_json(mix));
        }
        json["instruction_mixes"] = std::move(mixes);
        json["instruction_mixes_missing"] = r.mixes->missing;
    }
    return json;
}

nlohmann::json to_json(const LoadResult& r) {
    nlohmann::json can_run = nlohmann::json::array();
    for (const CanRun& c : r.can_run) {
        can_run.push_back({{"problem", kernels::problem_text(c.problem)},
                           {"reason", c.reason},
                           {"plan", c.plan}});
    }
    return {{"kernel", r.descriptor},
            {"form", r.form},
            {"path", r.path},
            {"function", r.function},
            {"compile_ms", r.compile_ms},
            {"load_ms", r.load_ms},
            {"loaded", r.loaded},
            {"can_run", can_run},
            {"warnings", r.warnings},
            {"instruction_mix",
             r.instruction_mix ? profiling::to_json(*r.instruction_mix) : nlohmann::json()},
            {"instruction_mix_missing", r.instruction_mix_missing}};
}

nlohmann::json to_json(const BenchResult& r) {
    nlohmann::json runs = nlohmann::json::array();
    for (std::size_t i = 0; i < r.report.rows.size(); ++i) {
        const kernels::RunResult& row = r.report.rows[i].result;
        const RunTimes times = i < r.times.size() ? r.times[i] : RunTimes{};
        runs.push_back(
            {{"kernel", row.kernel_id},
             {"problem", kernels::problem_text(row.problem)},
             {"verify_ms", times.verify_ms},
             {"time_ms", times.time_ms},
             {"out_of_bounds", row.check.out_of_bounds},
             {"error_map",
              row.check.error_map ? viz::error_map_json(*row.check.error_map) : nlohmann::json()}});
    }
    nlohmann::json dram;  // null unless measured
    if (r.dram) dram = {{"bytes_per_s", r.dram->bytes_per_s}, {"method", r.dram->method}};
    return {{"report", profiling::to_json(r.report)},
            {"runs", runs},
            {"dram", dram},
            {"dram_error", r.dram_error}};
}

nlohmann::json to_json(const ProfileResult& r) {
    if (r.timeline) return {{"timeline", profiling::to_json(*r.timeline)}};
    if (r.profile) return {{"profile", profiling::to_json(*r.profile)}};
    return nlohmann::json::object();
}

bool hello_from_json(const nlohmann::json& json, HelloResult& result, std::string& error) {
    HelloResult out;
    StrictFields f(json, "hello result");
    f.whole("protocol", out.protocol, true, 1, 1000000);
    f.text("tclens_version", out.tclens_version, true, 256);
    f.whole("pid", out.pid, true, 1, std::int64_t{1} << 40);
    f.text("host", out.host, true, 1024, true);
    if (const nlohmann::json* system = f.object("system", true, false)) {
        std::string system_error;
        if (!profiling::system_report_from_json(*system, out.system, system_error))
            f.fail("field 'system': " + system_error);
    }
    if (json.is_object() &&
        (json.contains("instruction_mixes") || json.contains("instruction_mixes_missing"))) {
        out.mixes.emplace();
        read_mixes(json, f, out.mixes->mixes);
        f.text("instruction_mixes_missing", out.mixes->missing, false, kMaxText, true);
    }
    f.finish();
    if (!f.ok()) return refuse(error, f.error());
    result = std::move(out);
    return true;
}

bool load_from_json(const nlohmann::json& json, LoadResult& result, std::string& error) {
    LoadResult out;
    StrictFields f(json, "load result");
    if (const nlohmann::json* kernel = f.object("kernel", true, false)) {
        out.descriptor = *kernel;
        std::string precision;
        std::string descriptor_error;
        profiling::JsonReader read(descriptor_error);
        read(*kernel, "id", out.id);
        read(*kernel, "precision", precision);
        read(*kernel, "reference_id", out.reference_id);
        if (read.ok() && !profiling::parse_precision(precision, out.precision))
            read.fail("unknown precision '" + precision + "'");
        if (read.ok() && out.id.empty()) read.fail("empty id");
        if (!read.ok()) f.fail("field 'kernel': " + descriptor_error);
    }
    f.text("form", out.form, true, 64);
    f.text("path", out.path, true, 4096);
    f.text("function", out.function, true, 4096);
    f.number("compile_ms", out.compile_ms, true, 0, 1e9);
    f.number("load_ms", out.load_ms, true, 0, 1e9);
    f.flag("loaded", out.loaded, true);
    f.known("can_run");
    if (f.ok()) {
        const nlohmann::json* list = json.contains("can_run") ? &json.at("can_run") : nullptr;
        if (list == nullptr || !list->is_array()) {
            f.fail("field 'can_run' must be an array");
        } else {
            for (const nlohmann::json& item : *list) {
                CanRun c;
                StrictFields g(item, "load result's can_run");
                g.problem("problem", c.problem, true);
                g.text("reason", c.reason, true, kMaxText, true);
                g.text("plan", c.plan, false, kMaxText, true);
                g.finish();
                if (!g.ok()) {
                    f.fail(g.error());
                    break;
                }
                out.can_run.push_back(c);
            }
        }
    }
    f.texts("warnings", out.warnings, true, 0, kMaxItems, kMaxText, true);
    if (const nlohmann::json* mix = f.object("instruction_mix", false, true)) {
        profiling::RecordedInstructionMix recorded;
        std::string mix_error;
        if (!profiling::recorded_mix_from_json(*mix, recorded, mix_error)) {
            f.fail("field 'instruction_mix': " + mix_error);
        } else {
            out.instruction_mix = std::move(recorded);
        }
    }
    const bool mix_told = json.is_object() && (json.contains("instruction_mix") ||
                                               json.contains("instruction_mix_missing"));
    f.text("instruction_mix_missing", out.instruction_mix_missing, false, kMaxText, true);
    if (!mix_told) out.instruction_mix_missing = "the worker sent no instruction mix";
    f.finish();
    if (!f.ok()) return refuse(error, f.error());
    result = std::move(out);
    return true;
}

bool bench_from_json(const nlohmann::json& json, BenchResult& result, std::string& error) {
    BenchResult out;
    StrictFields f(json, "bench result");
    if (const nlohmann::json* report = f.object("report", true, false)) {
        std::string report_error;
        if (!profiling::bench_report_from_json(*report, out.report, report_error))
            f.fail("field 'report': " + report_error);
    }
    f.known("runs");
    const nlohmann::json* runs =
        json.is_object() && json.contains("runs") ? &json.at("runs") : nullptr;
    if (f.ok() && (runs == nullptr || !runs->is_array())) f.fail("missing array 'runs'");
    if (f.ok() && runs->size() != out.report.rows.size()) {
        f.fail("field 'runs' has " + std::to_string(runs->size()) + " entries for " +
               std::to_string(out.report.rows.size()) + " report rows");
    }
    for (std::size_t i = 0; f.ok() && i < out.report.rows.size(); ++i) {
        kernels::RunResult& row = out.report.rows[i].result;
        RunTimes t;
        StrictFields g(runs->at(i), "bench result's runs[" + std::to_string(i) + "]");
        g.text("kernel", t.kernel, true, 256);
        g.problem("problem", t.problem, true);
        g.number("verify_ms", t.verify_ms, true, 0, 1e9);
        g.number("time_ms", t.time_ms, true, 0, 1e9);
        g.text("out_of_bounds", row.check.out_of_bounds, true, kMaxText, true);
        if (const nlohmann::json* map = g.object("error_map", true, true)) {
            viz::ErrorMap read;
            std::string map_error;
            if (viz::error_map_from_json(*map, read, map_error)) {
                row.check.error_map = std::move(read);
            } else {
                g.fail("field 'error_map': " + map_error);
            }
        }
        g.finish();
        const kernels::GemmProblem& p = row.problem;
        if (g.ok() && (t.kernel != row.kernel_id || t.problem.m != p.m || t.problem.n != p.n ||
                       t.problem.k != p.k)) {
            g.fail("names " + t.kernel + " " + kernels::problem_text(t.problem) + ", its row " +
                   row.kernel_id + " " + kernels::problem_text(p));
        }
        if (!g.ok()) f.fail(g.error());
        out.times.push_back(t);
    }
    if (const nlohmann::json* dram = f.object("dram", false, true)) {
        profiling::DramBandwidth measured;
        StrictFields g(*dram, "bench result's dram");
        g.number("bytes_per_s", measured.bytes_per_s, true, 1, 1e15);
        g.text("method", measured.method, true, kMaxText, true);
        g.finish();
        if (g.ok()) {
            out.dram = measured;
        } else {
            f.fail(g.error());
        }
    }
    f.text("dram_error", out.dram_error, false, kMaxText, true);
    f.finish();
    if (!f.ok()) return refuse(error, f.error());
    result = std::move(out);
    return true;
}

bool profile_from_json(const nlohmann::json& json, ProfileResult& result, std::string& error) {
    ProfileResult out;
    StrictFields f(json, "profile result");
    const nlohmann::json* profile = f.object("profile", false, false);
    const nlohmann::json* timeline = f.object("timeline", false, false);
    if (f.ok() && (profile == nullptr) == (timeline == nullptr))
        f.fail("needs exactly one of 'profile' and 'timeline'");
    std::string inner;
    if (f.ok() && profile != nullptr) {
        out.profile.emplace();
        if (!profiling::kernel_profile_from_json(*profile, *out.profile, inner))
            f.fail("field 'profile': " + inner);
    }
    if (f.ok() && timeline != nullptr) {
        out.timeline.emplace();
        if (!profiling::kernel_timeline_from_json(*timeline, *out.timeline, inner))
            f.fail("field 'timeline': " + inner);
    }
    f.finish();
    if (!f.ok()) return refuse(error, f.error());
    result = std::move(out);
    return true;
}

nlohmann::json to_json(const ExerciseResult& r) {
    nlohmann::json operands = nlohmann::json::array();
    for (const kernels::user::ExerciseOperand& operand : r.report.operands) {
        nlohmann::json elements = nlohmann::json::array();
        for (const kernels::user::ExerciseElement& e : operand.elements) {
            elements.push_back({{"row", e.row},
                                {"col", e.col},
                                {"lane", e.lane},
                                {"reg", e.reg},
                                {"sub", e.sub},
                                {"correct", e.correct},
                                {"went_row", e.went_row},
                                {"went_col", e.went_col},
                                {"outcome", e.outcome}});
        }
        operands.push_back({{"operand", std::string(1, viz::operand_letter(operand.operand))},
                            {"rows", operand.rows},
                            {"cols", operand.cols},
                            {"wrong", operand.wrong},
                            {"elements", elements}});
    }
    return {{"summary", r.summary},          {"layout_id", r.report.layout_id},
            {"function", r.report.function}, {"product_correct", r.report.product_correct},
            {"wrong", r.report.wrong},       {"operands", operands}};
}

bool exercise_from_json(const nlohmann::json& json, ExerciseResult& result, std::string& error) {
    constexpr int kMaxSide = 1 << 16;
    ExerciseResult out;
    StrictFields f(json, "exercise result");
    f.text("summary", out.summary, true, kMaxText);
    f.text("layout_id", out.report.layout_id, true, 256);
    f.text("function", out.report.function, true, 4096);
    f.flag("product_correct", out.report.product_correct, true);
    f.whole("wrong", out.report.wrong, true, 0, 1 << 30);
    f.known("operands");
    const nlohmann::json* operands =
        json.is_object() && json.contains("operands") ? &json.at("operands") : nullptr;
    if (f.ok() && (operands == nullptr || !operands->is_array()))
        f.fail("missing array 'operands'");
    if (f.ok()) {
        for (const nlohmann::json& item : *operands) {
            kernels::user::ExerciseOperand operand;
            StrictFields g(item, "exercise result's operand");
            std::string letter;
            g.text("operand", letter, true, 1);
            const std::optional<viz::Operand> parsed = viz::parse_operand(letter);
            if (g.ok() && !parsed) g.fail("field 'operand' must be A, B, C, D or E, got " + letter);
            if (parsed) operand.operand = *parsed;
            g.whole("rows", operand.rows, true, 0, kMaxSide);
            g.whole("cols", operand.cols, true, 0, kMaxSide);
            g.whole("wrong", operand.wrong, true, 0, 1 << 30);
            g.known("elements");
            const nlohmann::json* elements =
                item.is_object() && item.contains("elements") ? &item.at("elements") : nullptr;
            if (g.ok() && (elements == nullptr || !elements->is_array()))
                g.fail("missing array 'elements'");
            if (g.ok()) {
                for (const nlohmann::json& e : *elements) {
                    kernels::user::ExerciseElement element;
                    StrictFields h(e, "exercise result's element");
                    h.whole("row", element.row, true, 0, kMaxSide);
                    h.whole("col", element.col, true, 0, kMaxSide);
                    h.whole("lane", element.lane, true, 0, 1024);
                    h.whole("reg", element.reg, true, 0, 1024);
                    h.whole("sub", element.sub, true, 0, 64);
                    h.flag("correct", element.correct, true);
                    h.whole("went_row", element.went_row, true, -1, kMaxSide);
                    h.whole("went_col", element.went_col, true, -1, kMaxSide);
                    h.text("outcome", element.outcome, true, kMaxText, true);
                    h.finish();
                    if (!h.ok()) {
                        g.fail(h.error());
                        break;
                    }
                    operand.elements.push_back(std::move(element));
                }
            }
            g.finish();
            if (!g.ok()) {
                f.fail(g.error());
                break;
            }
            out.report.operands.push_back(std::move(operand));
        }
    }
    f.finish();
    if (!f.ok()) return refuse(error, f.error());
    result = std::move(out);
    return true;
}

nlohmann::json to_json(const SourceResult& r) {
    return {{"source", profiling::to_json(r.profile)}};
}

bool source_from_json(const nlohmann::json& json, SourceResult& result, std::string& error) {
    SourceResult out;
    StrictFields f(json, "source result");
    if (const nlohmann::json* source = f.object("source", true, false)) {
        std::string inner;
        if (!profiling::source_profile_from_json(*source, out.profile, inner)) {
            f.fail("field 'source': " + inner);
        } else if (!out.profile.ok()) {
            f.fail("field 'source' holds a failed profile (" + out.profile.error.message +
                   "); a refusal is an error message");
        }
    }
    f.finish();
    if (!f.ok()) return refuse(error, f.error());
    result = std::move(out);
    return true;
}

nlohmann::json to_json(const TraceResult& r) { return {{"trace", viz::warp_trace_json(r.trace)}}; }

bool trace_from_json(const nlohmann::json& json, TraceResult& result, std::string& error) {
    TraceResult out;
    StrictFields f(json, "trace result");
    if (const nlohmann::json* trace = f.object("trace", true, false)) {
        std::string trace_error;
        if (!viz::warp_trace_from_json(*trace, out.trace, trace_error))
            f.fail("field 'trace': " + trace_error);
    }
    f.finish();
    if (!f.ok()) return refuse(error, f.error());
    result = std::move(out);
    return true;
}

nlohmann::json to_json(const BankMeasureResult& r) {
    const profiling::BankMeasurement& m = r.measurement;
    return {{"device", r.device},
            {"wavefronts_per_request", m.wavefronts_per_request},
            {"iterations", m.iterations},
            {"requests", m.requests},
            {"wavefront_metric", m.wavefront_metric},
            {"instruction_metric", m.instruction_metric},
            {"baseline_wavefronts", m.baseline_wavefronts},
            {"run_wavefronts", m.run_wavefronts},
            {"instructions_per_iteration", m.instructions_per_iteration},
            {"passes", m.passes}};
}

namespace {

// [{"operand": "A", "element": 5}, ...]: the register slots of a layout_verify's mismatches.
nlohmann::json wrong_slots_json(const std::vector<kernels::WrongSlot>& slots) {
    nlohmann::json out = nlohmann::json::array();
    for (const kernels::WrongSlot& slot : slots) {
        out.push_back({{"operand", std::string(1, viz::operand_letter(slot.operand))},
                       {"element", slot.element}});
    }
    return out;
}

// Reads "wrong" (optional: a worker of an earlier tclens leaves it out; then no slot is marked).
void read_wrong_slots(StrictFields& f, const nlohmann::json& json,
                      std::vector<kernels::WrongSlot>& out) {
    f.known("wrong");
    if (!f.ok() || !json.contains("wrong")) return;
    const nlohmann::json& slots = json["wrong"];
    if (!slots.is_array() || slots.size() > kMaxItems)
        return f.fail("field 'wrong' must be an array of at most " + std::to_string(kMaxItems) +
                      " slots, got " + shown_value(slots));
    for (const nlohmann::json& slot : slots) {
        if (!slot.is_object())
            return f.fail("field 'wrong' must hold objects, got " + shown_value(slot));
        StrictFields item(slot, "a slot of 'wrong'");
        std::string letter;
        kernels::WrongSlot read;
        item.text("operand", letter, true, 1);
        item.whole("element", read.element, true, 0, 1 << 30);
        item.finish();
        const auto operand = viz::parse_operand(letter);
        if (item.ok() && !operand)
            item.fail("field 'operand' must be A, B, C, D or E, got " + shown_value(letter));
        if (!item.ok()) return f.fail(item.error());
        read.operand = *operand;
        out.push_back(read);
    }
}

}  // namespace

nlohmann::json to_json(const LayoutVerifyResult& r) {
    return {{"layout", r.layout},
            {"device", r.device},
            {"matched", r.comparison.matched},
            {"total", r.comparison.total},
            {"mismatches", r.comparison.mismatches},
            {"wrong", wrong_slots_json(r.comparison.wrong)}};
}

bool bank_measure_from_json(const nlohmann::json& json, BankMeasureResult& result,
                            std::string& error) {
    constexpr double kMaxCount = 1e18;  // wavefronts of a launch, well above any real one
    BankMeasureResult out;
    profiling::BankMeasurement& m = out.measurement;
    StrictFields f(json, "bank_measure result");
    f.text("device", out.device, true, 1024, true);
    f.number("wavefronts_per_request", m.wavefronts_per_request, true, -kMaxCount, kMaxCount);
    f.whole("iterations", m.iterations, true, 1, 1'000'000);
    f.whole("requests", m.requests, true, 0, 1 << 20);
    f.text("wavefront_metric", m.wavefront_metric, true, 256, true);
    f.text("instruction_metric", m.instruction_metric, true, 256, true);
    f.number("baseline_wavefronts", m.baseline_wavefronts, true, -kMaxCount, kMaxCount);
    f.number("run_wavefronts", m.run_wavefronts, true, -kMaxCount, kMaxCount);
    f.number("instructions_per_iteration", m.instructions_per_iteration, true, -kMaxCount,
             kMaxCount);
    std::uint64_t passes = 0;
    f.whole("passes", passes, true, 1 << 20);
    m.passes = passes;
    f.finish();
    if (!f.ok()) return refuse(error, f.error());
    result = std::move(out);
    return true;
}

bool layout_verify_from_json(const nlohmann::json& json, LayoutVerifyResult& result,
                             std::string& error) {
    LayoutVerifyResult out;
    StrictFields f(json, "layout_verify result");
    f.text("layout", out.layout, true, 256);
    f.text("device", out.device, true, 1024, true);
    f.whole("matched", out.comparison.matched, true, 0, 1 << 30);
    f.whole("total", out.comparison.total, true, 0, 1 << 30);
    f.texts("mismatches", out.comparison.mismatches, true, 0, kMaxItems, 1024);
    read_wrong_slots(f, json, out.comparison.wrong);
    if (f.ok() && out.comparison.matched > out.comparison.total)
        f.fail("field 'matched' must be at most 'total' (" + std::to_string(out.comparison.total) +
               "), got " + std::to_string(out.comparison.matched));
    f.finish();
    if (!f.ok()) return refuse(error, f.error());
    result = std::move(out);
    return true;
}

nlohmann::json to_json(const ClockSkewResult& r) {
    const kernels::ClockSkewSummary& s = r.summary;
    return {{"device", r.device},
            {"rounds", s.rounds},
            {"blocks", s.blocks},
            {"distinct_sms", s.distinct_sms},
            {"min_spread_ns", s.min_spread_ns},
            {"median_spread_ns", s.median_spread_ns},
            {"max_spread_ns", s.max_spread_ns},
            {"median_clock_spread", s.median_clock_spread},
            {"tick_ns", s.tick_ns}};
}

bool clock_skew_from_json(const nlohmann::json& json, ClockSkewResult& result, std::string& error) {
    constexpr std::int64_t kMaxSpread = std::int64_t{1} << 62;
    ClockSkewResult out;
    kernels::ClockSkewSummary& s = out.summary;
    StrictFields f(json, "clock_skew result");
    f.text("device", out.device, true, 1024, true);
    f.whole("rounds", s.rounds, true, 1, kMaxClockSkewRounds);
    f.whole("blocks", s.blocks, true, 1, 1 << 20);
    f.whole("distinct_sms", s.distinct_sms, true, 0, 1 << 20);
    f.whole("min_spread_ns", s.min_spread_ns, true, 0, kMaxSpread);
    f.whole("median_spread_ns", s.median_spread_ns, true, 0, kMaxSpread);
    f.whole("max_spread_ns", s.max_spread_ns, true, 0, kMaxSpread);
    f.whole("median_clock_spread", s.median_clock_spread, true, 0, kMaxSpread);
    f.whole("tick_ns", s.tick_ns, true, 0, kMaxSpread);
    f.finish();
    if (!f.ok()) return refuse(error, f.error());
    result = std::move(out);
    return true;
}

}  // namespace tclens::worker
