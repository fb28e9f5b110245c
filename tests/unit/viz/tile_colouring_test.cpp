// Tests for viz/tile_colouring.*: the names of the colourings and the wave of a block tile.
#include "viz/tile_colouring.h"

#include <gtest/gtest.h>

namespace tclens::viz {
namespace {

TEST(TileColouring, NamesRoundTrip) {
    for (const TileColouring c :
         {TileColouring::kWave, TileColouring::kOrder, TileColouring::kBlock}) {
        EXPECT_EQ(parse_tile_colouring(tile_colouring_name(c)), c);
    }
    EXPECT_FALSE(parse_tile_colouring("sm").has_value());
}

TEST(TileColouring, AWaveIsTheSmsBlocksInLaunchOrderOrAPersistentRound) {
    TileMapSpec spec;
    BlockTile tile;
    tile.order = 300;
    tile.round = 1;
    EXPECT_EQ(tile_wave(spec, tile, 132), 2);  // the header's example
    EXPECT_EQ(tile_wave(spec, tile, 1000), 0);
    spec.ctas_per_sm = 2;  // a wave of 264 blocks
    EXPECT_EQ(tile_wave(spec, tile, 132), 1);
    EXPECT_EQ(tile_colour_key(spec, {tile}, TileColouring::kWave, 132, dark_palette()).caption,
              "colour = wave (264 tiles at a time: 2 blocks per SM on 132 SMs), number = launch "
              "order");
    spec.raster = RasterOrder::kPersistent;
    EXPECT_EQ(tile_wave(spec, tile, 132), 1);  // its round, whatever the order
}

}  // namespace
}  // namespace tclens::viz
