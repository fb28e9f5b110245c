#include "kernels/tile_map_spec.h"

#include <algorithm>
#include <string>
#include <vector>

#include "common/text.h"
#include "kernels/registry.h"

namespace tclens::kernels {
namespace {

using viz::TileMapSpec;

// "" when `kernel` has a tile map, else why not.
std::string why_no_tile_map(const KernelDescriptor& kernel) {
    if (kernel.rung == 0) return kernel.id + " is a cuBLAS reference: cuBLAS picks its own tiles";
    if (kernel.block_tile_of == nullptr) {
        return kernel.id + " has no tile map: its descriptor gives no schedule";
    }
    return "";
}

}  // namespace

common::Expected<TileMapSpec> tile_map_spec(const KernelDescriptor& descriptor,
                                            const GemmProblem& problem, int sms) {
    if (std::string error = why_no_tile_map(descriptor); !error.empty()) {
        return common::Expected<TileMapSpec>::failure(error);
    }
    // The tile that runs this problem where the rung picks one per problem.
    const KernelDescriptor kernel =
        descriptor.for_problem ? descriptor.for_problem(problem, sms) : descriptor;
    TileMapSpec spec;
    static_cast<viz::TileSchedule&>(spec) = kernel.schedule;
    spec.kernel = kernel.id;
    spec.m = problem.m;
    spec.n = problem.n;
    spec.k = problem.k;
    spec.block_m = kernel.block_tile.m;
    spec.block_n = kernel.block_tile.n;
    spec.block_k = kernel.block_tile.k;
    spec.elem_bytes = storage_bytes(kernel.precision);
    spec.threads = kernel.threads;
    spec.warp_m = kernel.warp_tile.m;
    spec.warp_n = kernel.warp_tile.n;
    spec.mma_m = kernel.mma_tile.m;
    spec.mma_n = kernel.mma_tile.n;
    spec.mma_k = kernel.mma_tile.k;
    spec.thread_m = kernel.thread_tile.m;
    spec.thread_n = kernel.thread_tile.n;
    spec.stages = kernel.stages;
    spec.ctas_per_sm = std::max(1, kernel.ctas_per_sm);
    if (spec.raster == viz::RasterOrder::kPersistent && spec.cluster_m > 0) {
        spec.clusters = sms / spec.cluster_m > 0 ? sms / spec.cluster_m : 1;
    }
    if (std::string error = viz::validate_tile_map_spec(spec); !error.empty()) {
        return common::Expected<TileMapSpec>::failure(error);
    }
    return common::Expected<TileMapSpec>::success(spec);
}

std::string tile_map_kernel_ids_text() {
    std::vector<std::string> ids;
    for (const KernelDescriptor& kernel : all_kernels()) {
        if (why_no_tile_map(kernel).empty()) ids.push_back(kernel.id);
    }
    return common::join(ids, ", ");
}

}  // namespace tclens::kernels
