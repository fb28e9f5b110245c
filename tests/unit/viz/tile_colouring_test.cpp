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

TEST(TileColouring, AWaveIsOneBlockPerSmInLaunchOrderOrAPersistentRound) {
    TileMapSpec spec;
    BlockTile tile;
    tile.order = 300;
    tile.round = 1;
    EXPECT_EQ(tile_wave(spec, tile, 132), 2);  // the header's example
    EXPECT_EQ(tile_wave(spec, tile, 1000), 0);
    spec.raster = RasterOrder::kPersistent;
    EXPECT_EQ(tile_wave(spec, tile, 132), 1);  // its round, whatever the order
}

}  // namespace
}  // namespace tclens::viz
