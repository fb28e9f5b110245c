// libFuzzer harness for the warp trace reader (viz/warp_trace_json.h): parse_warp_trace on the
// input as text, then the round trip and the summary of what it read.
//
// Invariants:
//   - the reader either reads or gives one error line (no newline, not empty);
//   - a trace it read, written out, reads back and writes the same JSON;
//   - every phase it read lies inside the traced blocks and warps and ends at or after its start;
//   - its summary's per-warp wgmma phases add up to the wgmma count, with sane idle gaps.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tests/fuzz/fuzz_support.h"
#include "viz/warp_trace_json.h"
#include "viz/warp_trace_summary.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tclens;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    viz::WarpTrace trace;
    std::string error;
    if (!viz::parse_warp_trace(text, trace, error)) {
        TCLENS_FUZZ_CHECK(!error.empty() && error.find('\n') == std::string::npos,
                          "a refused trace needs one error line: '" + error + "'");
        return 0;
    }
    for (const viz::WarpPhase& p : trace.phases) {
        TCLENS_FUZZ_CHECK(p.block >= 0 && p.block < trace.blocks_traced, "block out of range");
        TCLENS_FUZZ_CHECK(p.warp >= 0 && p.warp < trace.warps_per_block, "warp out of range");
        TCLENS_FUZZ_CHECK(p.start_ns <= p.end_ns, "a phase ends before it starts");
    }
    const nlohmann::json written = viz::warp_trace_json(trace);
    viz::WarpTrace again;
    TCLENS_FUZZ_CHECK(viz::warp_trace_from_json(written, again, error),
                      "a read trace, written out, does not read back: " + error);
    TCLENS_FUZZ_CHECK(viz::warp_trace_json(again) == written, "the round trip changes the trace");
    const viz::TraceSummary summary = viz::summarize_trace(trace);
    std::int64_t mma_phases = 0;
    for (const viz::WarpSummary& w : summary.warps) {
        TCLENS_FUZZ_CHECK(w.idle_ns >= 0 && w.longest_idle_ns <= w.idle_ns, "bad idle gaps");
        mma_phases += w.mma_phases;
    }
    TCLENS_FUZZ_CHECK(
        mma_phases == summary.shares[static_cast<int>(viz::TracePhase::kWgmma)].count +
                          summary.shares[static_cast<int>(viz::TracePhase::kMmaSync)].count,
        "the warps' multiply phases do not add up to the wgmma and mma_sync counts");
    return 0;
}
