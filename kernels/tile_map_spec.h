#pragma once
// The tile map (viz/tile_map.h) of a ladder rung: its descriptor's tiles, stages and threads and
// its schedule (block order, warp arrangement, MMA issue order, which thread copies what, how the
// stages are kept busy), which the kernel file fills from the constants its kernel uses. The
// same for every rung: nothing here knows one rung from another.

#include <string>

#include "common/expected.h"
#include "kernels/gemm.h"
#include "viz/tile_map.h"

namespace tclens::kernels {

// SMs of an H100 SXM: how many persistent CTAs rung 11 launches when no GPU says otherwise.
constexpr int kDefaultPersistentSms = 132;

// (rung descriptor, problem) -> its tile map spec, validated: of the tile that runs `problem`
// where the rung picks one per problem (KernelDescriptor::for_problem, rung 11). `sms` sizes a
// persistent grid (viz::RasterOrder::kPersistent, rung 11): one CTA per SM, so sms / cluster_m
// clusters (the kernel asks the driver, cudaOccupancyMaxActiveClusters, which gives the same on an
// H100 SXM). One line of error for the cuBLAS references (cuBLAS picks its own tiles), a descriptor
// without a schedule (block_tile_of null), or a problem the spec rejects
// (viz::validate_tile_map_spec).
common::Expected<viz::TileMapSpec> tile_map_spec(const KernelDescriptor& kernel,
                                                 const GemmProblem& problem,
                                                 int sms = kDefaultPersistentSms);

// The ids of every rung with a tile map, ladder order, comma-separated.
std::string tile_map_kernel_ids_text();

}  // namespace tclens::kernels
