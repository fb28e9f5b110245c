#pragma once
// The source view's model of one kernel run: per SASS instruction its text, the CUDA lines it
// came from, how often it ran, where warps stalled on it and why, its shared-memory wavefronts
// and bank conflicts; per source line the same summed; the kernel's stall reasons ranked; and the
// check that the per-instruction counts add up to the Range Profiler's kernel totals. Plain C++
// (tclens_profiling_model): built from the plain results of PcSampler, SassMetricsCollector, the
// Range Profiler and the disassembler on the GPU side (source_join.h), and from a recording
// (source_profile_json.h).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/sass_census/instruction_counts.h"
#include "profiling/profiled_run.h"
#include "profiling/profiler_error.h"
#include "profiling/source/sass_text.h"

namespace tclens::profiling {

struct StallSamples {
    std::string key;  // stall_reasons.h key, "long_scoreboard"
    std::uint64_t samples = 0;
};

struct InstructionProfile {
    std::string function;                // mangled
    std::uint64_t pc = 0;                // byte offset in the function
    std::string sass;                    // "@!P0 LDSM.16.M88.4 R4, [R2]"; "" without SASS text
    std::string opcode;                  // "LDSM.16.M88.4"; "" without SASS text
    std::vector<SourceLocation> frames;  // innermost first (sass_text.h); empty without line info
    std::uint64_t samples = 0;           // PC samples, all reasons
    std::vector<StallSamples> stalls;    // reasons with samples, most first
    bool counted = false;                // the SASS metrics saw it run
    std::uint64_t executed = 0;          // warp-level executions
    std::uint64_t shared_wavefronts = 0;
    std::uint64_t shared_conflicts = 0;  // wavefronts beyond the ideal
    std::uint64_t global_sectors = 0;
    std::string shared_access;  // "KERNEL/LABEL" of the bank lab, or ""
    std::vector<std::string> shared_access_candidates;

    std::uint64_t shared_ideal() const {
        return shared_wavefronts > shared_conflicts ? shared_wavefronts - shared_conflicts : 0;
    }
};

// Sums over the instructions attributed to one source line.
struct LineProfile {
    int line = 0;
    std::uint64_t samples = 0;
    std::vector<StallSamples> stalls;  // most first
    std::uint64_t executed = 0;
    std::uint64_t shared_wavefronts = 0;
    std::uint64_t shared_conflicts = 0;
    std::uint64_t global_sectors = 0;
    std::vector<std::size_t> instructions;  // indices into SourceProfile::instructions
};

// A CUDA file the kernel's line info names. An instruction belongs to the innermost of its frames
// in this file, so each file's lines add up to the instructions that pass through it.
struct SourceFile {
    std::string path;
    std::string text;                // "" when not readable
    std::string absent;              // why `text` is empty ("not found on this machine"), or ""
    std::vector<LineProfile> lines;  // by line number
};

struct StallShare {
    std::string key;
    std::uint64_t samples = 0;
    double share_pct = 0;  // of all samples of the kernel
};

// "The instructions' `what` add up to the Range Profiler's `range_metric`."
struct TotalsCheck {
    std::string what;
    std::string range_metric;
    bool available = false;  // both sides known
    std::string why_not;     // when not available
    double instruction_sum = 0;
    double range_total = 0;
    bool equal() const;  // available and equal (to the unit: both are counts)
};

struct SourceProfile : ProfiledRun {
    ProfilerError error;  // the profile could not be taken; the parts below are what was learned

    // What each source gave, or why it gave nothing (one line each, "" when fine).
    std::string sass_how;           // "nvdisasm -c -gi tclens.4.sm_90a.cubin (from ...)"
    std::string sass_missing;       // no SASS text: the missing tool, no cubin, cuBLAS
    std::string line_info_missing;  // SASS without source lines: built without -lineinfo
    std::string sampling_missing;   // PC sampling refused or failed
    std::string counters_missing;   // SASS metrics refused, failed, or counters this GPU lacks
    std::string totals_missing;     // the Range Profiler totals could not be read

    int period_log2 = 0;                           // PC sampling every 2^period cycles
    std::uint64_t dropped_samples = 0;             // by the hardware
    std::vector<std::string> functions;            // mangled, in the order first seen
    std::vector<InstructionProfile> instructions;  // per function, in pc order
    std::vector<SourceFile> files;                 // kernel file first
    std::vector<StallShare> stalls;                // kernel-wide, most first
    std::vector<TotalsCheck> checks;

    // Where the time went, ms: verification and inputs; PC sampling; SASS metrics; Range
    // Profiler; disassembly; request to answer.
    double prepare_ms = 0;
    double sampling_ms = 0;
    double counters_ms = 0;
    double totals_ms = 0;
    double disassembly_ms = 0;
    double total_ms = 0;

    bool ok() const { return error.ok(); }
    std::uint64_t total_samples() const;
    bool has_sass() const;
    bool has_line_info() const;
};

// `add`'s samples added to `into`, reason by reason (a reason new to `into` is appended).
void add_stalls(std::vector<StallSamples>& into, const std::vector<StallSamples>& add);
// Most samples first; ties by key.
void sort_stalls(std::vector<StallSamples>& stalls);

// Recomputes profile.files[].lines and profile.stalls from the instructions (a profile read back
// from a recording stores instructions and file texts only). Keeps the files' texts.
void aggregate_source_profile(SourceProfile& profile);

// The `count` hottest instructions (most samples, then most executed), indices.
std::vector<std::size_t> hottest_instructions(const SourceProfile& profile, std::size_t count);

// The static instruction mix (kernels/sass_census/instruction_counts.h) of the profile's SASS, as
// the build's census counts it: every instruction of the profiled functions once, by opcode class,
// arch "recorded". nullopt without SASS text. For a recording opened where the binary has no census
// (a toolkit without cuobjdump): "SASS of mma_cp_async.f16 (recorded): HMMA 64, ...".
std::optional<kernels::InstructionMix> instruction_mix_of(const SourceProfile& profile);

// The text of line `line` (1-based) of `text`, without its newline; "" past the end.
std::string line_of(const std::string& text, int line);

}  // namespace tclens::profiling
