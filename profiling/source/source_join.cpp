#include "profiling/source/source_join.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "profiling/source/shared_access_link.h"
#include "profiling/source/stall_reasons.h"

namespace tclens::profiling {
namespace {

using PcKey = std::pair<std::string, std::uint64_t>;

// A record's samples per reason -> the instruction's stalls (not-issued variants dropped: they
// count a subset of the same samples again).
std::vector<StallSamples> stalls_of(const PcSampleRecord& record,
                                    const std::vector<std::string>& reasons) {
    std::vector<StallSamples> stalls;
    for (std::size_t r = 0; r < record.samples.size() && r < reasons.size(); ++r) {
        if (record.samples[r] == 0) continue;
        const StallName name = parse_stall_name(reasons[r]);
        if (name.not_issued) continue;
        add_stalls(stalls, {{name.key, record.samples[r]}});
    }
    sort_stalls(stalls);
    return stalls;
}

void add_counts(InstructionProfile& instruction, const SassMetricRecord& record,
                const SassMetricsResult& result, const ChosenCounters& chosen) {
    instruction.counted = true;
    const auto value_of = [&](SourceCounter counter) -> std::uint64_t {
        std::int64_t sum = 0;
        const auto group = chosen.metrics.find(counter);
        if (group == chosen.metrics.end()) return 0;
        for (const std::string& entry : group->second) {
            const bool subtract = subtracted(entry);
            const std::string name = metric_name(entry);
            for (std::size_t m = 0; m < result.metrics.size() && m < record.values.size(); ++m) {
                if (result.metrics[m] != name) continue;
                const auto value = static_cast<std::int64_t>(record.values[m]);
                sum += subtract ? -value : value;
            }
        }
        return sum > 0 ? static_cast<std::uint64_t>(sum) : 0;
    };
    instruction.executed += value_of(SourceCounter::kExecuted);
    instruction.shared_wavefronts += value_of(SourceCounter::kSharedWavefronts);
    instruction.shared_conflicts += value_of(SourceCounter::kSharedConflicts);
    instruction.global_sectors += value_of(SourceCounter::kGlobalSectors);
}

std::uint64_t counter_of(const InstructionProfile& instruction, SourceCounter counter) {
    switch (counter) {
        case SourceCounter::kExecuted:
            return instruction.executed;
        case SourceCounter::kSharedWavefronts:
            return instruction.shared_wavefronts;
        case SourceCounter::kSharedConflicts:
            return instruction.shared_conflicts;
        case SourceCounter::kGlobalSectors:
            return instruction.global_sectors;
    }
    return 0;
}

std::vector<TotalsCheck> totals_of(const SourceProfile& profile, const SourceInputs& inputs) {
    std::vector<TotalsCheck> checks;
    const bool counted = inputs.counters != nullptr && inputs.counters->error.ok();
    const bool have_opcodes =
        !profile.instructions.empty() &&
        std::all_of(profile.instructions.begin(), profile.instructions.end(),
                    [](const InstructionProfile& i) { return !i.counted || !i.opcode.empty(); });
    const auto range_total = [&inputs](const std::string& metric, double& value) {
        if (inputs.range_totals == nullptr) return false;
        const auto found = inputs.range_totals->find(metric);
        if (found == inputs.range_totals->end()) return false;
        value = found->second;
        return true;
    };
    for (const TotalsCheckSpec& spec : totals_checks()) {
        TotalsCheck check;
        check.what = spec.what;
        check.range_metric = totals_check_target(spec, inputs.chosen);
        const bool less_conflicts = check.range_metric != spec.range_metric;
        if (less_conflicts) check.what += ", ideal per instruction";
        double total = 0;
        double conflicts = 0;
        const std::string refusal = totals_check_refusal(spec, inputs.chosen);
        if (!counted) {
            check.why_not = "no per-instruction counts";
        } else if (!inputs.chosen.has(spec.counter)) {
            check.why_not =
                "this GPU gives no per-instruction " + source_counter_info(spec.counter).label;
        } else if (!refusal.empty()) {
            check.why_not = refusal;
        } else if (spec.filter != OpcodeFilter::kAll && !have_opcodes) {
            check.why_not = "needs the SASS text to tell loads from stores";
        } else if (!range_total(spec.range_metric, total)) {
            check.why_not = "the Range Profiler gave no " + spec.range_metric;
        } else if (less_conflicts && !range_total(spec.conflicts_metric, conflicts)) {
            check.why_not = "the Range Profiler gave no " + spec.conflicts_metric;
        } else {
            check.available = true;
            check.range_total = total - conflicts;
            for (const InstructionProfile& instruction : profile.instructions) {
                if (!instruction.counted) continue;
                if (spec.filter != OpcodeFilter::kAll &&
                    !opcode_passes(instruction.opcode, spec.filter)) {
                    continue;
                }
                check.instruction_sum +=
                    static_cast<double>(less_conflicts ? instruction.shared_ideal()
                                                       : counter_of(instruction, spec.counter));
            }
        }
        checks.push_back(check);
    }
    return checks;
}

}  // namespace

void join_source_profile(const SourceInputs& inputs, SourceProfile& profile) {
    profile.functions.clear();
    profile.instructions.clear();
    profile.files.clear();
    const bool sampled = inputs.sampling != nullptr && inputs.sampling->error.ok();
    const bool counted = inputs.counters != nullptr && inputs.counters->error.ok();

    // The functions the run touched, in the order first seen.
    const auto note_function = [&profile](const std::string& name) {
        if (std::find(profile.functions.begin(), profile.functions.end(), name) ==
            profile.functions.end()) {
            profile.functions.push_back(name);
        }
    };
    if (sampled) {
        for (const PcSampleRecord& record : inputs.sampling->records)
            note_function(record.function);
    }
    if (counted) {
        for (const SassMetricRecord& record : inputs.counters->records) {
            note_function(record.function);
        }
    }

    // Every instruction: the listing's first, then PCs only the collectors know.
    std::map<PcKey, std::size_t> index;
    for (const std::string& function : profile.functions) {
        const SassFunction* listed = find_function(inputs.listing, function);
        if (listed == nullptr) continue;
        for (const SassInstruction& sass : listed->instructions) {
            InstructionProfile instruction;
            instruction.function = function;
            instruction.pc = sass.pc;
            instruction.sass = sass.text;
            instruction.opcode = sass.opcode;
            instruction.frames = sass.frames;
            index.emplace(PcKey{function, sass.pc}, profile.instructions.size());
            profile.instructions.push_back(std::move(instruction));
        }
    }
    std::set<PcKey> unlisted;
    if (sampled) {
        for (const PcSampleRecord& r : inputs.sampling->records)
            unlisted.insert({r.function, r.pc});
    }
    if (counted) {
        for (const SassMetricRecord& r : inputs.counters->records)
            unlisted.insert({r.function, r.pc});
    }
    for (const PcKey& key : unlisted) {
        if (index.count(key) > 0) continue;
        InstructionProfile instruction;
        instruction.function = key.first;
        instruction.pc = key.second;
        index.emplace(key, profile.instructions.size());
        profile.instructions.push_back(std::move(instruction));
    }
    if (sampled) {
        for (const PcSampleRecord& record : inputs.sampling->records) {
            InstructionProfile& instruction =
                profile.instructions[index.at({record.function, record.pc})];
            add_stalls(instruction.stalls, stalls_of(record, inputs.sampling->reasons));
            sort_stalls(instruction.stalls);
            instruction.samples = 0;
            for (const StallSamples& stall : instruction.stalls)
                instruction.samples += stall.samples;
        }
    }
    if (counted) {
        for (const SassMetricRecord& record : inputs.counters->records) {
            add_counts(profile.instructions[index.at({record.function, record.pc})], record,
                       *inputs.counters, inputs.chosen);
        }
    }

    // The files the line info names, with their text.
    std::vector<std::string> paths;
    for (const InstructionProfile& instruction : profile.instructions) {
        for (auto frame = instruction.frames.rbegin(); frame != instruction.frames.rend();
             ++frame) {
            if (std::find(paths.begin(), paths.end(), frame->file) == paths.end()) {
                paths.push_back(frame->file);
            }
        }
    }
    for (const std::string& path : paths) {
        SourceFile file;
        file.path = path;
        if (!inputs.read_source || !inputs.read_source(path, file.text)) {
            file.text.clear();
            file.absent = "not readable on this machine";
        }
        profile.files.push_back(std::move(file));
    }

    // Bank-lab links of the shared-memory instructions, read off their lines.
    for (InstructionProfile& instruction : profile.instructions) {
        if (inputs.kernel_id.empty() || !is_shared_memory_opcode(instruction.opcode)) continue;
        std::vector<std::string> lines;
        for (const SourceLocation& frame : instruction.frames) {
            for (const SourceFile& file : profile.files) {
                if (file.path == frame.file) lines.push_back(line_of(file.text, frame.line));
            }
        }
        SharedAccessLink link = link_shared_access(inputs.kernel_id, instruction.opcode, lines);
        instruction.shared_access = link.access;
        instruction.shared_access_candidates = link.candidates;
    }

    aggregate_source_profile(profile);
    profile.checks = totals_of(profile, inputs);
}

}  // namespace tclens::profiling
