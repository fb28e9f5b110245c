#pragma once
// What the colour of a block tile in the tile map's grid view (viz/tile_map_view.h) means, and
// its key: the wave it runs in, its place in the launch order, or the block (CTA) computing it.
// Pure functions, tested on the CPU.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "viz/draw_list.h"
#include "viz/palette.h"
#include "viz/tile_map.h"

namespace tclens::viz {

enum class TileColouring {
    kWave,   // the wave the tile runs in: tiles resident on the GPU at one time share a colour
    kOrder,  // launch (kPersistent: schedule) order, a ramp from the first tile to the last
    kBlock,  // the block (kPersistent: the CTA, so the SM) that computes it
};

// "wave", "order", "block".
const char* tile_colouring_name(TileColouring colouring);
// The inverse of tile_colouring_name; nullopt for anything else.
std::optional<TileColouring> parse_tile_colouring(const std::string& text);

// The wave a block tile runs in, 0-based. kPersistent: its round (every CTA stays resident, its
// r-th tile is computed in the r-th wave); else order / (sms x spec.ctas_per_sm), each of the
// `sms` SMs holding that many blocks at a time (the descriptor's count: most tensor-core rungs'
// shared memory allows one; a smaller block may share an SM uncounted, and then the waves are
// fewer than drawn). Example: order 300, 132 SMs, 1 per SM -> 2; 2 per SM -> 1.
int tile_wave(const TileMapSpec& spec, const BlockTile& tile, int sms);

// The fill of `tile` among `count` tiles (block_tiles(spec).size()): kWave category_colour of
// its wave, kOrder a ramp from categories[0] (first) to categories[1] (last), kBlock
// category_colour of its block.
Rgba tile_fill(const TileMapSpec& spec, const BlockTile& tile, int count, TileColouring colouring,
               int sms, const Palette& palette);

// The key drawn beside the grid: a caption line saying what colour and number mean (e.g.
// "colour = wave (132 tiles at a time: one block per SM on 132 SMs), number = launch order";
// "264 tiles at a time: 2 blocks per SM ..." where spec.ctas_per_sm is 2),
// and swatches with labels ("wave 1: tiles 0-131" ...; kOrder "tile 0", ..., the last; kBlock
// "block 0" ...), at most 12, then "(colours repeat)" where they do.
struct TileColourKey {
    std::string caption;
    std::vector<std::pair<Rgba, std::string>> entries;
};
TileColourKey tile_colour_key(const TileMapSpec& spec, const std::vector<BlockTile>& tiles,
                              TileColouring colouring, int sms, const Palette& palette);

}  // namespace tclens::viz
