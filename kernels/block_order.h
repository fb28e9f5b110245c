#pragma once
// Which C tile each thread block of a ladder kernel computes. The block orders are
// TCLENS_HOST_DEVICE functions (kernels/host_device.h): the kernels call them on the GPU, and
// each descriptor's block_tile_of (kernels/gemm.h) calls the same one on the host, so that a
// test can hold every rung's launch to the order its tile map draws
// (tests/unit/kernels/block_order_test.cpp). Each order is one viz::RasterOrder
// (viz/tile_map.h), which the descriptor's schedule names.
//
// Block ids are linear: blockIdx.x of a 1-D grid; a 2-D grid of tiles_n x tiles_m blocks
// (blockIdx.x along N, blockIdx.y along M) is kRowMajor with id blockIdx.y * gridDim.x +
// blockIdx.x.

#include "kernels/gemm.h"
#include "kernels/host_device.h"

namespace tclens::kernels {

// The first row and column of C of one block's tile.
struct BlockOrigin {
    int row = 0;
    int col = 0;
};

// Block `id` -> its tile's origin: Config::block_tile's (tile row, tile col) of the tiles_m x
// tiles_n grid, times Config's kBlockM x kBlockN block tile.
template <typename Config>
TCLENS_HOST_DEVICE_INLINE BlockOrigin block_origin(int id, int tiles_m, int tiles_n) {
    int tile_m = 0;
    int tile_n = 0;
    Config::block_tile(id, tiles_m, tiles_n, tile_m, tile_n);
    return {tile_m * Config::kBlockM, tile_n * Config::kBlockN};
}

// viz::RasterOrder::kRowMajor: (id) -> (tile_m, tile_n) = (id / tiles_n, id % tiles_n).
// Example: 4 tile columns, id 9 -> row 2, column 1.
TCLENS_HOST_DEVICE_INLINE void rasterise_row_major(int id, int tiles_n, int& tile_m, int& tile_n) {
    tile_m = id / tiles_n;
    tile_n = id % tiles_n;
}

// viz::RasterOrder::kColumnBands, bands of `group` tile rows: (id) -> (tile_m, tile_n). Ids run
// down a band's column, then along the band, so blocks running together share A and B panels in
// L2; the last band may be narrower. Example: 32 x 16 tiles, group 16: id 37 -> band 0, row
// 37 % 16 = 5, column 37 / 16 = 2.
TCLENS_HOST_DEVICE_INLINE void rasterise_column_bands(int id, int tiles_m, int tiles_n, int group,
                                                      int& tile_m, int& tile_n) {
    const int band_tiles = group * tiles_n;
    const int band = id / band_tiles;
    const int first_row = band * group;
    const int rows = tiles_m - first_row < group ? tiles_m - first_row : group;
    const int in_band = id - band * band_tiles;
    tile_m = first_row + in_band % rows;
    tile_n = in_band / rows;
}

// block_tile_of for a kernel with one tile per block in kRowMajor order (a 2-D grid, or a 1-D
// grid that calls rasterise_row_major).
inline TileIndex row_major_block_tile(int block, int round, int /*blocks*/, int /*tiles_m*/,
                                      int tiles_n) {
    TileIndex tile;
    if (round == 0) rasterise_row_major(block, tiles_n, tile.row, tile.col);
    return tile;
}

// block_tile_of for a kernel with one tile per block whose kernel asks its Config:
// Config::block_tile(id, tiles_m, tiles_n, tile_m, tile_n), a __host__ __device__ function.
template <class Config>
TileIndex config_block_tile(int block, int round, int /*blocks*/, int tiles_m, int tiles_n) {
    TileIndex tile;
    if (round == 0) Config::block_tile(block, tiles_m, tiles_n, tile.row, tile.col);
    return tile;
}

}  // namespace tclens::kernels
