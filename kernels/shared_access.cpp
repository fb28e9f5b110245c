#include "kernels/shared_access.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/text.h"
#include "kernels/registry.h"

namespace tclens::kernels {
namespace {

constexpr char kSeparator = '/';

std::string tile_text(const viz::Tile& tile) {
    return std::to_string(tile.rows) + " x " + std::to_string(tile.row_bytes) + " bytes";
}

std::vector<KernelAccess> build_kernel_accesses() {
    std::vector<KernelAccess> accesses;
    for (const KernelDescriptor& kernel : all_kernels()) {
        for (const SharedAccess& access : kernel.shared_accesses) {
            common::Expected<KernelAccess> resolved = resolve_kernel_access(kernel, access);
            if (!resolved) {
                std::fprintf(stderr, "tclens: bad shared access in kernel %s: %s\n",
                             kernel.id.c_str(), resolved.error().c_str());
                std::abort();
            }
            accesses.push_back(*resolved);
        }
    }
    return accesses;
}

std::string all_names() {
    return common::join(
        kernel_accesses(), ", ",
        [](const KernelAccess& access) -> const std::string& { return access.name; });
}

}  // namespace

viz::Tile shared_access_tile(const KernelDescriptor& kernel, const SharedAccess& access) {
    const int bytes = storage_bytes(kernel.precision);
    const TileShape& block = kernel.block_tile;
    if (access.operand == 'A') return {block.m, block.k * bytes};
    return {block.k, block.n * bytes};
}

std::string shared_access_name(const KernelDescriptor& kernel, const SharedAccess& access) {
    return kernel.id + kSeparator + access.label;
}

common::Expected<KernelAccess> resolve_kernel_access(const KernelDescriptor& kernel,
                                                     const SharedAccess& access) {
    using Result = common::Expected<KernelAccess>;
    const std::string name = shared_access_name(kernel, access);
    if (access.operand != 'A' && access.operand != 'B') {
        return Result::failure(name + ": operand '" + std::string(1, access.operand) +
                               "' is neither 'A' nor 'B'");
    }
    const common::Expected<viz::Pattern> pattern = viz::parse_pattern(access.pattern);
    if (!pattern) return Result::failure(name + ": " + pattern.error());
    const common::Expected<viz::Swizzle> swizzle = viz::parse_swizzle(kernel.swizzle);
    if (!swizzle) return Result::failure(name + ": kernel swizzle: " + swizzle.error());
    const viz::Tile tile = shared_access_tile(kernel, access);
    std::string error = viz::validate_tile(*pattern, tile);
    if (error.empty()) {
        error = viz::validate_swizzle(*swizzle, tile, pattern->access_bytes, pattern->name);
    }
    if (!error.empty()) {
        return Result::failure(name + " (" + access.operand + " tile " + tile_text(tile) +
                               "): " + error);
    }
    KernelAccess resolved;
    resolved.name = name;
    resolved.kernel = &kernel;
    resolved.access = &access;
    resolved.pattern = *pattern;
    resolved.tile = tile;
    resolved.swizzle = *swizzle;
    return Result::success(resolved);
}

const std::vector<KernelAccess>& kernel_accesses() {
    static const std::vector<KernelAccess> accesses = build_kernel_accesses();
    return accesses;
}

bool is_kernel_access_name(const std::string& name) {
    return name.find(kSeparator) != std::string::npos;
}

common::Expected<KernelAccess> parse_kernel_access(const std::string& name) {
    using Result = common::Expected<KernelAccess>;
    const std::size_t separator = name.find(kSeparator);
    const std::string kernel_id = name.substr(0, separator);
    const std::string label =
        separator == std::string::npos ? std::string() : name.substr(separator + 1);
    const KernelDescriptor* kernel = find_kernel(kernel_id);
    if (!kernel) {
        return Result::failure("unknown kernel \"" + kernel_id + "\" in \"" + name +
                               "\"; kernel accesses: " + all_names());
    }
    std::vector<std::string> names;  // the kernel's accesses
    for (const KernelAccess& access : kernel_accesses()) {
        if (access.kernel != kernel) continue;
        if (access.access->label == label) return Result::success(access);
        names.push_back(access.name);
    }
    const std::string labels = common::join(names, ", ");
    if (labels.empty()) {
        return Result::failure("kernel " + kernel_id +
                               " declares no shared-memory access the bank lab models; kernel "
                               "accesses: " +
                               all_names());
    }
    return Result::failure("unknown access \"" + label + "\" of kernel " + kernel_id +
                           "; its accesses: " + labels);
}

}  // namespace tclens::kernels
