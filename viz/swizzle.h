#pragma once
// Shared-memory swizzles: how a row-major tile's logical bytes are placed in shared memory.
//
// A tile is `rows` x `row_bytes`, row-major; the logical byte offset of (row, byte_col) is
// row * row_bytes + byte_col. A swizzle maps it to the physical byte address that the
// shared-memory banks see. Everything here is a pure function of its arguments.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/expected.h"

namespace tclens::viz {

// Largest tile the model accepts: more than any SM's shared memory (228 KiB on H100).
constexpr int kMaxTileBytes = 256 * 1024;

struct Tile {
    int rows = 0;
    int row_bytes = 0;
};

inline bool operator==(const Tile& a, const Tile& b) {
    return a.rows == b.rows && a.row_bytes == b.row_bytes;
}
inline bool operator!=(const Tile& a, const Tile& b) { return !(a == b); }

// Logical size of the tile in bytes, without padding.
inline std::int64_t tile_bytes(const Tile& tile) {
    return static_cast<std::int64_t>(tile.rows) * tile.row_bytes;
}

enum class SwizzleKind {
    kNone,  // row * row_bytes + byte_col
    kPad,   // row * (row_bytes + pad_bytes) + byte_col
    kXor,   // 16-byte chunk c of row r -> chunk c ^ (r mod min(8, row_bytes / 16))
    kCute,  // CuTe Swizzle<B,M,S> on the logical byte offset (tma32/64/128 are named cute ones)
};

struct Swizzle {
    SwizzleKind kind = SwizzleKind::kNone;
    // Canonical spelling, as accepted by parse_swizzle: "none", "pad:16", "xor", "cute:3,4,3",
    // "tma128" (named ones keep their name).
    std::string spec = "none";
    int pad_bytes = 0;  // kPad only
    int bits = 0;       // kCute only: B, number of bits XOR-ed
    int base = 0;       // kCute only: M, number of low bits kept as they are
    int shift = 0;      // kCute only: S, distance from the source bits down to the target bits
};

// Parses "none", "pad:N", "xor", "cute:B,M,S", "tma32", "tma64", "tma128".
// Accepted ranges: pad N in 0..1024 and a multiple of 4; cute B, M, S in 0..16 with S >= B
// (CuTe's |S| >= B; negative S is not modelled) and B + M + S <= 18 (a span of at most
// 256 KiB). On error: one line naming the bad value and what is allowed.
common::Expected<Swizzle> parse_swizzle(const std::string& spec);

// Bytes of the tile's storage, padding included: rows * (row_bytes + pad) for kPad, else
// rows * row_bytes.
std::int64_t storage_bytes(const Swizzle& swizzle, const Tile& tile);

// Checks that `swizzle` can place `tile` when it is read `access_bytes` (4, 8 or 16) at a
// time by an access named `pattern_name` (used in the message only): padding keeps every
// access aligned, xor has whole 16-byte chunks that it can permute inside the row, and a cute
// swizzle keeps each access in one piece (2^M >= access_bytes), fits its span
// 2^(B+M+S) in the tile and permutes whole 2^(M+B)-byte blocks of it. Returns "" when fine,
// else one line naming the value and what is allowed.
std::string validate_swizzle(const Swizzle& swizzle, const Tile& tile, int access_bytes,
                             const std::string& pattern_name);

// (row, byte_col) -> byte_addr: the physical shared-memory address (relative to the tile's
// base) of logical byte (row, byte_col). Precondition: validate_swizzle(...) == "" and
// 0 <= row < tile.rows, 0 <= byte_col < tile.row_bytes.
// Worked example, tile 8 x 128 bytes, (row 3, byte_col 20): none -> 404; pad:4 -> 416;
// xor -> chunk 1 ^ 3 = 2, so 3 * 128 + 2 * 16 + 4 = 420; cute:3,4,3 (= tma128) -> offset
// 404 = 0b1'1001'0100, bits 7..9 (3) XOR-ed into bits 4..6 (1) give 2 -> 420.
std::int64_t physical_address(const Swizzle& swizzle, const Tile& tile, int row, int byte_col);

// One line for humans, e.g. "tma128: Hopper TMA 128-byte swizzle = cute:3,4,3 (...)".
std::string describe(const Swizzle& swizzle);

struct NamedSwizzle {
    std::string spec;     // what to pass to --swizzle ("pad:N" and "cute:B,M,S" are families)
    std::string summary;  // one line
};

// Everything `tclens banks --list` shows under swizzles, in a stable order.
std::vector<NamedSwizzle> list_swizzles();

}  // namespace tclens::viz
