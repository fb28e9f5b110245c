#pragma once
// Fragment layout probes: run one Tensor Core or matrix-move instruction on the GPU with inputs
// that encode their own coordinates, read every lane's registers (or shared memory) back, and
// rebuild the (lane, reg, sub) -> (row, col) map the hardware used, so that a viz:: layout model
// can be checked element by element (`tclens layout ID --verify`).
//
// How each operand is measured. For mma, mma.sp and wgmma a coordinate only exists through what
// the instruction computes, D = A * B + C, so each operand is measured with the other operands
// loaded (or, for D, read) through their model. A wrong model therefore shows up as mismatches in
// at least one operand: in its own experiment, which pins the wrong slots, and usually also in
// the experiments that loaded or read it through the model.
//   D: a product design (ProductDesign below) fills A and B so that D[m][n] = S*m + n + 1 with S
//      the smallest power of two above N: each D register names its own (m, n) and none is 0.
//      With the input types that hold 0..15 and S exactly this is A[m][0] = m, A[m][1] = 1,
//      B[0][n] = S, B[1][n] = n + 1; narrower types spread the same sums over more of K.
//   C: A = B = 0 and C register slot i (in the model's element order) holds i + 1, so D = C;
//      the D register where i + 1 arrives, read through the D model, is where C slot i sits.
//      C is measured this way, not copied from D.
//   A: one experiment per (lane, reg, sub) slot: A is one-hot there (value 1) and
//      B[k][n] = digit(k, n), so D is zero except row m of the one-hot element, where
//      D[m][n] = B[k][n]; row m and the digits give (m, k).
//   B: the mirror image: B one-hot, A[m][k] = digit(k, m); the nonzero D column is n.
//   digit(k, j) = 1 + the (j mod count)-th base-`base` digit of k (DigitCode): values that are
//   exact in every input type, where k + 1 would not be (17 is not an e4m3 number). Base 8 with
//   two digits serves K <= 64; s4 (largest value 7) uses base 7 with three.
// b1 (popc of AND or XOR) and the sparse mma.sp need their own experiments; their plan headers
// say how. ldmatrix, stmatrix and movmatrix move real data, so their probes need no arithmetic:
// values name their own coordinates (matrix_move_probe_plan.h).
// Every value placed is checked to be exact in its type before anything runs (encode_exact), and
// output buffers are poisoned with 0xff bytes, so a register that was never written decodes as
// "not a number" instead of passing for coordinate (0, 0).
//
// Files: this header (results, encodings, register images, decoding helpers, comparison, device
// staging and the dispatch by layout ID); mma_probe_plan.h (mma.sync), mma_sp_probe_plan.h
// (mma.sp), matrix_move_probe_plan.h (ldmatrix, stmatrix, movmatrix), wgmma_probe_plan.h
// (wgmma), wgmma_smem_probe_plan.h (the wgmma shared-memory views); one .cu launcher per
// instruction family. The plans and what this header declares are plain C++ (fragment_probe.cpp
// and the *_plan.cpp files, in tclens_kernels_model) but for measure_fragment_layout,
// run_on_device and the launchers, which run on the GPU (fragment_probe_run.cpp and the .cu
// files, in tclens_kernels).

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

struct DecodedCoord {
    int row = -1;
    int col = -1;
    std::string problem;  // "" when row/col are valid
};

// A wgmma shared-memory tile (viz::SharedMemoryTile) as the hardware read it: coords[i] is the
// (row, col) of the operand that the instruction read from the place (byte, bit) of the model
// tile's element i, or -1 with the reason.
struct MeasuredTile {
    viz::Operand operand;
    std::vector<DecodedCoord> coords;
};

struct LayoutProbeResult {
    std::string error;           // CUDA or set-up error in one line, "" if none
    std::string skipped_reason;  // non-empty if this GPU (or build) cannot run the instruction
    std::vector<MeasuredOperand> operands;
    std::vector<MeasuredTile> tiles = {};  // the wgmma shared-memory views only
};

// Measures every operand of `model` on the current CUDA device. `model.id` picks the
// instruction (one of viz::fragment_layout_ids()); the model supplies the layouts used to load
// and read the registers. Skips (with the reason) where the device cannot run the instruction:
// FP8 mma and mma.sp need sm_89 or newer, stmatrix sm_90, wgmma sm_90a (compute capability 9.0
// exactly); a model that no GPU at hand can check (viz::FragmentLayout::verifiable false,
// tcgen05) is skipped with viz::kModelOnlyNote, and an ID without a probe gives an error saying
// so. The wgmma shared-memory views fill `tiles` instead of `operands`. In tclens_kernels
// (fragment_probe_run.cpp).
LayoutProbeResult measure_fragment_layout(const viz::FragmentLayout& model);

// True when measure_fragment_layout has a probe for `id` (every verifiable ID; the tcgen05
// models have none).
bool has_layout_probe(std::string_view id);

// A register slot of the model whose element the hardware did not put where the model says:
// `element` indexes the model operand's viz::OperandLayout::elements.
struct WrongSlot {
    viz::Operand operand = viz::Operand::A;
    int element = 0;
};

struct LayoutComparison {
    int matched = 0;
    int total = 0;  // elements in the model, all operands (and shared-memory tiles) together
    // One line per element that differs, e.g. "A lane 5 a2: model (1,5) measured (1,4)", or for
    // a shared-memory tile "B byte 130: model (4,5) measured (3,5)".
    std::vector<std::string> mismatches;
    // The register slots among them (not the shared-memory tiles'), for views that mark them.
    std::vector<WrongSlot> wrong;
};

// Compares `measured` with `model` slot by slot (shared-memory tiles element by element). A result
// with an error or a skip matches nothing; its one mismatch line says why.
LayoutComparison compare_layouts(const viz::FragmentLayout& model,
                                 const LayoutProbeResult& measured);

// "N/N elements match" (or "M/N elements match").
std::string comparison_summary(const LayoutComparison& comparison);

// ---- Element encodings (pure) ---------------------------------------------------------------

// New types go at the end: the order is not a contract, but keeping it keeps the tests' tables.
enum class ElementType { Tf32, F16, Bf16, S8, E4m3, F64, F32, S32, E5m2, U8, S4, U4, B1 };

int element_bits(ElementType type);          // 32, 16, 16, 8, 8, 64, 32, 32, 8, 8, 4, 4, 1
const char* element_name(ElementType type);  // "tf32", "f16", ...

// The bit pattern (in the low element_bits) of the integer `value`, or nullopt if `value` is
// not exactly representable: f16 holds integers up to 2048, bf16 up to 256, tf32 up to 2048
// (the f32 pattern with the 13 low mantissa bits zero), e4m3 up to 16 (then only even, ... up
// to 448), e5m2 up to 8 (then 10, 12, 14, 16, 20, ... up to 57344), s8 -128..127, u8 0..255,
// s4 -8..7, u4 0..15, b1 0..1, f32 up to 2^24, s32 and f64 all of int.
std::optional<uint64_t> encode_exact(ElementType type, int value);

// The number held in `bits` (low element_bits used), or nullopt for NaN and infinities.
std::optional<double> decode_element(ElementType type, uint64_t bits);

// The largest P such that 0, 1, ..., P are all exact in `type` (2048 at most): 2048 for f16 and
// tf32, 256 bf16, 16 e4m3, 8 e5m2, 127 s8, 255 u8, 7 s4, 15 u4, 1 b1.
int largest_dense_exact(ElementType type);

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

// How one-hot experiments spell k: position j holds 1 + digit (j mod digits) of k in base
// `base`. {8, 2}: 1 + (j even ? k % 8 : k / 8 % 8).
struct DigitCode {
    int base = 8;
    int digits = 2;
};

// The code for an input type and depth K: base 8 (values 1..8) with as few digits as K needs,
// or, where 8 is not exact (s4), the largest base whose values are.
DigitCode digit_code(ElementType type, int depth);

// 1 + (j even ? k % 8 : k / 8 % 8); see the top of this file.
int k_digit(int k, int j);
int k_digit(int k, int j, const DigitCode& code);

// The smallest power of two not below `cols`: the row scale S of the D experiment (n + 1 <= S,
// so D = S*m + n + 1 decodes; the largest D, S*M, is as small as it can be: FP8 wgmma keeps
// only 14 significant bits of its accumulator, and 64 x 256 fills them exactly).
int product_row_scale(int cols);

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
// B (the nonzero D column is n; D[m][n] = digit(k, m)); E (mma.sp metadata) reads like A.
// `rows` x `cols` is D, `depth` is K. Returns (m, k) for A and E, (k, n) for B.
DecodedCoord decode_one_hot(viz::Operand operand, const std::vector<AccumulatorReading>& d,
                            int rows, int cols, int depth, const DigitCode& code = DigitCode{});

// How A and B are filled so that D[m][n] = S*m + n + 1 (see the top of this file). Column kk of
// the design is a row term (A[m][kk] = factor * digit(m), B[kk][n] = constant) or a column term
// (A[m][kk] = constant, B[kk][n] = factor * digit(n + 1)), digit(x) being one base-`base` digit
// of x; the digits with their weights (factor * constant * base^digit) add up to S*m and n + 1.
// A weight that no exact factor and constant make is split over repeated columns.
struct DesignColumn {
    bool row_term;
    int digit;     // which base-`base` digit: 0 the lowest
    int factor;    // multiplies the digit on the varying side
    int constant;  // the other side's value
};

struct ProductDesign {
    std::string error;  // "" or why no design fits K
    int base = 0;
    int row_scale = 0;
    std::vector<DesignColumn> columns;  // K columns 0 .. size - 1; the rest of K is 0
    int a(int m, int kk) const;         // A[m][kk]
    int b(int kk, int n) const;         // B[kk][n]
};

// The design for `input` with an M x K x N product (every value exact in `input`); its error says
// when none fits in K columns.
ProductDesign make_product_design(ElementType input, int m, int n, int k);

// ---- Building blocks for the plan files -------------------------------------------------------

// A MeasuredOperand for `layout` with decoded[i] at slot i.
MeasuredOperand measured_from(const viz::OperandLayout& layout,
                              const std::vector<DecodedCoord>& decoded);

// Every slot of `layout` undecoded, for the reason `why`.
MeasuredOperand unmeasured(const viz::OperandLayout& layout, const std::string& why);

// D of a product experiment: every register names its own (m, n). `transform` maps the raw value
// first (b1 XOR turns its count into the AND count); nullptr for none.
MeasuredOperand measure_product(const viz::OperandLayout& d_layout, ElementType accumulator,
                                const uint32_t* image, int row_scale,
                                const std::function<double(double)>& transform = nullptr);

// A or B from their one-hot experiments: the D image at first_image + i * image_stride comes
// from the experiment that is one-hot at slot i of `layout`.
MeasuredOperand measure_one_hot(const viz::OperandLayout& layout,
                                const viz::OperandLayout& d_layout, ElementType accumulator,
                                const uint32_t* first_image, size_t image_stride, int depth,
                                const DigitCode& code = DigitCode{});

// C from its experiment: slot i's value i + 1 found in a D register of `d_image` (read through
// the D model).
MeasuredOperand measure_accumulator_c(const viz::OperandLayout& c_layout,
                                      const viz::OperandLayout& d_layout, ElementType accumulator,
                                      const uint32_t* d_image);

// D and C of an MMA probe's first two experiments: D from the product experiment (image 0, rows
// scaled by product_row_scale), C from its own experiment (image 1), `d_images` holding one
// d_words-word D image per experiment. The dense and sparse mma probes read them alike.
struct MeasuredProductAndC {
    MeasuredOperand d;
    MeasuredOperand c;
};
MeasuredProductAndC measure_product_and_c(const viz::OperandLayout& d_layout,
                                          const viz::OperandLayout& c_layout,
                                          ElementType accumulator, const uint32_t* d_images,
                                          size_t d_words);

// Writes i + 1 into C slot i of `image` for every slot; "" or the first value not exact.
std::string fill_accumulator_c(uint32_t* image, const viz::OperandLayout& c_layout,
                               ElementType accumulator);

// "" when `layout` is rows x cols of bits-wide elements, else one line for `what` saying so.
std::string shape_error(const char* what, const viz::OperandLayout& layout, int rows, int cols,
                        int bits);

// "" when D values up to S*(rows-1) + cols are exact in `accumulator`, else why not.
std::string check_accumulator(ElementType accumulator, int row_scale, int rows, int cols);

// ---- Device staging -----------------------------------------------------------------------

struct DeviceRun {
    std::string error;          // "" or the CUDA error in one line
    bool not_compiled = false;  // the kernel for this GPU was built without the instruction
    std::vector<uint32_t> out;  // the output registers, as the plan's decode_* expects them
};

// Shared by the launchers: copies `inputs` to the device, allocates `out_words` words of output
// poisoned with 0xff bytes and a zeroed int flag, calls `launch(device inputs, out, flag)`,
// waits, and copies the output back. A nonzero flag means "not compiled for this GPU". In
// tclens_kernels (fragment_probe_run.cpp).
struct HostBytes {
    const void* data;
    size_t bytes;
};
using ProbeLaunch =
    std::function<void(const std::vector<const void*>& inputs, uint32_t* out, int* flag)>;
DeviceRun run_on_device(const std::vector<HostBytes>& inputs, size_t out_words,
                        const ProbeLaunch& launch);

}  // namespace tclens::kernels
