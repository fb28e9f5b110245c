#include "profiling/source/source_profile_json.h"

#include <algorithm>

#include "profiling/json_reader.h"
#include "profiling/profile_json.h"
#include "profiling/source/stall_reasons.h"

namespace tclens::profiling {
namespace {

using nlohmann::json;

json instruction_json(const InstructionProfile& instruction) {
    json frames = json::array();
    for (const SourceLocation& frame : instruction.frames) {
        frames.push_back({{"file", frame.file}, {"line", frame.line}});
    }
    json stalls = json::object();
    for (const StallSamples& stall : instruction.stalls) stalls[stall.key] = stall.samples;
    return {{"function", instruction.function},
            {"pc", instruction.pc},
            {"sass", instruction.sass},
            {"opcode", instruction.opcode},
            {"frames", frames},
            {"samples", instruction.samples},
            {"stalls", stalls},
            {"counted", instruction.counted},
            {"executed", instruction.executed},
            {"shared_wavefronts", instruction.shared_wavefronts},
            {"shared_ideal", instruction.shared_ideal()},
            {"shared_conflicts", instruction.shared_conflicts},
            {"global_sectors", instruction.global_sectors},
            {"shared_access", instruction.shared_access},
            {"shared_access_candidates", instruction.shared_access_candidates}};
}

bool instruction_from_json(const json& in, InstructionProfile& instruction, std::string& error) {
    JsonReader read(error);
    read(in, "function", instruction.function);
    read(in, "pc", instruction.pc);
    read(in, "sass", instruction.sass);
    read(in, "opcode", instruction.opcode);
    read.array(in, "frames", [&](const json& frame) {
        SourceLocation location;
        read(frame, "file", location.file);
        read(frame, "line", location.line);
        instruction.frames.push_back(location);
    });
    if (read.ok() && (!in.contains("stalls") || !in.at("stalls").is_object())) {
        read.fail("missing object 'stalls'");
    }
    if (read.ok()) {
        for (const auto& [key, value] : in.at("stalls").items()) {
            StallSamples stall;
            stall.key = key;
            read(in.at("stalls"), key.c_str(), stall.samples);
            instruction.stalls.push_back(stall);
        }
        std::stable_sort(
            instruction.stalls.begin(), instruction.stalls.end(),
            [](const StallSamples& a, const StallSamples& b) { return a.samples > b.samples; });
    }
    read(in, "samples", instruction.samples);
    read(in, "counted", instruction.counted);
    read(in, "executed", instruction.executed);
    read(in, "shared_wavefronts", instruction.shared_wavefronts);
    read(in, "shared_conflicts", instruction.shared_conflicts);
    read(in, "global_sectors", instruction.global_sectors);
    read(in, "shared_access", instruction.shared_access);
    read(in, "shared_access_candidates", instruction.shared_access_candidates);
    if (read.ok()) {
        std::uint64_t sum = 0;
        for (const StallSamples& stall : instruction.stalls) sum += stall.samples;
        if (sum != instruction.samples) {
            read.fail("'samples' (" + std::to_string(instruction.samples) +
                      ") is not the sum of 'stalls' (" + std::to_string(sum) + ")");
        }
    }
    return read.ok();
}

}  // namespace

json to_json(const SourceProfile& profile) {
    json out;
    write_run_fields(out, profile.kernel_id, profile.precision, profile.problem, profile.device,
                     profile.chip, profile.check, profile.error);
    out["sass_how"] = profile.sass_how;
    out["sass_missing"] = profile.sass_missing;
    out["line_info_missing"] = profile.line_info_missing;
    out["sampling_missing"] = profile.sampling_missing;
    out["counters_missing"] = profile.counters_missing;
    out["totals_missing"] = profile.totals_missing;
    out["period_log2"] = profile.period_log2;
    out["dropped_samples"] = profile.dropped_samples;
    out["total_samples"] = profile.total_samples();
    out["functions"] = profile.functions;
    json instructions = json::array();
    for (const InstructionProfile& instruction : profile.instructions) {
        instructions.push_back(instruction_json(instruction));
    }
    out["instructions"] = instructions;
    json files = json::array();
    for (const SourceFile& file : profile.files) {
        files.push_back({{"path", file.path}, {"text", file.text}, {"absent", file.absent}});
    }
    out["files"] = files;
    json stalls = json::array();
    for (const StallShare& share : profile.stalls) {
        const StallReasonInfo info = stall_reason_or_unknown(share.key);
        stalls.push_back({{"key", share.key},
                          {"label", info.label},
                          {"ncu_column", info.ncu_column},
                          {"meaning", info.meaning},
                          {"samples", share.samples},
                          {"share_pct", share.share_pct}});
    }
    out["stalls"] = stalls;
    json checks = json::array();
    for (const TotalsCheck& check : profile.checks) {
        checks.push_back({{"what", check.what},
                          {"range_metric", check.range_metric},
                          {"available", check.available},
                          {"why_not", check.why_not},
                          {"instruction_sum", check.instruction_sum},
                          {"range_total", check.range_total},
                          {"equal", check.equal()}});
    }
    out["checks"] = checks;
    out["timings_ms"] = {{"prepare", profile.prepare_ms},         {"sampling", profile.sampling_ms},
                         {"counters", profile.counters_ms},       {"totals", profile.totals_ms},
                         {"disassembly", profile.disassembly_ms}, {"total", profile.total_ms}};
    return out;
}

bool source_profile_from_json(const json& in, SourceProfile& out, std::string& error) {
    error.clear();
    out = SourceProfile{};
    JsonReader read(error);
    read_run_fields(read, in, out.kernel_id, out.precision, out.problem, out.device, out.chip,
                    out.check, out.error);
    read(in, "sass_how", out.sass_how);
    read(in, "sass_missing", out.sass_missing);
    read(in, "line_info_missing", out.line_info_missing);
    read(in, "sampling_missing", out.sampling_missing);
    read(in, "counters_missing", out.counters_missing);
    read(in, "totals_missing", out.totals_missing);
    read(in, "period_log2", out.period_log2);
    read(in, "dropped_samples", out.dropped_samples);
    read(in, "functions", out.functions);
    read.array(in, "instructions", [&](const json& element) {
        InstructionProfile instruction;
        std::string problem;
        if (!instruction_from_json(element, instruction, problem)) {
            read.fail("instructions[" + std::to_string(out.instructions.size()) + "]: " + problem);
            return;
        }
        out.instructions.push_back(std::move(instruction));
    });
    read.array(in, "files", [&](const json& element) {
        SourceFile file;
        read(element, "path", file.path);
        read(element, "text", file.text);
        read(element, "absent", file.absent);
        out.files.push_back(std::move(file));
    });
    read.array(in, "checks", [&](const json& element) {
        TotalsCheck check;
        read(element, "what", check.what);
        read(element, "range_metric", check.range_metric);
        read(element, "available", check.available);
        read(element, "why_not", check.why_not);
        read(element, "instruction_sum", check.instruction_sum);
        read(element, "range_total", check.range_total);
        out.checks.push_back(std::move(check));
    });
    if (read.ok() && in.contains("timings_ms") && in.at("timings_ms").is_object()) {
        const json& timings = in.at("timings_ms");
        read(timings, "prepare", out.prepare_ms);
        read(timings, "sampling", out.sampling_ms);
        read(timings, "counters", out.counters_ms);
        read(timings, "totals", out.totals_ms);
        read(timings, "disassembly", out.disassembly_ms);
        read(timings, "total", out.total_ms);
    } else {
        read.fail("missing object 'timings_ms'");
    }
    if (!read.ok()) return false;
    aggregate_source_profile(out);
    return true;
}

}  // namespace tclens::profiling
