#pragma once
// Warp stall reasons of CUPTI's PC sampling, named for people: what each means for a GEMM in one
// sentence, and the column Nsight Compute's source page gives it. Pure table, no CUPTI.
//
// CUPTI names a reason "smsp__pcsamp_warps_issue_stalled_<key>" and, for the samples in which the
// warp issued no instruction, "smsp__pcsamp_warps_issue_stalled_<key>_not_issued". A sample counts
// once under its reason; the not-issued names count a subset of those samples again, so shares are
// taken over the reasons alone (as Nsight Compute's "Warp Stall Sampling (All Samples)" does).

#include <string>
#include <vector>

namespace tclens::profiling {

struct StallReasonInfo {
    std::string key;         // "long_scoreboard"
    std::string label;       // "Long scoreboard"
    std::string ncu_column;  // Nsight Compute's source-page column, "stall_long_sb"
    std::string meaning;     // one sentence: what a warp waits for, in a GEMM's terms
};

// Every reason tclens knows, most common in GEMMs first.
const std::vector<StallReasonInfo>& stall_reasons();

// The reason with this key, or nullptr.
const StallReasonInfo* find_stall_reason(const std::string& key);

// A CUPTI stall reason name taken apart.
struct StallName {
    std::string key;          // "long_scoreboard"; the whole name when it lacks CUPTI's prefix
    bool not_issued = false;  // the "_not_issued" variant
};
// "smsp__pcsamp_warps_issue_stalled_long_scoreboard_not_issued" -> {"long_scoreboard", true};
// "smsp__pcsamp_warps_issue_stalled_barrier" -> {"barrier", false}.
StallName parse_stall_name(const std::string& cupti_name);

// The info of `key`, or one made up for a reason this table lacks (label = key, the meaning says
// it is not described), so a newer GPU's reason is still shown.
StallReasonInfo stall_reason_or_unknown(const std::string& key);

}  // namespace tclens::profiling
