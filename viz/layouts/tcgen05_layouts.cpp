#include "viz/layouts/tcgen05_layouts.h"

#include "viz/warp.h"

namespace tclens::viz {

namespace {

constexpr int kTmemLanes = 128;
constexpr int kWordBits = 32;
constexpr int kScaleBits = 8;
constexpr int kAccumulatorN = 64;
constexpr int kScaleMn = 128;

// ---- tcgen05.ld / tcgen05.st ----

enum class DataPathShape { k32x32b, k16x64b, k16x128b, k16x256b, k16x32bx2 };

struct DataPathSpec {
    DataPathShape shape;
    const char* name;
    int lanes;
    int regs_per_repeat;  // registers of one .x1
    int cols_per_repeat;  // 32-bit TMEM columns of one .x1
};

// clang-format off
constexpr DataPathSpec kDataPathSpecs[] = {
    {DataPathShape::k32x32b,   "32x32b",   32, 1, 1},
    {DataPathShape::k16x64b,   "16x64b",   16, 1, 2},
    {DataPathShape::k16x128b,  "16x128b",  16, 2, 4},
    {DataPathShape::k16x256b,  "16x256b",  16, 4, 8},
    {DataPathShape::k16x32bx2, "16x32bx2", 16, 1, 2},
};
// clang-format on

constexpr int kRepeats[] = {1, 2};

std::string data_path_id(const DataPathSpec& spec, int repeats) {
    return std::string("tcgen05.ld.") + spec.name + ".x" + std::to_string(repeats);
}

// (thread t, register r) -> (TMEM lane, column), see the header. 16x64b.x2: t 6, r 1 -> (1, 3)
MatrixCoord data_path_coord(DataPathShape shape, int repeats, int t, int r) {
    switch (shape) {
        case DataPathShape::k32x32b:
            return {t, r};
        case DataPathShape::k16x64b:
            return {8 * (t % 2) + t / 4, (t / 2) % 2 + 2 * r};
        case DataPathShape::k16x128b:
            return {t / 4 + 8 * (r % 2), t % 4 + 4 * (r / 2)};
        case DataPathShape::k16x256b:
            return {t / 4 + 8 * ((r / 2) % 2), 2 * (t % 4) + r % 2 + 8 * (r / 4)};
        case DataPathShape::k16x32bx2:
            return {t % 16, r + repeats * (t / 16)};
    }
    return {0, 0};
}

FragmentLayout make_data_path_layout(const DataPathSpec& spec, int repeats) {
    FragmentLayout layout =
        make_fragment_layout(data_path_id(spec, repeats),
                             std::string("tcgen05.ld.sync.aligned.") + spec.name + ".x" +
                                 std::to_string(repeats) + ".b32",
                             kWarpLanes);
    layout.verifiable = false;
    layout.source = std::string("PTX ISA, Tensor Memory: Matrix fragments for shape .") + spec.name;
    const DataPathShape shape = spec.shape;
    layout.operands.push_back(build_operand_layout(
        Operand::D, spec.lanes, spec.cols_per_repeat * repeats, kWordBits,
        spec.regs_per_repeat * repeats, kWarpLanes,
        [shape, repeats](int t, int r, int) { return data_path_coord(shape, repeats, t, r); }));
    layout.operands.back().note =
        shape == DataPathShape::k16x32bx2
            ? "Rows are TMEM lanes of the warp's subpartition, columns 32-bit TMEM columns; the "
              "second half (lanes 16-31's registers) lies imm-half-splitoff columns after the "
              "first. tcgen05.st moves the same registers the other way."
            : "Rows are TMEM lanes of the warp's subpartition, columns 32-bit TMEM columns; "
              "tcgen05.st moves the same registers the other way.";
    return layout;
}

// ---- Accumulators ----

enum class AccumulatorLayout { kF, kD, kB, kA };

struct AccumulatorSpec {
    AccumulatorLayout layout;
    const char* id;
    const char* ptx;
    const char* section;
    int rows;     // rows of D held by one CTA
    int columns;  // TMEM columns the CTA's part of D takes
};

// clang-format off
constexpr AccumulatorSpec kAccumulatorSpecs[] = {
    {AccumulatorLayout::kF, "tcgen05.mma.m64n64.cta1",  "tcgen05.mma.cta_group::1",  "Layout F (M = 64 + non .ws mode)", 64, 64},
    {AccumulatorLayout::kD, "tcgen05.mma.m128n64.cta1", "tcgen05.mma.cta_group::1",  "Layout D (M = 128 + cta_group::1)", 128, 64},
    {AccumulatorLayout::kB, "tcgen05.mma.m128n64.cta2", "tcgen05.mma.cta_group::2",  "Layout B (M = 128 + cta_group::2 + Dense A matrix)", 64, 32},
    {AccumulatorLayout::kA, "tcgen05.mma.m256n64.cta2", "tcgen05.mma.cta_group::2",  "Layout A (M = 256)", 128, 64},
};
// clang-format on

// (TMEM lane, column) -> (row, col) of the CTA's part of D, or nullopt for a lane that holds
// none. Layout F: lane 37, column 5 -> (21, 5); Layout B: lane 70, column 3 -> (6, 35)
std::optional<MatrixCoord> accumulator_coord(AccumulatorLayout layout, int lane, int column) {
    switch (layout) {
        case AccumulatorLayout::kF:
            if (lane % 32 >= 16) return std::nullopt;
            return MatrixCoord{lane % 32 + 16 * (lane / 32), column};
        case AccumulatorLayout::kD:
        case AccumulatorLayout::kA:
            return MatrixCoord{lane, column};
        case AccumulatorLayout::kB:
            return MatrixCoord{lane % 64, column + (kAccumulatorN / 2) * (lane / 64)};
    }
    return std::nullopt;
}

FragmentLayout make_accumulator_layout(const AccumulatorSpec& spec) {
    FragmentLayout layout = make_fragment_layout(spec.id, spec.ptx, kTmemLanes);
    layout.verifiable = false;
    layout.tmem_slots = true;
    layout.source = std::string("PTX ISA, Data Path Layout Organization: ") + spec.section;
    const AccumulatorLayout kind = spec.layout;
    layout.operands.push_back(build_partial_operand_layout(
        Operand::D, spec.rows, kAccumulatorN, kWordBits, spec.columns, kTmemLanes,
        [kind](int lane, int column, int) { return accumulator_coord(kind, lane, column); }));
    layout.operands.back().note =
        spec.layout == AccumulatorLayout::kB || spec.layout == AccumulatorLayout::kA
            ? "cta_group::2: each CTA of the pair holds its half of the rows of D; shown for one."
            : "";
    return layout;
}

// ---- Block-scale factors ----

struct ScaleSpec {
    const char* id;
    const char* ptx;
    int factors;  // scale factors per row of A / column of B
    const char* section;
};

// clang-format off
constexpr ScaleSpec kScaleSpecs[] = {
    {"tcgen05.sf.mxf8f6f4.1x", "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X", 1,
     "Layout of the Scale Factor A/B Matrix for scale_vec::1X/block32"},
    {"tcgen05.sf.mxf4.2x",     "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.scale_vec::2X", 2,
     "Layout of the Scale Factor A/B Matrix for scale_vec::2X/block32"},
    {"tcgen05.sf.mxf4nvf4.4x", "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X", 4,
     "Layout of the Scale Factor A/B Matrix for scale_vec::4X/block16"},
};
// clang-format on

// (lane, column, byte) -> (mn, s): element s of row/column mn, or nullopt for an unused byte.
// lane 5, column 2, byte 1 -> (69, 1)
std::optional<MatrixCoord> scale_coord(int factors, int lane, int column, int byte) {
    if (byte >= factors) return std::nullopt;
    return MatrixCoord{lane + kWarpLanes * column, byte};
}

FragmentLayout make_scale_layout(const ScaleSpec& spec) {
    FragmentLayout layout = make_fragment_layout(spec.id, spec.ptx, kWarpLanes);
    layout.verifiable = false;
    layout.tmem_slots = true;
    layout.source = std::string("PTX ISA, Block Scaling for tcgen05.mma: ") + spec.section;
    const int factors = spec.factors;
    const int columns = kScaleMn / kWarpLanes;
    layout.operands.push_back(
        build_partial_operand_layout(Operand::A, kScaleMn, factors, kScaleBits, columns, kWarpLanes,
                                     [factors](int lane, int column, int byte) {
                                         return scale_coord(factors, lane, column, byte);
                                     }));
    layout.operands.push_back(build_partial_operand_layout(
        Operand::B, factors, kScaleMn, kScaleBits, columns, kWarpLanes,
        [factors](int lane, int column, int byte) -> std::optional<MatrixCoord> {
            const std::optional<MatrixCoord> at = scale_coord(factors, lane, column, byte);
            if (!at) return std::nullopt;
            return MatrixCoord{at->col, at->row};
        }));
    for (OperandLayout& operand : layout.operands) {
        operand.note =
            "Duplicated in all four 32-lane TMEM subpartitions (shown once); the scale-factor ID "
            "adds a byte offset (shown for ID 0).";
    }
    return layout;
}

}  // namespace

std::vector<std::string> tcgen05_layout_ids() {
    std::vector<std::string> ids;
    for (const DataPathSpec& spec : kDataPathSpecs) {
        for (int repeats : kRepeats) ids.push_back(data_path_id(spec, repeats));
    }
    for (const AccumulatorSpec& spec : kAccumulatorSpecs) ids.push_back(spec.id);
    for (const ScaleSpec& spec : kScaleSpecs) ids.push_back(spec.id);
    return ids;
}

std::optional<FragmentLayout> tcgen05_layout(std::string_view id) {
    for (const DataPathSpec& spec : kDataPathSpecs) {
        for (int repeats : kRepeats) {
            if (data_path_id(spec, repeats) == id) return make_data_path_layout(spec, repeats);
        }
    }
    for (const AccumulatorSpec& spec : kAccumulatorSpecs) {
        if (id == spec.id) return make_accumulator_layout(spec);
    }
    for (const ScaleSpec& spec : kScaleSpecs) {
        if (id == spec.id) return make_scale_layout(spec);
    }
    return std::nullopt;
}

}  // namespace tclens::viz
