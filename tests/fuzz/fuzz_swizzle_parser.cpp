// libFuzzer harness for viz/swizzle.h: parse_swizzle, then physical_address on a tile.
//
// Input: "SPEC\nROWS ROW_BYTES\nACCESS_BYTES" (the last two lines optional).
// Invariants:
//   - a spec parses or gives an error that shows it in double quotes (an empty spec as "");
//   - a parsed swizzle is in the header's ranges and its canonical spec parses back to the
//     same swizzle;
//   - on a tile the swizzle accepts (validate_swizzle == ""), physical_address keeps each
//     access in one aligned piece inside the storage and maps distinct accesses to distinct
//     addresses (a swizzle is a placement, never an overlap).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_support.h"
#include "viz/swizzle.h"

namespace tclens::fuzz {
namespace {

using viz::Swizzle;
using viz::SwizzleKind;

bool same_swizzle(const Swizzle& a, const Swizzle& b) {
    return a.kind == b.kind && a.spec == b.spec && a.pad_bytes == b.pad_bytes && a.bits == b.bits &&
           a.base == b.base && a.shift == b.shift;
}

void check_ranges(const Swizzle& swizzle) {
    switch (swizzle.kind) {
        case SwizzleKind::kNone:
        case SwizzleKind::kXor:
            break;
        case SwizzleKind::kPad:
            TCLENS_FUZZ_CHECK(
                swizzle.pad_bytes >= 0 && swizzle.pad_bytes <= 1024 && swizzle.pad_bytes % 4 == 0,
                swizzle.spec);
            TCLENS_FUZZ_CHECK(swizzle.spec == "pad:" + std::to_string(swizzle.pad_bytes),
                              swizzle.spec);
            break;
        case SwizzleKind::kCute:
            TCLENS_FUZZ_CHECK(swizzle.bits >= 0 && swizzle.base >= 0 && swizzle.base <= 16 &&
                                  swizzle.shift <= 16 && swizzle.shift >= swizzle.bits &&
                                  swizzle.bits + swizzle.base + swizzle.shift <= 18,
                              swizzle.spec);
            break;
    }
}

// Walks every access_bytes-wide access of the tile through physical_address.
void check_placement(const Swizzle& swizzle, const viz::Tile& tile, int access_bytes) {
    const std::int64_t storage = viz::storage_bytes(swizzle, tile);
    TCLENS_FUZZ_CHECK(storage >= viz::tile_bytes(tile) && storage % access_bytes == 0,
                      swizzle.spec + " storage " + std::to_string(storage));
    std::vector<bool> taken(static_cast<std::size_t>(storage / access_bytes), false);
    for (int row = 0; row < tile.rows; ++row) {
        for (int col = 0; col < tile.row_bytes; col += access_bytes) {
            const std::int64_t address = viz::physical_address(swizzle, tile, row, col);
            const std::string where = swizzle.spec + " (" + std::to_string(row) + ", " +
                                      std::to_string(col) + ") -> " + std::to_string(address);
            TCLENS_FUZZ_CHECK(address >= 0 && address + access_bytes <= storage, where);
            TCLENS_FUZZ_CHECK(address % access_bytes == 0, where);
            for (int byte = 1; byte < access_bytes; ++byte) {
                TCLENS_FUZZ_CHECK(
                    viz::physical_address(swizzle, tile, row, col + byte) == address + byte,
                    where + " splits at byte " + std::to_string(byte));
            }
            const std::size_t slot = static_cast<std::size_t>(address / access_bytes);
            TCLENS_FUZZ_CHECK(!taken[slot], where + " overlaps another access");
            taken[slot] = true;
        }
    }
}

}  // namespace
}  // namespace tclens::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tclens;
    const std::vector<std::string> fields = fuzz::split_fields(data, size, 3);
    const std::string& spec = fields[0];

    const viz::Expected<viz::Swizzle> parsed = viz::parse_swizzle(spec);
    if (!parsed) {
        TCLENS_FUZZ_CHECK(fuzz::names_quoted(parsed.error(), spec, '"'), parsed.error());
        return 0;
    }
    TCLENS_FUZZ_CHECK(parsed.error().empty(), parsed.error());
    const viz::Swizzle& swizzle = parsed.value();
    fuzz::check_ranges(swizzle);
    const viz::Expected<viz::Swizzle> again = viz::parse_swizzle(swizzle.spec);
    TCLENS_FUZZ_CHECK(again.ok() && fuzz::same_swizzle(again.value(), swizzle),
                      spec + " -> " + swizzle.spec + " does not parse back the same");
    TCLENS_FUZZ_CHECK(!viz::describe(swizzle).empty(), swizzle.spec);

    const auto tile_size = fuzz::int_pair(fields[1]);
    const auto access_bytes = fuzz::whole_int(fields[2]);
    if (!tile_size || !access_bytes) return 0;
    const viz::Tile tile{tile_size->first, tile_size->second};
    const bool usable_tile = tile.rows >= 1 && tile.row_bytes >= 1 &&
                             viz::tile_bytes(tile) <= viz::kMaxTileBytes &&
                             (*access_bytes == 4 || *access_bytes == 8 || *access_bytes == 16) &&
                             tile.row_bytes % *access_bytes == 0;
    if (!usable_tile) return 0;
    const std::string error = viz::validate_swizzle(swizzle, tile, *access_bytes, "fuzz");
    if (error.empty()) fuzz::check_placement(swizzle, tile, *access_bytes);
    return 0;
}
