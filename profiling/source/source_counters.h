#pragma once
// Which CUPTI SASS metrics (cupti_sass_metrics.h) give the source view's per-instruction counts,
// and which Range Profiler totals they must add up to. Pure tables and choices, no CUPTI.
//
// Each counter is the sum of one group of SASS metrics; the first group whose every metric the
// chip lists is used (GH100 is expected to list the first; the split groups cover a chip that
// only names loads, ldmatrix and stores apart; GH100 lists the last: pipe wavefronts and their
// ideal, conflicts being the difference). An entry "-name" is subtracted, not added; a counter
// never goes below 0. A counter no group fits is missing, and says so.

#include <map>
#include <string>
#include <vector>

namespace tclens::profiling {

enum class SourceCounter {
    kExecuted,          // warp-level instructions executed
    kSharedWavefronts,  // shared-memory wavefronts (LDS, LDSM, STS; what else the GPU counts)
    kSharedConflicts,   // of those, wavefronts beyond the ideal: bank conflicts
    kGlobalSectors,     // 32-byte sectors global loads and stores touched
};

struct SourceCounterInfo {
    SourceCounter counter;
    std::string key;                               // JSON key: "executed", "shared_wavefronts", ...
    std::string label;                             // "Instructions executed"
    std::vector<std::vector<std::string>> groups;  // SASS metric names, summed ("-name":
                                                   // subtracted), first fit wins
};

// A group entry's sign and name: "-name" subtracts the metric `name`, "name" adds it.
bool subtracted(const std::string& entry);
std::string metric_name(const std::string& entry);

const std::vector<SourceCounterInfo>& source_counters();
const SourceCounterInfo& source_counter_info(SourceCounter counter);

struct ChosenCounters {
    std::map<SourceCounter, std::vector<std::string>> metrics;  // counter -> its group
    std::vector<std::string> missing;  // one line per counter no group fits, naming the first
    // The shared wavefronts come from GH100's pipe metrics, beside which the Range Profiler
    // counts every wavefront beyond the ideal as a bank conflict, the instruction's own and
    // those other accesses cause alike. So the per-instruction ideal wavefronts are what add up
    // to the Range wavefronts less its conflicts (measured on the H100,
    // tests/gpu/results/2026-11-25_h100_session8/source/), and the Range conflicts have no
    // per-instruction sum.
    bool conflicts_apart = false;

    // Every chosen SASS metric name once, in counter order: what to ask CUPTI for.
    std::vector<std::string> all_metrics() const;
    bool has(SourceCounter counter) const { return metrics.count(counter) > 0; }
};

// The counters `available` (the chip's SASS metric names) can give.
ChosenCounters choose_source_counters(const std::vector<std::string>& available);

// Which instructions a totals check adds up, by opcode.
enum class OpcodeFilter {
    kAll,
    kSharedLoads,   // LDS, LDSM (Range Profiler's ..._mem_shared_op_ld)
    kSharedStores,  // STS, STSM (..._mem_shared_op_st)
};
// Whether `opcode` ("LDSM.16.M88.4") passes `filter`. LDGSTS (cp.async) is neither a shared
// load nor a shared store here: the Range Profiler counts it apart.
bool opcode_passes(const std::string& opcode, OpcodeFilter filter);

// "The per-instruction `counter` of instructions passing `filter` add up to `range_metric`"
// (with conflicts apart: their ideal wavefronts, to `range_metric` less `conflicts_metric`).
struct TotalsCheckSpec {
    std::string what;  // "shared load wavefronts (LDS, LDSM)"
    SourceCounter counter;
    OpcodeFilter filter;
    std::string range_metric;      // a Range Profiler metric of the same run
    std::string conflicts_metric;  // the Range Profiler's bank conflicts of the same instructions
                                   // ("" for counts without conflicts)
};

// The source view's checks: instructions executed; shared wavefronts and bank conflicts, in all
// and split into loads and stores.
const std::vector<TotalsCheckSpec>& totals_checks();

// Why `spec` cannot be compared with `chosen` counters ("" when it can): with conflicts apart
// there is no per-instruction count of the Range Profiler's conflicts, and its all-shared total
// holds more than loads and stores.
std::string totals_check_refusal(const TotalsCheckSpec& spec, const ChosenCounters& chosen);

// What `spec` compares against: "range_metric" or "range_metric - conflicts_metric".
std::string totals_check_target(const TotalsCheckSpec& spec, const ChosenCounters& chosen);

// Every range metric the checks `chosen` allows read, once each.
std::vector<std::string> totals_check_metrics(const ChosenCounters& chosen);

}  // namespace tclens::profiling
