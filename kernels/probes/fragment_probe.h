#pragma once
// Fragment layout probes: run one Tensor Core instruction (mma.sync, ldmatrix, wgmma) on the GPU
// with inputs that encode their own coordinates, read every lane's registers back, and rebuild
// the (lane, reg, sub) -> (row, col) map the hardware used, so that a viz:: layout model can be
// checked element by element (`tclens layout ID --verify`).
//
// How each operand is measured. For mma and wgmma a coordinate only exists through what the
// instruction computes, D = A * B + C, so each operand is measured with the other operands
// loaded (or, for D, read) through their model. A wrong model therefore shows up as mismatches
// in at least one operand: in its own experiment, which pins the wrong slots, and usually also
// in the experiments that loaded or read it through the model.
//   D: A[m][0] = m, A[m][1] = 1, B[0][n] = S, B[1][n] = n + 1, every other element 0, C = 0, so
//      D[m][n] = S*m + n + 1 with S the smallest power of two above N: each D register names its
//      own (m, n) and none is 0.
//   C: A = B = 0 and C register slot i (in the model's element order) holds i + 1, so D = C;
//      the D register where i + 1 arrives, read through the D model, is where C slot i sits.
//      C is measured this way, not copied from D.
//   A: one experiment per (lane, reg, sub) slot: A is one-hot there (value 1) and
//      B[k][n] = digit(k, n), so D is zero except row m of the one-hot element, where
//      D[m][n] = B[k][n]; row m and the digits give (m, k).
//   B: the mirror image: B one-hot, A[m][k] = digit(k, m); the nonzero D column is n.
//   digit(k, j) = 1 + (j even ? k % 8 : k / 8): values 1..8 (for K <= 64) that are exact in
//   every input type, e4m3 included, where k + 1 would not be (17 is not an e4m3 number).
// ldmatrix moves real memory, so its probe needs no arithmetic: every 16-byte row in shared
// memory holds values that name (row, col) of the source tile, each lane supplies the address of
// the row the model's address_lanes gives it (lanes that supply none point at a decoy row), and
// both halves of each destination register are decoded.
// Every value placed is checked to be exact in its type before anything runs (encode_exact), and
// output buffers are poisoned with 0xff bytes, so a register that was never written decodes as
// "not a number" instead of passing for coordinate (0, 0).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "viz/fragment_layout.h"

namespace tclens::kernels {

// ---- Results --------------------------------------------------------------------------------

struct MeasuredOperand {
    viz::Operand operand;
    // One entry per slot of the model's operand layout, in the same order; row/col are what the
    // hardware put there, or -1 where the slot could not be decoded.
    std::vector<viz::LayoutElement> elements;
    // Parallel to `elements`: "" where decoded, else why not ("D is all zero", ...).
    std::vector<std::string> problems;
};

struct LayoutProbeResult {
    std::string error;           // CUDA or set-up error in one line, "" if none
    std::string skipped_reason;  // non-empty if this GPU (or build) cannot run the instruction
    std::vector<MeasuredOperand> operands;
};

// Measures every operand of `model` on the current CUDA device. `model.id` picks the
// instruction (one of viz::fragment_layout_ids()); the model supplies the layouts used to load
// and read the registers. Skips (with the reason) where the device cannot run the instruction:
// e4m3 mma needs sm_89 or newer, wgmma needs sm_90a (compute capability 9.0 exactly).
LayoutProbeResult measure_fragment_layout(const viz::FragmentLayout& model);

struct LayoutComparison {
    int matched = 0;
    int total = 0;  // elements in the model, all operands together
    // One line per element that differs, e.g. "A lane 5 a2: model (1,5) measured (1,4)".
    std::vector<std::string> mismatches;
};

// Compares `measured` with `model` slot by slot. A result with an error or a skip matches
// nothing; its one mismatch line says why.
LayoutComparison compare_layouts(const viz::FragmentLayout& model,
                                 const LayoutProbeResult& measured);

// "N/N elements match" (or "M/N elements match").
std::string comparison_summary(const LayoutComparison& comparison);

// ---- Element encodings (pure) ---------------------------------------------------------------

enum class ElementType { Tf32, F16, Bf16, S8, E4m3, F64, F32, S32 };

int element_bits(ElementType type);          // 32, 16, 16, 8, 8, 64, 32, 32
const char* element_name(ElementType type);  // "tf32", "f16", ...

// The bit pattern (in the low element_bits) of the integer `value`, or nullopt if `value` is
// not exactly representable: f16 holds integers up to 2048, bf16 up to 256, tf32 up to 2048
// (the f32 pattern with the 13 low mantissa bits zero), e4m3 up to 16 (then only even, ... up
// to 448), s8 -128..127, f32 up to 2^24, s32 and f64 all of int.
std::optional<uint64_t> encode_exact(ElementType type, int value);

// The number held in `bits` (low element_bits used), or nullopt for NaN and infinities.
std::optional<double> decode_element(ElementType type, uint64_t bits);

// ---- Register images (pure) -----------------------------------------------------------------
// An operand's register image is what one warp (or warpgroup) holds: `threads` x
// regs_per_thread registers in (lane, reg) order, each one 32-bit word, or two for 64-bit
// elements (low word first). Element `sub` of a register occupies bits
// [sub * elem_bits, (sub + 1) * elem_bits).
// (lane, reg, sub) -> word (lane * regs_per_thread + reg) * words_per_register, bit
// sub * elem_bits; m16n8k16.f16 A, lane 1 a5 (reg 2, sub 1) -> word 6, bits 16..31.

int words_per_register(int elem_bits);  // 2 for 64-bit elements, else 1
size_t image_words(const viz::OperandLayout& layout, int threads);

void write_slot(uint32_t* image, const viz::OperandLayout& layout, const viz::LayoutElement& slot,
                uint64_t bits);
uint64_t read_slot(const uint32_t* image, const viz::OperandLayout& layout,
                   const viz::LayoutElement& slot);

// Writes value(row, col) into every slot of `layout`, at the place the model gives it. Returns
// "" or the first value that `type` cannot hold exactly.
std::string fill_operand(uint32_t* image, const viz::OperandLayout& layout, ElementType type,
                         const std::function<int(int row, int col)>& value);

// ---- Decoding helpers (pure) ----------------------------------------------------------------

// 1 + (j even ? k % 8 : k / 8); see the top of this file.
int k_digit(int k, int j);

// The smallest power of two greater than `cols`: the row scale S of the D experiment.
int product_row_scale(int cols);

struct DecodedCoord {
    int row = -1;
    int col = -1;
    std::string problem;  // "" when row/col are valid
};

// D value -> (m, n), inverting D[m][n] = S*m + n + 1 for a rows x cols matrix.
// S = 16: 84 -> (5, 3)
DecodedCoord decode_product(std::optional<double> value, int row_scale, int rows, int cols);

// One D register of a one-hot experiment: where the D model says it sits, and what it holds
// (nullopt: not a number, e.g. poison left in place).
struct AccumulatorReading {
    int row;
    int col;
    std::optional<double> value;
};

// Decodes a one-hot experiment for operand A (the nonzero D row is m; D[m][n] = digit(k, n)) or
// B (the nonzero D column is n; D[m][n] = digit(k, m)). `rows` x `cols` is D, `depth` is K.
// Returns (m, k) for A and (k, n) for B.
DecodedCoord decode_one_hot(viz::Operand operand, const std::vector<AccumulatorReading>& d,
                            int rows, int cols, int depth);

// ---- Probe plans (pure): what the GPU runs, and how its output becomes a measurement ---------
// A plan is built from the model on the CPU; a launcher (one per .cu file) runs it and returns
// the raw output registers; decode_* turns them into MeasuredOperands. The unit tests run the
// same plans through a CPU emulation of each instruction.

enum class MmaInstruction {
    M16n8k4Tf32,
    M16n8k8Tf32,
    M16n8k8F16,
    M16n8k16F16,
    M16n8k16Bf16,
    M16n8k32S8,
    M16n8k32E4m3,
    M8n8k4F64,
};

struct MmaProbeSpec {
    const char* id;  // layout ID, e.g. "mma.m16n8k8.tf32"
    MmaInstruction instruction;
    ElementType input;        // A and B
    ElementType accumulator;  // C and D
    int min_sm;               // 80, or 89 for e4m3
};

// The spec for an mma layout ID, or nullptr.
const MmaProbeSpec* find_mma_probe_spec(std::string_view id);

// Experiments back to back, one warp each: 0 is the D experiment, 1 the C experiment, then one
// per A slot and one per B slot (model element order). a/b/c hold each experiment's register
// image of that operand.
struct MmaProbePlan {
    std::string error;  // "" or why no plan could be made (model shape, inexact value)
    MmaInstruction instruction = MmaInstruction::M16n8k8F16;
    int experiments = 0;
    std::vector<uint32_t> a, b, c;
};

MmaProbePlan plan_mma_probe(const viz::FragmentLayout& model, const MmaProbeSpec& spec);

// `d` holds each experiment's D register image, back to back. Returns A, B, C and D.
std::vector<MeasuredOperand> decode_mma_probe(const viz::FragmentLayout& model,
                                              const MmaProbeSpec& spec,
                                              const std::vector<uint32_t>& d);

// ldmatrix: 32 row slots of 16 bytes in shared memory, one per lane; lane L's slot lies at byte
// lane_offsets[L] (a permutation, so that row r is not simply at 16 * r). A slot holds the row
// that lane L supplies in the model, or a decoy row if it supplies none.
constexpr int kLdmatrixSlots = 32;
constexpr int kLdmatrixRowElems = 8;

struct LdmatrixProbePlan {
    std::string error;
    int matrices = 0;  // 1, 2 or 4
    bool trans = false;
    std::vector<uint16_t> smem;          // kLdmatrixSlots * kLdmatrixRowElems values
    std::vector<uint32_t> lane_offsets;  // kLdmatrixSlots byte offsets into smem
};

// (row, col) -> value of that source-tile element: 0x4000 | row << 4 | col; (5, 3) -> 0x4053.
// Decoy row element of lane L: 0x6000 | L << 4 | col. Poison (0xffff) and 0 are neither.
uint16_t ldmatrix_tile_value(int row, int col);
uint16_t ldmatrix_decoy_value(int lane, int col);
DecodedCoord decode_ldmatrix_value(uint16_t value, int rows);

LdmatrixProbePlan plan_ldmatrix_probe(const viz::FragmentLayout& model);

// `registers`: lane-major, `matrices` words per lane. Returns D.
std::vector<MeasuredOperand> decode_ldmatrix_probe(const viz::FragmentLayout& model,
                                                   const std::vector<uint32_t>& registers);

// wgmma.m64nNk16.f32.f16.f16, A from registers, B (K x N = 16 x N f16) in shared memory in the
// canonical no-swizzle K-major layout: 8x8 core matrices (8 rows of N, each 16 contiguous bytes
// of K), core matrix (k / 8, n / 8) at byte (n / 8) * kWgmmaStrideBytes + (k / 8) *
// kWgmmaLeadingBytes.
constexpr int kWgmmaThreads = 128;
constexpr int kWgmmaM = 64;
constexpr int kWgmmaK = 16;
constexpr int kWgmmaARegs = 4;
constexpr uint32_t kWgmmaLeadingBytes = 128;  // LBO: next core matrix along K
constexpr uint32_t kWgmmaStrideBytes = 256;   // SBO: next 8 rows along N

// (k, n) -> element offset of B[k][n] in the shared-memory tile.
// B[9][10] -> (1 * 256 + 1 * 128) / 2 + 2 * 8 + 1 = 209
size_t wgmma_b_offset(int k, int n);

// The 64-bit matrix descriptor: start address, LBO and SBO each encoded as (x & 0x3FFFF) >> 4
// in bits 0-13, 16-29 and 32-45; base offset 0 and swizzle mode 0 (none).
uint64_t wgmma_descriptor(uint32_t smem_address, uint32_t leading_bytes, uint32_t stride_bytes);

// Experiments, one warpgroup each: 0 is the D experiment, then one per A slot. Experiment e
// uses B tile tile_index[e] (each tile 16 * n values in shared-memory order).
struct WgmmaProbePlan {
    std::string error;
    int n = 0;
    int experiments = 0;
    std::vector<uint32_t> a;  // kWgmmaThreads * kWgmmaARegs words per experiment
    std::vector<uint16_t> b_tiles;
    std::vector<int32_t> tile_index;
    uint64_t descriptor_template = 0;  // wgmma_descriptor(0, ...): the kernel adds the address
};

WgmmaProbePlan plan_wgmma_probe(const viz::FragmentLayout& model);

// `d`: each experiment's D register image (kWgmmaThreads * n / 2 words). Returns A and D.
std::vector<MeasuredOperand> decode_wgmma_probe(const viz::FragmentLayout& model,
                                                const std::vector<uint32_t>& d);

// ---- Launchers (one per .cu file) ------------------------------------------------------------

struct DeviceRun {
    std::string error;          // "" or the CUDA error in one line
    bool not_compiled = false;  // the kernel for this GPU was built without the instruction
    std::vector<uint32_t> out;  // the output registers, as the plan's decode_* expects them
};

DeviceRun run_mma_probe(const MmaProbePlan& plan);            // mma_probe.cu
DeviceRun run_ldmatrix_probe(const LdmatrixProbePlan& plan);  // ldmatrix_probe.cu
DeviceRun run_wgmma_probe(const WgmmaProbePlan& plan);        // wgmma_probe.cu

// Shared by the launchers: copies `inputs` to the device, allocates `out_words` words of output
// poisoned with 0xff bytes and a zeroed int flag, calls `launch(device inputs, out, flag)`,
// waits, and copies the output back. A nonzero flag means "not compiled for this GPU".
struct HostBytes {
    const void* data;
    size_t bytes;
};
using ProbeLaunch =
    std::function<void(const std::vector<const void*>& inputs, uint32_t* out, int* flag)>;
DeviceRun run_on_device(const std::vector<HostBytes>& inputs, size_t out_words,
                        const ProbeLaunch& launch);

}  // namespace tclens::kernels
