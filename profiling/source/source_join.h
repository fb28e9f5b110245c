#pragma once
// Joining what the collectors of one run learned (PC sampling, SASS metrics, the Range
// Profiler's totals, the SASS listing) into the source view's model (source_profile.h). On the
// GPU side (tclens_profiling): its inputs are the CUPTI owners' results, and its links to the
// bank lab read the rungs' shared-memory accesses (shared_access_link.h).

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "profiling/source/pc_sampler.h"
#include "profiling/source/sass_metrics.h"
#include "profiling/source/sass_text.h"
#include "profiling/source/source_counters.h"
#include "profiling/source/source_profile.h"

namespace tclens::profiling {

// Everything the collectors learned about one run, for join_source_profile.
struct SourceInputs {
    std::string kernel_id;                        // for the bank-lab links; "" for none
    const PcSamplingResult* sampling = nullptr;   // nullptr or failed: no samples
    const SassMetricsResult* counters = nullptr;  // nullptr or failed: no counts
    ChosenCounters chosen;                        // which metrics make which counter
    std::vector<SassFunction> listing;            // SASS text; empty without
    const std::map<std::string, double>* range_totals = nullptr;  // metric -> kernel total
    // Reads a source file; false when it cannot. Default (empty): nothing is read.
    std::function<bool(const std::string& path, std::string& text)> read_source;
};

// Fills profile.functions, instructions, files, stalls and checks from `inputs` (the notes and
// timings are the caller's). Instructions: every instruction of the listed functions that were
// sampled or counted, plus sampled or counted PCs the listing lacks (no SASS text).
void join_source_profile(const SourceInputs& inputs, SourceProfile& profile);

}  // namespace tclens::profiling
