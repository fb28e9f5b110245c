#pragma once
// The metric catalogue: every metric tclens names on its own, with a short label, its unit and
// one sentence on what it means; the named metric sets; and the suggestions for a name that is
// not known. Pure C++: no CUDA or CUPTI call, unit-tested on machines without a GPU.
//
// Names are CUPTI / Nsight Compute metric names, so `ncu --metrics <the same names>` reports the
// same quantities. Where each value comes from (MetricInfo::source):
//   kRangeProfiler  CUPTI Range Profiler counters over one range (profiling/range_profiler.h);
//   kPmSampling     CUPTI PM sampling, one value per sample (profiling/pm_sampler.h);
//   kLaunch         the kernel's launch facts. Nsight Compute computes launch__* itself, and the
//                   Range Profiler has no such counters, so tclens reads them from CUPTI activity
//                   records (profiling/launch_facts.h) and computes the occupancy limits from
//                   the device's limits.
// Metrics outside the catalogue may still be requested by name: the chip decides then.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tclens::profiling {

enum class MetricSource { kRangeProfiler, kPmSampling, kLaunch };

struct MetricInfo {
    std::string name;     // CUPTI name, e.g. "dram__bytes_read.sum"
    std::string label;    // short, for a table column or a metric card: "DRAM read"
    std::string unit;     // "%", "ns", "bytes", "instructions", "wavefronts", ...
    std::string meaning;  // one sentence, ending in a period
    MetricSource source = MetricSource::kRangeProfiler;
    bool in_default_set = false;   // part of "default" (range profiler and launch facts)
    bool in_timeline_set = false;  // part of the default PM-sampling timeline

    bool is_percent() const { return unit == "%"; }
};

// Every catalogued metric: default set first, in the order of the issue (duration, tensor,
// wgmma, FMA, DRAM, shared memory, L2, occupancy, launch facts), then the rest, then the PM
// sampling metrics. Built once; the reference stays valid for the program's life.
const std::vector<MetricInfo>& metric_catalogue();

// The entry named `name` exactly, or nullptr.
const MetricInfo* find_metric(std::string_view name);

// Named sets for `tclens profile --set`:
//   "default"  duration, tensor pipe %, wgmma count, FMA pipe %, DRAM % and bytes read/written,
//              shared-memory bank conflicts and wavefronts (ld, st), L2 hit rate, achieved
//              occupancy, registers/thread, shared memory/block, block and grid size;
//   "all"      every range-profiler and launch metric of the catalogue;
//   "timeline" the one-pass PM-sampling set (tensor %, DRAM %, FMA %).
// Metrics of a set that the chip lacks are left out when profiling, with the reason.
// Unknown set name -> {}.
std::vector<std::string> metric_set(std::string_view set_name);

// "default, all, timeline", for error messages.
std::string metric_set_names();

// True if `name` has the shape of a CUPTI metric: letters, digits, '_' and '.', with a "__"
// between unit and counter ("dram__bytes_read.sum", "FBSP.TriageCompute.dramc__...").
// A name without that shape cannot be a metric on any chip.
bool looks_like_metric_name(std::string_view name);

// Levenshtein distance (insert, delete, substitute; each costs 1).
std::size_t edit_distance(std::string_view a, std::string_view b);

// Up to `count` names close to `unknown`, best first, from the catalogue and from `chip_metrics`
// (base metric names as CUPTI lists them for a chip, e.g. "dram__bytes_read"; a base name is
// proposed with the rollup and submetric of `unknown` appended, when it had some). A name is
// close when it contains `unknown` (or the reverse), or is within edit distance of about a third
// of its length. Example: "dram__bytes_red.sum" -> {"dram__bytes_read.sum", ...}.
std::vector<std::string> suggest_metrics(std::string_view unknown,
                                         const std::vector<std::string>& chip_metrics = {},
                                         std::size_t count = 3);

// One line for a metric nobody knows: "unknown metric 'X'; did you mean A, B or C? (tclens
// profile --list-metrics shows the catalogue)". `where` is "" or " on GH100".
std::string unknown_metric_message(std::string_view name,
                                   const std::vector<std::string>& suggestions,
                                   std::string_view where = "");

// A value in its catalogue unit, for tables and metric cards: "%" -> "45.6 %"; "ns" -> "812 ns",
// "12.3 us", "1.23 ms" (3 significant digits); "bytes" -> "512 B", "1.23 kB", "4.56 MB", "1.23 GB"
// (powers of 1000); "Hz" -> "1.98 GHz"; any other unit: the number with thousands separators
// ("1,234,567 instructions"), or with 3 decimals when it is not whole.
std::string format_metric_value(double value, const std::string& unit);

}  // namespace tclens::profiling
