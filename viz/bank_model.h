#pragma once
// Shared-memory bank model: how many wavefronts a warp-wide access needs under a swizzle.
//
// Shared memory has 32 banks of 4-byte words; word w lives in bank w mod 32. A request
// (one warp instruction) is served phase by phase (see viz/access_pattern.h). Within a phase,
// each bank delivers one distinct word per wavefront; lanes that want the same word share it
// (broadcast, free). So a phase needs as many wavefronts as the largest number of distinct
// words asked of any one bank, and at least the number of phases is needed in all (ideal).

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "common/expected.h"
#include "viz/access_pattern.h"
#include "viz/swizzle.h"

namespace tclens::viz {

constexpr int kBankCount = 32;
constexpr int kBankBytes = 4;

// byte_addr -> bank: bank of the 4-byte word holding that byte. Example: 132 -> word 33 -> 1.
inline int bank_of(std::int64_t byte_addr) {
    return static_cast<int>((byte_addr / kBankBytes) % kBankCount);
}

// The accesses of one phase, priced.
struct PhaseCost {
    int wavefronts = 0;  // max over banks of bank_words; 0 only for an empty phase
    // Distinct 4-byte words asked of each bank: its conflict degree (0 idle, 1 fine, k k-way).
    std::array<int, kBankCount> bank_words{};
};

// (byte_addrs, access_bytes) -> wavefronts: each address starts an access of access_bytes
// bytes (aligned to it). Example: {0, 0, 128} with 4 bytes -> word 0 twice (a broadcast) and
// word 32, both in bank 0 -> bank_words[0] = 2, 2 wavefronts.
PhaseCost phase_cost(const std::vector<std::int64_t>& byte_addrs, int access_bytes);

struct LaneBanks {
    int lane = 0;
    int phase = 0;
    int row = 0;  // logical position in the tile
    int byte_col = 0;
    std::int64_t byte_addr = 0;  // physical, after the swizzle
    std::vector<int> banks;      // banks of the access's words, in address order
};

struct PhaseReport {
    int index = 0;
    std::vector<int> lanes;  // lanes served in this phase
    int wavefronts = 0;
    std::array<int, kBankCount> bank_words{};  // conflict degree per bank, for the heatmap
    std::array<std::vector<int>, kBankCount> bank_lanes;  // lanes touching each bank
};

struct RequestReport {
    int index = 0;
    int access_bytes = 0;
    bool is_store = false;
    std::vector<LaneBanks> lanes;
    std::vector<PhaseReport> phases;
    int wavefronts = 0;        // sum over phases
    int ideal_wavefronts = 0;  // number of phases
};

struct BankReport {
    Swizzle swizzle;
    Pattern pattern;
    Tile tile;
    std::vector<RequestReport> requests;
    int total_wavefronts = 0;
    int ideal_wavefronts = 0;
    int conflict_wavefronts = 0;  // total_wavefronts - ideal_wavefronts
    // Wavefronts per instruction measured on a GPU (`tclens banks --measure`); never set by
    // bank_requests().
    std::optional<double> measured_wavefronts;
};

// The tile to use when the user gives none: the pattern's default_tile, widened for a cute
// swizzle (B > 0) to rows of at least 2^(M+S) bytes and to at least its 2^(B+M+S)-byte span.
// Example: ldmatrix.x4 (16 x 32) with tma128 -> 16 x 128; with xor -> 16 x 32.
Tile default_tile(const Pattern& pattern, const Swizzle& swizzle);

// (swizzle, pattern, tile) -> BankReport: every lane's physical address and banks, the
// wavefronts of each phase and request, and the totals. On bad input (validate_tile or
// validate_swizzle fails) returns that one-line error.
// Example: ldmatrix.x4 on 16 x 128 bytes: none puts the 8 rows of each matrix in the same 4
// banks (8-way) -> 32 wavefronts, 4 ideal, 28 conflicts; xor -> 4, 4, 0.
common::Expected<BankReport> bank_requests(const Swizzle& swizzle, const Pattern& pattern,
                                           const Tile& tile);

}  // namespace tclens::viz
