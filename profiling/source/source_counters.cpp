#include "profiling/source/source_counters.h"

#include <algorithm>

#include "common/text.h"

namespace tclens::profiling {
namespace {

const std::string kWavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared";
const std::string kConflicts = "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared";
// What GH100 lists (seen on the H100, tests/gpu/results/2026-11-25_h100_session7/): shared
// wavefronts and the ideal wavefronts of the same instructions; a conflict is a wavefront beyond
// the ideal, so conflicts = wavefronts - ideal (as Nsight Compute's "L1 Wavefronts Shared
// Excessive").
const std::string kPipeWavefronts = "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared";

// " (it lists: a, b)": the chip's SASS metrics that share the wanted name's unit and memory
// ("wavefronts" or "bank_conflicts", and "shared"), so a missing counter's note says what this
// chip calls it instead; "" when it lists none such.
std::string related_listed(const std::vector<std::string>& available, const std::string& wanted) {
    const char* unit = wanted.find("bank_conflicts") != std::string::npos ? "bank_conflicts"
                       : wanted.find("wavefronts") != std::string::npos   ? "wavefronts"
                                                                          : "sectors";
    std::vector<std::string> related;
    for (const std::string& name : available) {
        if (name.find(unit) == std::string::npos) continue;
        if (unit != std::string("sectors") && name.find("shared") == std::string::npos) continue;
        related.push_back(name);
    }
    return related.empty() ? "" : " (it lists: " + common::join(related, ", ") + ")";
}

}  // namespace

bool subtracted(const std::string& entry) { return common::starts_with(entry, "-"); }

std::string metric_name(const std::string& entry) {
    return subtracted(entry) ? entry.substr(1) : entry;
}

const std::vector<SourceCounterInfo>& source_counters() {
    static const std::vector<SourceCounterInfo> counters = {
        {SourceCounter::kExecuted,
         "executed",
         "Instructions executed",
         {{"smsp__sass_inst_executed"}}},
        {SourceCounter::kSharedWavefronts,
         "shared_wavefronts",
         "Shared wavefronts",
         {{kWavefronts},
          {kWavefronts + "_op_ld", kWavefronts + "_op_ldsm", kWavefronts + "_op_st"},
          {kWavefronts + "_op_ld", kWavefronts + "_op_st"},
          {kPipeWavefronts}}},
        {SourceCounter::kSharedConflicts,
         "shared_conflicts",
         "Shared bank conflicts",
         {{kConflicts},
          {kConflicts + "_op_ld", kConflicts + "_op_ldsm", kConflicts + "_op_st"},
          {kConflicts + "_op_ld", kConflicts + "_op_st"},
          {kPipeWavefronts, "-" + kPipeWavefronts + "_ideal"}}},
        {SourceCounter::kGlobalSectors,
         "global_sectors",
         "Global sectors",
         {{"smsp__sass_sectors_mem_global"}}},
    };
    return counters;
}

const SourceCounterInfo& source_counter_info(SourceCounter counter) {
    for (const SourceCounterInfo& info : source_counters()) {
        if (info.counter == counter) return info;
    }
    return source_counters().front();  // unreachable: every counter has an entry
}

std::vector<std::string> ChosenCounters::all_metrics() const {
    std::vector<std::string> names;
    for (const SourceCounterInfo& info : source_counters()) {
        const auto chosen = metrics.find(info.counter);
        if (chosen == metrics.end()) continue;
        for (const std::string& entry : chosen->second) {
            const std::string name = metric_name(entry);
            if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
        }
    }
    return names;
}

ChosenCounters choose_source_counters(const std::vector<std::string>& available) {
    const auto listed = [&available](const std::string& entry) {
        return std::find(available.begin(), available.end(), metric_name(entry)) != available.end();
    };
    ChosenCounters chosen;
    for (const SourceCounterInfo& info : source_counters()) {
        bool found = false;
        for (const std::vector<std::string>& group : info.groups) {
            if (std::all_of(group.begin(), group.end(), listed)) {
                chosen.metrics[info.counter] = group;
                if (info.counter == SourceCounter::kSharedWavefronts) {
                    chosen.conflicts_apart = group == std::vector<std::string>{kPipeWavefronts};
                }
                found = true;
                break;
            }
        }
        if (!found) {
            chosen.missing.push_back(info.label + ": this GPU lists no SASS metric " +
                                     info.groups.front().front() +
                                     related_listed(available, info.groups.front().front()));
        }
    }
    return chosen;
}

bool opcode_passes(const std::string& opcode, OpcodeFilter filter) {
    switch (filter) {
        case OpcodeFilter::kAll:
            return true;
        case OpcodeFilter::kSharedLoads:
            return common::starts_with(opcode, "LDS");
        case OpcodeFilter::kSharedStores:
            return common::starts_with(opcode, "STS");
    }
    return false;
}

const std::vector<TotalsCheckSpec>& totals_checks() {
    const std::string waves = "l1tex__data_pipe_lsu_wavefronts_mem_shared";
    const std::string conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared";
    static const std::vector<TotalsCheckSpec> checks = {
        {"instructions executed", SourceCounter::kExecuted, OpcodeFilter::kAll,
         "smsp__inst_executed.sum", ""},
        {"shared wavefronts", SourceCounter::kSharedWavefronts, OpcodeFilter::kAll, waves + ".sum",
         conflicts + ".sum"},
        {"shared load wavefronts (LDS, LDSM)", SourceCounter::kSharedWavefronts,
         OpcodeFilter::kSharedLoads, waves + "_op_ld.sum", conflicts + "_op_ld.sum"},
        {"shared store wavefronts (STS)", SourceCounter::kSharedWavefronts,
         OpcodeFilter::kSharedStores, waves + "_op_st.sum", conflicts + "_op_st.sum"},
        {"shared bank conflicts", SourceCounter::kSharedConflicts, OpcodeFilter::kAll,
         conflicts + ".sum", ""},
        {"shared load bank conflicts (LDS, LDSM)", SourceCounter::kSharedConflicts,
         OpcodeFilter::kSharedLoads, conflicts + "_op_ld.sum", ""},
        {"shared store bank conflicts (STS)", SourceCounter::kSharedConflicts,
         OpcodeFilter::kSharedStores, conflicts + "_op_st.sum", ""},
    };
    return checks;
}

std::string totals_check_refusal(const TotalsCheckSpec& spec, const ChosenCounters& chosen) {
    if (!chosen.conflicts_apart) return "";
    if (spec.counter == SourceCounter::kSharedConflicts) {
        return "this GPU's Range Profiler counts as bank conflicts also those other accesses "
               "cause, which no instruction's counts hold";
    }
    if (spec.counter == SourceCounter::kSharedWavefronts && spec.filter == OpcodeFilter::kAll) {
        return "on this GPU the Range Profiler's all-shared total holds more than loads and "
               "stores (compared one by one above)";
    }
    return "";
}

std::string totals_check_target(const TotalsCheckSpec& spec, const ChosenCounters& chosen) {
    return chosen.conflicts_apart && !spec.conflicts_metric.empty()
               ? spec.range_metric + " - " + spec.conflicts_metric
               : spec.range_metric;
}

std::vector<std::string> totals_check_metrics(const ChosenCounters& chosen) {
    std::vector<std::string> names;
    for (const TotalsCheckSpec& check : totals_checks()) {
        if (!totals_check_refusal(check, chosen).empty()) continue;
        const bool less_conflicts = totals_check_target(check, chosen) != check.range_metric;
        for (const std::string& name :
             {check.range_metric, less_conflicts ? check.conflicts_metric : std::string()}) {
            if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) {
                names.push_back(name);
            }
        }
    }
    return names;
}

}  // namespace tclens::profiling
