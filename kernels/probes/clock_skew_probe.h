#pragma once
// Clock skew probe: how far apart the %globaltimer readings of different SMs can be for one
// instant, the bound on putting warp traces of different SMs on one time base
// (kernels/trace.cuh).
//
// Method: one block per SM (a cooperative launch of SM-count blocks, each asking for more than
// half of an SM's shared memory, so no SM holds two and all run at once). Thread 0 of every
// block counts itself in and spins on one global flag (ld.acquire.gpu); the setter block, once
// every block has counted in, sets the flag (st.release.gpu) and spins on it like the others.
// Each block, the moment it sees the flag, reads %globaltimer, clock64 and %smid. The instant
// is the same for every SM up to the flag's propagation to that SM and the phase of its
// polling loop, so the spread of one round's %globaltimer readings (latest minus earliest)
// bounds the timer's skew between SMs plus that propagation. Each launch is one round; the
// setter moves to block round % blocks. Also measured: %globaltimer's tick, the smallest
// non-zero step one thread sees between consecutive reads.
//
// clock64 is each SM's own cycle counter: its readings are kept to show they are no common
// time base, never used as one.
#include <cstdint>
#include <string>
#include <vector>

namespace tclens::kernels {

// What one block read when it saw the flag.
struct ClockSkewSample {
    std::uint64_t global_ns = 0;  // %globaltimer
    std::uint64_t clock = 0;      // clock64 of its SM
    std::uint32_t sm = 0;         // %smid
    std::uint32_t block = 0;      // blockIdx.x
};

struct ClockSkewSummary {
    int rounds = 0;
    int blocks = 0;        // blocks per round
    int distinct_sms = 0;  // SMs the blocks of the first round ran on (== blocks: one per SM)
    // Spread of a round's %globaltimer readings (latest - earliest), over the rounds: the
    // smallest, the median (the lower middle one for an even count) and the largest.
    std::int64_t min_spread_ns = 0;
    std::int64_t median_spread_ns = 0;
    std::int64_t max_spread_ns = 0;
    std::int64_t median_clock_spread = 0;  // the same for clock64, cycles (not a time base)
    std::int64_t tick_ns = 0;  // %globaltimer's smallest step (measure_clock_skew; 0 unknown)
};

// Pure: the summary of `rounds` (each one round's samples, one per block). Returns "" or one
// line: no rounds, an empty round, or rounds of different block counts.
// Example: rounds {{10, 14, 11}, {20, 20, 29}} (global_ns) -> spreads 4 and 9: min 4, median 4,
// max 9.
std::string summarize_clock_skew(const std::vector<std::vector<ClockSkewSample>>& rounds,
                                 ClockSkewSummary& out);

// Runs `rounds` rounds (1 ..= 10000) on the current device and summarises them (~1 ms per
// round). Returns "" or one line naming the CUDA error, a device that cannot run one block per
// SM at once, or a round that did not see every block.
std::string measure_clock_skew(int rounds, ClockSkewSummary& out);

// One line for people: "globaltimer spread between SMs over R rounds of B blocks on S SMs: min
// A ns, median M ns, max X ns (tick T ns; bounds the skew plus the flag's propagation; clock64
// spread C cycles, per-SM counters)".
std::string clock_skew_text(const ClockSkewSummary& summary);

}  // namespace tclens::kernels
