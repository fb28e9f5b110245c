#pragma once
// The kernels' shared-memory accesses as the bank lab sees them: each SharedAccess a registry
// kernel declares (kernels/gemm.h) is named "KERNEL/LABEL", e.g.
// "mma_ldmatrix_xor.f16/A.ldmatrix", and resolves to the viz pattern, tile and swizzle that
// `tclens banks --pattern KERNEL/LABEL` and the Banks panel model. No viz pattern name contains
// '/', so the two kinds of name never clash.

#include <string>
#include <vector>

#include "common/expected.h"
#include "kernels/gemm.h"
#include "viz/access_pattern.h"
#include "viz/swizzle.h"

namespace tclens::kernels {

// (kernel, access) -> the logical tile the access addresses, row-major, storage_bytes(precision)
// per element: A is block_tile.m rows of block_tile.k elements, B block_tile.k rows of
// block_tile.n. Padding is the swizzle's business, not the tile's.
// Example: mma_ldmatrix_xor.f16 (block 128 x 128 x 64, f16): A -> 128 x 128 bytes,
// B -> 64 x 256 bytes.
viz::Tile shared_access_tile(const KernelDescriptor& kernel, const SharedAccess& access);

// "KERNEL/LABEL", e.g. "mma_ldmatrix_xor.f16/A.ldmatrix".
std::string shared_access_name(const KernelDescriptor& kernel, const SharedAccess& access);

// One declared access, resolved.
struct KernelAccess {
    std::string name;                          // "KERNEL/LABEL"
    const KernelDescriptor* kernel = nullptr;  // in all_kernels()
    const SharedAccess* access = nullptr;      // in kernel->shared_accesses
    // The viz pattern it names, unchanged: its name stays the viz name ("ldmatrix.x4.trans"),
    // which the GPU probe (profiling/bank_measure.h) picks its instruction by.
    viz::Pattern pattern;
    viz::Tile tile;        // shared_access_tile
    viz::Swizzle swizzle;  // the kernel's own
};

// (kernel, access) -> KernelAccess, or one line saying which part viz rejects: the pattern
// name, the kernel's swizzle, the tile for the pattern (validate_tile) or the swizzle on that
// tile (validate_swizzle).
common::Expected<KernelAccess> resolve_kernel_access(const KernelDescriptor& kernel,
                                                     const SharedAccess& access);

// Every access the registry declares, resolved, in registry order then declaration order.
// Built once. A declaration that does not resolve is a bug in its kernel file (the unit tests
// resolve every one), so building the list aborts with that line rather than hide it.
const std::vector<KernelAccess>& kernel_accesses();

// Whether `name` means a kernel access ("KERNEL/LABEL") rather than a viz pattern.
bool is_kernel_access_name(const std::string& name);

// "KERNEL/LABEL" -> its entry of kernel_accesses(). On error one line naming the bad part and
// what is allowed: the kernel's labels for an unknown label, every kernel access name for an
// unknown kernel or a kernel that declares none.
common::Expected<KernelAccess> parse_kernel_access(const std::string& name);

}  // namespace tclens::kernels
