#include "viz/swizzle.h"

#include <algorithm>
#include <cstddef>

namespace tclens::viz {

namespace {

constexpr int kXorChunkBytes = 16;
constexpr int kMaxPadBytes = 1024;
constexpr int kMaxCuteField = 16;
constexpr int kMaxCuteSpanLog2 = 18;  // 2^18 bytes = 256 KiB = kMaxTileBytes

const char* const kAllowedSwizzles = "none, pad:N, xor, cute:B,M,S, tma32, tma64, tma128";

// A decimal integer with an optional leading '-', at most 6 digits; nothing else.
std::optional<int> parse_small_int(const std::string& text) {
    std::size_t pos = 0;
    bool negative = false;
    if (pos < text.size() && text[pos] == '-') {
        negative = true;
        ++pos;
    }
    const std::size_t digits = text.size() - pos;
    if (digits == 0 || digits > 6) {
        return std::nullopt;
    }
    int value = 0;
    for (; pos < text.size(); ++pos) {
        if (text[pos] < '0' || text[pos] > '9') {
            return std::nullopt;
        }
        value = value * 10 + (text[pos] - '0');
    }
    return negative ? -value : value;
}

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end - start));
        if (end == std::string::npos) {
            return parts;
        }
        start = end + 1;
    }
}

Swizzle make_cute(std::string spec, int bits, int base, int shift) {
    Swizzle swizzle;
    swizzle.kind = SwizzleKind::kCute;
    swizzle.spec = std::move(spec);
    swizzle.bits = bits;
    swizzle.base = base;
    swizzle.shift = shift;
    return swizzle;
}

common::Expected<Swizzle> parse_pad(const std::string& spec) {
    const std::optional<int> pad = parse_small_int(spec.substr(4));
    if (!pad || *pad < 0 || *pad > kMaxPadBytes || *pad % 4 != 0) {
        return common::Expected<Swizzle>::failure(
            "bad swizzle \"" + spec + "\": N in pad:N must be a multiple of 4 in 0.." +
            std::to_string(kMaxPadBytes) + " (bytes of padding per row), e.g. pad:4 or pad:16");
    }
    Swizzle swizzle;
    swizzle.kind = SwizzleKind::kPad;
    swizzle.spec = "pad:" + std::to_string(*pad);
    swizzle.pad_bytes = *pad;
    return common::Expected<Swizzle>::success(swizzle);
}

common::Expected<Swizzle> parse_cute(const std::string& spec) {
    const std::vector<std::string> fields = split(spec.substr(5), ',');
    int values[3] = {0, 0, 0};
    bool well_formed = fields.size() == 3;
    for (std::size_t i = 0; well_formed && i < 3; ++i) {
        const std::optional<int> value = parse_small_int(fields[i]);
        well_formed = value.has_value();
        values[i] = value.value_or(0);
    }
    if (!well_formed) {
        return common::Expected<Swizzle>::failure("bad swizzle \"" + spec +
                                                  "\": expected cute:B,M,S with three integers, "
                                                  "e.g. cute:3,4,3");
    }
    const int bits = values[0], base = values[1], shift = values[2];
    const char* const names[3] = {"B", "M", "S"};
    for (int i = 0; i < 3; ++i) {
        if (values[i] < 0 || values[i] > kMaxCuteField) {
            return common::Expected<Swizzle>::failure(
                "bad swizzle \"" + spec + "\": " + names[i] + " = " + std::to_string(values[i]) +
                " is out of range; B, M and S must each be in 0.." + std::to_string(kMaxCuteField) +
                " (negative S is not modelled)");
        }
    }
    if (shift < bits) {
        return common::Expected<Swizzle>::failure("bad swizzle \"" + spec +
                                                  "\": S = " + std::to_string(shift) +
                                                  " must be >= B = " + std::to_string(bits) +
                                                  " so the source and target bits do not overlap");
    }
    if (bits + base + shift > kMaxCuteSpanLog2) {
        return common::Expected<Swizzle>::failure(
            "bad swizzle \"" + spec + "\": B + M + S = " + std::to_string(bits + base + shift) +
            " gives a span of 2^" + std::to_string(bits + base + shift) + " bytes; at most 2^" +
            std::to_string(kMaxCuteSpanLog2) + " (256 KiB) is allowed");
    }
    return common::Expected<Swizzle>::success(make_cute(
        "cute:" + std::to_string(bits) + "," + std::to_string(base) + "," + std::to_string(shift),
        bits, base, shift));
}

bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

bool is_power_of_two(int value) { return value > 0 && (value & (value - 1)) == 0; }

// Smallest M with 2^M >= value.
int bits_to_hold(int value) {
    int bits = 0;
    while ((1 << bits) < value) {
        ++bits;
    }
    return bits;
}

std::string tile_text(const Tile& tile) {
    return std::to_string(tile.rows) + " x " + std::to_string(tile.row_bytes) + " bytes";
}

// For kCute: which offset bits move where, for describe().
std::string cute_formula(const Swizzle& swizzle) {
    const int bits = swizzle.bits, base = swizzle.base, shift = swizzle.shift;
    if (bits == 0) {
        return "B = 0: the identity";
    }
    const int source_low = base + shift;
    const std::int64_t mask = ((std::int64_t{1} << bits) - 1) << source_low;
    return "offset bits " + std::to_string(source_low) + ".." +
           std::to_string(source_low + bits - 1) + " XOR-ed into bits " + std::to_string(base) +
           ".." + std::to_string(base + bits - 1) + ", o ^ ((o & " + std::to_string(mask) +
           ") >> " + std::to_string(shift) + "); repeats every " +
           std::to_string(std::int64_t{1} << (bits + base + shift)) + " bytes";
}

}  // namespace

common::Expected<Swizzle> parse_swizzle(const std::string& spec) {
    if (spec == "none") {
        return common::Expected<Swizzle>::success(Swizzle{});
    }
    if (spec == "xor") {
        Swizzle swizzle;
        swizzle.kind = SwizzleKind::kXor;
        swizzle.spec = "xor";
        return common::Expected<Swizzle>::success(swizzle);
    }
    if (spec == "tma32") {
        return common::Expected<Swizzle>::success(make_cute(spec, 1, 4, 3));
    }
    if (spec == "tma64") {
        return common::Expected<Swizzle>::success(make_cute(spec, 2, 4, 3));
    }
    if (spec == "tma128") {
        return common::Expected<Swizzle>::success(make_cute(spec, 3, 4, 3));
    }
    if (starts_with(spec, "pad:")) {
        return parse_pad(spec);
    }
    if (starts_with(spec, "cute:")) {
        return parse_cute(spec);
    }
    return common::Expected<Swizzle>::failure("unknown swizzle \"" + spec +
                                              "\"; allowed: " + kAllowedSwizzles);
}

std::int64_t storage_bytes(const Swizzle& swizzle, const Tile& tile) {
    const int pad = swizzle.kind == SwizzleKind::kPad ? swizzle.pad_bytes : 0;
    return static_cast<std::int64_t>(tile.rows) * (tile.row_bytes + pad);
}

std::string validate_swizzle(const Swizzle& swizzle, const Tile& tile, int access_bytes,
                             const std::string& pattern_name) {
    const std::string width = std::to_string(access_bytes) + "-byte accesses of " + pattern_name;
    switch (swizzle.kind) {
        case SwizzleKind::kNone:
            return "";
        case SwizzleKind::kPad:
            if (swizzle.pad_bytes % access_bytes != 0) {
                return "swizzle " + swizzle.spec + " misaligns the " + width +
                       ": N must be a multiple of " + std::to_string(access_bytes);
            }
            return "";
        case SwizzleKind::kXor: {
            const int chunks = tile.row_bytes / kXorChunkBytes;
            const bool whole_chunks = tile.row_bytes % kXorChunkBytes == 0;
            const bool closed = chunks < 8 ? is_power_of_two(chunks) : chunks % 8 == 0;
            if (!whole_chunks || !closed) {
                return "swizzle xor cannot permute row_bytes " + std::to_string(tile.row_bytes) +
                       ": it needs row_bytes 16, 32, 64 or a multiple of 128 (whole 16-byte "
                       "chunks that chunk ^ row keeps inside the row)";
            }
            return "";
        }
        case SwizzleKind::kCute: {
            if (swizzle.bits == 0) {
                return "";
            }
            if ((1 << swizzle.base) < access_bytes) {
                return "swizzle " + swizzle.spec + " moves " + std::to_string(1 << swizzle.base) +
                       "-byte pieces and would split the " + width +
                       ": M must be >= " + std::to_string(bits_to_hold(access_bytes));
            }
            const std::int64_t span = std::int64_t{1}
                                      << (swizzle.bits + swizzle.base + swizzle.shift);
            if (span > tile_bytes(tile)) {
                return "swizzle " + swizzle.spec + " spans " + std::to_string(span) +
                       " bytes but the tile " + tile_text(tile) + " holds only " +
                       std::to_string(tile_bytes(tile)) + "; use a tile of at least " +
                       std::to_string(span) + " bytes";
            }
            const std::int64_t block = std::int64_t{1} << (swizzle.bits + swizzle.base);
            if (tile_bytes(tile) % block != 0) {
                return "swizzle " + swizzle.spec + " permutes " + std::to_string(block) +
                       "-byte blocks but the tile " + tile_text(tile) + " (" +
                       std::to_string(tile_bytes(tile)) + " bytes) is not a multiple of " +
                       std::to_string(block);
            }
            return "";
        }
    }
    return "";
}

// (row, byte_col) -> byte_addr. Worked example in the header: tile 8 x 128, (3, 20) -> 420
// under xor and under cute:3,4,3.
std::int64_t physical_address(const Swizzle& swizzle, const Tile& tile, int row, int byte_col) {
    const std::int64_t logical = static_cast<std::int64_t>(row) * tile.row_bytes + byte_col;
    switch (swizzle.kind) {
        case SwizzleKind::kNone:
            return logical;
        case SwizzleKind::kPad:
            return static_cast<std::int64_t>(row) * (tile.row_bytes + swizzle.pad_bytes) + byte_col;
        case SwizzleKind::kXor: {
            const int period = std::max(1, std::min(8, tile.row_bytes / kXorChunkBytes));
            const int chunk = (byte_col / kXorChunkBytes) ^ (row % period);
            return static_cast<std::int64_t>(row) * tile.row_bytes + chunk * kXorChunkBytes +
                   byte_col % kXorChunkBytes;
        }
        case SwizzleKind::kCute: {
            const std::int64_t source_mask = ((std::int64_t{1} << swizzle.bits) - 1)
                                             << (swizzle.base + swizzle.shift);
            return logical ^ ((logical & source_mask) >> swizzle.shift);
        }
    }
    return logical;
}

std::string describe(const Swizzle& swizzle) {
    switch (swizzle.kind) {
        case SwizzleKind::kNone:
            return "none: plain row-major, (row, byte_col) -> row * row_bytes + byte_col";
        case SwizzleKind::kPad:
            return swizzle.spec + ": " + std::to_string(swizzle.pad_bytes) +
                   " bytes of padding after each row, (row, byte_col) -> row * (row_bytes + " +
                   std::to_string(swizzle.pad_bytes) + ") + byte_col";
        case SwizzleKind::kXor:
            return "xor: 16-byte chunk c of row r moves to chunk c ^ (r mod min(8, row_bytes / "
                   "16)), the permuted layout of ldmatrix GEMM kernels";
        case SwizzleKind::kCute:
            break;
    }
    const std::string cute = "cute:" + std::to_string(swizzle.bits) + "," +
                             std::to_string(swizzle.base) + "," + std::to_string(swizzle.shift);
    if (starts_with(swizzle.spec, "tma")) {
        const std::string size = swizzle.spec.substr(3);
        return swizzle.spec + ": Hopper TMA " + size + "-byte swizzle (CU_TENSOR_MAP_SWIZZLE_" +
               size + "B) = " + cute + ": " + cute_formula(swizzle);
    }
    return cute + ": CuTe Swizzle<" + std::to_string(swizzle.bits) + "," +
           std::to_string(swizzle.base) + "," + std::to_string(swizzle.shift) +
           "> on the byte offset o: " + cute_formula(swizzle);
}

std::vector<NamedSwizzle> list_swizzles() {
    return {
        {"none", "plain row-major, no swizzle"},
        {"pad:N", "N bytes of padding after each row (N a multiple of 4, 0..1024)"},
        {"xor", "16-byte chunk c of row r -> chunk c ^ (r mod min(8, row_bytes / 16))"},
        {"cute:B,M,S",
         "CuTe Swizzle<B,M,S> on the byte offset: o ^ ((o & (((1<<B)-1) << "
         "(M+S))) >> S)"},
        {"tma32", "Hopper TMA 32-byte swizzle = cute:1,4,3"},
        {"tma64", "Hopper TMA 64-byte swizzle = cute:2,4,3"},
        {"tma128", "Hopper TMA 128-byte swizzle = cute:3,4,3"},
    };
}

}  // namespace tclens::viz
