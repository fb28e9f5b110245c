#pragma once
// Form (3): a one-warp fragment exercise, lab 6's `mma_16x8x8_kernel(const float* a, const
// float* b, float* c)`: one Tensor Core instruction computing c += a * b on a, b, c stored
// row-major in global memory (A rows x depth, B depth x cols, C rows x cols, the instruction's
// shape), launched with one block of 32 threads. The student's index mapping decides which
// register each element goes through; this file finds, per element, where it went.
//
// Experiments (each one launch, values exact in tf32, f16 and bf16: all <= 256):
//   C: a = b = 0, c[i][j] = code_c(i, j) = 1 + i * cols + j. A correct kernel leaves c as it
//      was; an element whose code arrives at (r, s) "went to" (r, s).
//   A (one per element (m, k)): a one-hot at (m, k), b[k'][n] = code_b(k', n) = 1 + k' * cols
//      + n, c = 0. Correct: row m of c holds b's row k, every other element 0. A value
//      code_b(k', n) found at (r, n) means a[m][k] acted as A element (r, k'): it "went to"
//      (r, k').
//   B (one per element (k, n)): the mirror image: b one-hot at (k, n), a[m][k'] = code_a(m, k')
//      = 1 + m * depth + k', c = 0; code_a(m, k') found at (m, s) means b[k][n] went to (k', s).
//   Product: a[m][k] = (3m + 7k + 1) % 7 - 3, b[k][n] = (5k + 3n + 2) % 7 - 3 (exact products
//      and sums), c coded; c must become a*b + c exactly.
// An A or B element is right when it acted as itself in every column (row) of c; a C element
// when its code stayed in place. A is decoded assuming B is read right and B assuming A is;
// when one of them decodes to a clean permutation the other is decoded again through it, so a
// broken A mapping does not make every B element look wrong too (the B experiment's coded a
// passes through the student's A mapping). Where an element went is decoded when every nonzero
// value of c agrees on one place; otherwise the outcome says what was seen ("lost: c stayed
// zero", "spread over 3 places of c, first (0, 1) = 5", "not a number at (0, 1) of c").
//
// Pure planning and decoding (plan_exercise, decode_exercise) are tested on the CPU against an
// emulated kernel; run_fragment_exercise needs a GPU.

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/gemm.h"
#include "viz/fragment_layout.h"

namespace tclens::kernels::user {

// One element of an operand of the instruction, as its layout (viz::fragment_layout) holds it.
struct ExerciseElement {
    int row = 0;  // in the operand matrix (A: rows x depth, B: depth x cols, C: rows x cols)
    int col = 0;
    int lane = 0;  // the slot the instruction's layout gives it
    int reg = 0;
    int sub = 0;
    bool correct = true;
    int went_row = -1;  // where it went (see the top), -1 when not decoded or correct
    int went_col = -1;
    std::string outcome;  // "" when correct, else "went to (3, 1)", "lost: c stayed zero", ...
};

struct ExerciseOperand {
    viz::Operand operand = viz::Operand::A;
    int rows = 0;
    int cols = 0;
    std::vector<ExerciseElement> elements;  // row-major
    int wrong = 0;
};

struct ExerciseReport {
    std::string layout_id;                  // "mma.m16n8k8.tf32"
    std::string function;                   // the kernel's qualified name
    std::vector<ExerciseOperand> operands;  // A, B, C
    bool product_correct = false;           // the product experiment gave exactly a*b + c
    int wrong = 0;                          // wrong elements of A, B and C together
    // "ok: every element of A, B and C goes where mma.m16n8k8.tf32 puts it" or
    // "3 of 64 A elements, 0 of 64 B elements, 0 of 128 C elements wrong; first: A (0, 1) went
    // to (0, 2)".
    std::string summary() const;
};

// The element type an exercise layout reads (float for tf32), and whether it is one
// exercise_layout_ids() lists.
bool is_exercise_layout(const std::string& layout_id);

// One launch's inputs: a (rows x depth), b (depth x cols), c (rows x cols), row-major floats
// (the runner converts them to the element type, exactly).
struct ExerciseExperiment {
    viz::Operand operand = viz::Operand::C;  // what it measures; D for the product experiment
    int row = -1, col = -1;                  // the one-hot element (A and B experiments)
    std::vector<float> a, b, c;
};

struct ExercisePlan {
    std::string layout_id;
    int rows = 0, cols = 0, depth = 0;
    std::vector<ExerciseExperiment> experiments;  // C, then A row-major, then B, then product
};

// Precondition: is_exercise_layout(layout_id).
ExercisePlan plan_exercise(const std::string& layout_id);

// `outputs[e]` is c after experiment e (rows x cols floats, NaN where the kernel wrote NaN).
ExerciseReport decode_exercise(const ExercisePlan& plan,
                               const std::vector<std::vector<float>>& outputs);

}  // namespace tclens::kernels::user
