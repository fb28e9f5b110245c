#include "viz/layouts/wgmma_smem_layouts.h"

#include "viz/swizzle.h"

namespace tclens::viz {

namespace {

constexpr int kMn = 64;           // M of A, N of B
constexpr int kRowBytesOfK = 32;  // one instruction reads 32 bytes of K per row
constexpr int kCoreRows = 8;
constexpr int kChunkBytes = 16;  // one row of a core matrix
constexpr int kAlignmentBytes = 1024;

struct ElementWidth {
    const char* type;
    int bits;
    bool mn_major;  // the transposed form exists
};

constexpr ElementWidth kWidths[] = {
    {"tf32", 32, false},
    {"f16", 16, true},
    {"e4m3", 8, false},
    {"b1", 1, false},
};

constexpr int kSwizzles[] = {0, 32, 64, 128};

std::string swizzle_name(int swizzle_bytes) {
    return swizzle_bytes == 0 ? "none" : "sw" + std::to_string(swizzle_bytes);
}

std::string smem_id(const ElementWidth& width, bool k_major, int swizzle_bytes) {
    return std::string("wgmma.smem.") + width.type + (k_major ? ".k." : ".mn.") +
           swizzle_name(swizzle_bytes);
}

int swizzle_mode(int swizzle_bytes) {
    switch (swizzle_bytes) {
        case 128:
            return 1;
        case 64:
            return 2;
        case 32:
            return 3;
        default:
            return 0;
    }
}

struct Strides {
    int leading_bytes;
    int stride_bytes;
};

Strides tile_strides(int bits, bool k_major, int swizzle_bytes) {
    const int t = 128 / bits;
    if (k_major) {
        return swizzle_bytes == 0 ? Strides{128, 256} : Strides{16, 8 * swizzle_bytes};
    }
    return swizzle_bytes == 0 ? Strides{128 * (kMn / t), 128}
                              : Strides{16 * swizzle_bytes, 8 * swizzle_bytes};
}

// (mn, k) -> element offset from the start address before the swizzle, per the canonical layout
// of the header. K-major f16 none: (9, 10) -> 8*1 + 128*1 + 2 + 64*1 = 202 (elements)
int canonical_offset(int bits, bool k_major, int swizzle_bytes, const Strides& strides, int mn,
                     int k) {
    const int t = 128 / bits;
    const int lbo = strides.leading_bytes * 8 / bits;  // in elements
    const int sbo = strides.stride_bytes * 8 / bits;
    if (k_major) {
        if (swizzle_bytes == 0) {
            return (mn % 8) * t + (mn / 8) * sbo + k % t + (k / t) * lbo;
        }
        const int c = swizzle_bytes / kChunkBytes;
        return (mn % 8) * c * t + (mn / 8) * sbo + k;
    }
    if (swizzle_bytes == 0) {
        return mn % t + (mn / t) * sbo + (k % 8) * t + (k / 8) * lbo;
    }
    const int c = swizzle_bytes / kChunkBytes;
    return mn % t + ((mn / t) % c) * t + (mn / (c * t)) * lbo + (k % 8) * c * t + (k / 8) * sbo;
}

// The swizzle of `swizzle_bytes` as viz/swizzle.h's cute:B,4,3 (B = log2 of the 16-byte chunks
// it permutes), or nullopt for none.
std::optional<Swizzle> tile_swizzle(int swizzle_bytes) {
    if (swizzle_bytes == 0) return std::nullopt;
    int log_chunks = 0;
    while ((kChunkBytes << log_chunks) < swizzle_bytes) ++log_chunks;
    return *parse_swizzle("cute:" + std::to_string(log_chunks) + ",4,3");
}

int swizzled_byte(int byte, const std::optional<Swizzle>& swizzle) {
    if (!swizzle) return byte;
    const Tile span{1, kAlignmentBytes * 64};
    return static_cast<int>(physical_address(*swizzle, span, 0, byte));
}

SharedMemoryTile make_tile(Operand operand, int bits, bool k_major, int swizzle_bytes) {
    const int k_elems = kRowBytesOfK * 8 / bits;
    const bool is_a = operand == Operand::A;
    const Strides strides = tile_strides(bits, k_major, swizzle_bytes);
    SharedMemoryTile tile{operand,
                          is_a ? kMn : k_elems,
                          is_a ? k_elems : kMn,
                          bits,
                          k_major,
                          swizzle_bytes,
                          strides.leading_bytes,
                          strides.stride_bytes,
                          wgmma_matrix_descriptor(0, uint32_t(strides.leading_bytes),
                                                  uint32_t(strides.stride_bytes), swizzle_bytes),
                          {}};
    const int mn_chunks = kMn * bits / 8 / kChunkBytes;
    const std::optional<Swizzle> swizzle = tile_swizzle(swizzle_bytes);
    for (int row = 0; row < tile.rows; ++row) {
        for (int col = 0; col < tile.cols; ++col) {
            const int mn = is_a ? row : col;
            const int k = is_a ? col : row;
            const int bit_offset =
                canonical_offset(bits, k_major, swizzle_bytes, strides, mn, k) * bits;
            const int byte = swizzled_byte(bit_offset / 8, swizzle);
            const int core = k_major ? (mn / kCoreRows) * 2 + (k * bits / 8) / kChunkBytes
                                     : (k / kCoreRows) * mn_chunks + (mn * bits / 8) / kChunkBytes;
            tile.elements.push_back({row, col, byte, bit_offset % 8, core});
        }
    }
    return tile;
}

FragmentLayout make_smem_layout(const ElementWidth& width, bool k_major, int swizzle_bytes) {
    const int k_elems = kRowBytesOfK * 8 / width.bits;
    FragmentLayout layout = make_fragment_layout(
        smem_id(width, k_major, swizzle_bytes),
        "wgmma.mma_async.sync.aligned.m64n64k" + std::to_string(k_elems) + " a-desc, b-desc (" +
            (k_major ? "K" : "MN") + "-major, " +
            (swizzle_bytes == 0 ? "no" : std::to_string(swizzle_bytes) + "-byte") + " swizzle)",
        128);
    for (const Operand operand : {Operand::A, Operand::B}) {
        layout.shared_memory.push_back(make_tile(operand, width.bits, k_major, swizzle_bytes));
    }
    return layout;
}

}  // namespace

uint64_t wgmma_matrix_descriptor(uint32_t start_address, uint32_t leading_bytes,
                                 uint32_t stride_bytes, int swizzle_bytes) {
    const auto encode = [](uint32_t x) { return uint64_t((x & 0x3ffff) >> 4); };
    return encode(start_address) | encode(leading_bytes) << 16 | encode(stride_bytes) << 32 |
           uint64_t(swizzle_mode(swizzle_bytes)) << 62;
}

std::vector<std::string> wgmma_smem_layout_ids() {
    std::vector<std::string> ids;
    for (const ElementWidth& width : kWidths) {
        for (int swizzle : kSwizzles) ids.push_back(smem_id(width, true, swizzle));
    }
    for (const ElementWidth& width : kWidths) {
        if (!width.mn_major) continue;
        for (int swizzle : kSwizzles) ids.push_back(smem_id(width, false, swizzle));
    }
    return ids;
}

std::optional<FragmentLayout> wgmma_smem_layout(std::string_view id) {
    for (const ElementWidth& width : kWidths) {
        for (const bool k_major : {true, false}) {
            if (!k_major && !width.mn_major) continue;
            for (int swizzle : kSwizzles) {
                if (smem_id(width, k_major, swizzle) == id) {
                    return make_smem_layout(width, k_major, swizzle);
                }
            }
        }
    }
    return std::nullopt;
}

}  // namespace tclens::viz
