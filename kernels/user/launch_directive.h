#pragma once
// The launch directive of a bare __global__ kernel: one comment line that says how to launch
// it, since a kernel alone does not. Pure C++: parsing and evaluating never touch CUDA.
//
// Grammar (one line; keys in any order, separated by blanks; each key at most once):
//   directive := "//" blanks "tclens:" { blanks item }
//   item      := "grid=" dims | "block=" dims | "smem=" expr | "type=" TYPE
//              | "kernel=" NAME | "exercise=" LAYOUT_ID | "include=" PATH
//   dims      := expr | "(" expr [ "," expr [ "," expr ] ] ")"       (x, y, z; missing ones 1)
//   expr      := term { ("+" | "-") term }
//   term      := unary { ("*" | "/" | "%") unary }
//   unary     := [ "-" ] primary
//   primary   := INTEGER | "M" | "N" | "K" | "(" expr ")"
//              | ("cdiv" | "min" | "max") "(" expr "," expr ")"
//   TYPE      := "f32" | "tf32" | "f16" | "bf16"
//   NAME      := C++ identifier, optionally qualified ("ns::gemm")
//   PATH      := a folder, relative to the file's own folder (no blanks): added to nvcc's
//                include path (host launchers and exercises), e.g. include=.. for a launcher
//                that includes "kernels/..." from the folder above
// Blanks may appear inside a dims or expr only between parentheses: `grid=(cdiv(N, 128),
// cdiv(M, 128))` is fine, `grid=N / 128` is not (write `grid=(N / 128)`). INTEGER is decimal.
// Arithmetic is 64-bit signed; '/' and '%' truncate toward zero like C++; cdiv(a, b) =
// (a + b - 1) / b for b > 0. Division by zero, cdiv by b <= 0 and overflow are errors at
// evaluation (they depend on M, N, K), reported with the sizes.
//
// A GEMM kernel's directive needs grid= and block=; smem= defaults to 0 (dynamic shared
// memory in bytes), type= to what the kernel's parameters say (float: f32, or tf32 when the
// source mentions tf32 outside comments). A fragment exercise needs none of them (it runs with
// one warp); exercise= names its instruction (a viz fragment layout id) when the source does
// not make it plain. A host launcher may carry a directive with type= only.
// Example: // tclens: grid=(cdiv(N,128), cdiv(M,128)) block=256 smem=49152 type=bf16

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/expected.h"
#include "kernels/gemm.h"

namespace tclens::kernels::user {

// A parsed integer expression of M, N, K (the grammar above).
class SizeExpr {
  public:
    struct Node;
    SizeExpr() = default;
    explicit SizeExpr(std::shared_ptr<const Node> root, std::string text);
    // The value for `problem`, or one line: "cdiv(N,0): division by zero at M=64 N=64 K=64".
    common::Expected<std::int64_t> evaluate(const GemmProblem& problem) const;
    // The expression as written (blanks removed), e.g. "cdiv(N,128)".
    const std::string& text() const { return text_; }
    bool empty() const { return root_ == nullptr; }
    // The value when it does not depend on M, N or K (the same at two unrelated sizes; 0 when
    // empty), else nullopt: "256" -> 256, "cdiv(N,128)" -> nullopt.
    std::optional<std::int64_t> constant() const;

  private:
    std::shared_ptr<const Node> root_;
    std::string text_;
};

// "cdiv(N, 128)" -> the expression; one line naming the text and the position on error.
common::Expected<SizeExpr> parse_size_expr(const std::string& text);

struct LaunchDirective {
    int line = 0;                   // 1-based line of the directive in its file
    std::array<SizeExpr, 3> grid;   // x, y, z; empty when the directive has no grid=
    std::array<SizeExpr, 3> block;  // x, y, z; empty when the directive has no block=
    SizeExpr smem;                  // empty: 0 bytes
    std::optional<Precision> type;  // type=
    std::string kernel;             // kernel=, "" when not given
    std::string exercise;           // exercise=, "" when not given
    std::string include;            // include=, "" when not given
    bool has_launch() const { return !grid[0].empty(); }
};

// True when `line` is a directive line at all: optional blanks, "//", optional blanks, then
// "tclens:". Such a line must then parse.
bool is_directive_line(const std::string& line);

// Parses one directive line (as is_directive_line accepts). `line_number` goes into the result
// and the errors: "line 3: tclens directive: unknown key 'grd' (keys: grid, block, smem, type,
// kernel, exercise, include)", "line 3: tclens directive: grid= given twice", "line 3: tclens
// directive: block: expected an expression at 'x'". grid= without block= (or the reverse) is an
// error.
common::Expected<LaunchDirective> parse_launch_directive(const std::string& line, int line_number);

// Every directive line of a source, in order (errors of the first bad one).
common::Expected<std::vector<LaunchDirective>> find_launch_directives(const std::string& source);

// What a GPU allows a launch (cudaDeviceProp / the CUDA programming guide's limits).
struct LaunchLimits {
    std::int64_t max_grid[3] = {2147483647, 65535, 65535};
    int max_block[3] = {1024, 1024, 64};
    int max_threads_per_block = 1024;
    int max_dynamic_smem = 48 * 1024;  // the device's opt-in limit per block, bytes
};

struct LaunchGeometry {
    std::array<std::int64_t, 3> grid{};
    std::array<std::int64_t, 3> block{};
    std::int64_t smem = 0;
};

// Evaluates a directive for `problem` and checks the result against `limits`. Errors, one line
// naming the value and what is allowed: "grid.y = cdiv(M,128) = 70000 at M=8960000 ...: must be
// 1..65535", "block = (32,32,2): 2048 threads, at most 1024", "smem = 262144 bytes: this GPU
// allows at most 232448". Precondition: directive.has_launch().
common::Expected<LaunchGeometry> launch_geometry(const LaunchDirective& directive,
                                                 const GemmProblem& problem,
                                                 const LaunchLimits& limits);

// Threads per block when block= does not depend on M, N or K, else 0.
int constant_threads(const LaunchDirective& directive);

// "grid (32,16,1) x block (256,1,1), 49152 B dynamic shared memory" (no smem part when 0).
std::string launch_geometry_text(const LaunchGeometry& geometry);

}  // namespace tclens::kernels::user
