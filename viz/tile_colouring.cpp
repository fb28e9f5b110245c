#include "viz/tile_colouring.h"

#include <algorithm>

namespace tclens::viz {
namespace {

constexpr int kMostEntries = 12;  // swatches in a key; the colours repeat after that anyway

int wave_count(const TileMapSpec& spec, const std::vector<BlockTile>& tiles, int sms) {
    int waves = 0;
    for (const BlockTile& tile : tiles) waves = std::max(waves, tile_wave(spec, tile, sms) + 1);
    return waves;
}

// "wave 2: tiles 132-263", or "wave 2: 132 tiles" when its tiles are not one run of orders.
std::string wave_label(const TileMapSpec& spec, const std::vector<BlockTile>& tiles, int sms,
                       int wave) {
    int first = -1, last = -1, count = 0;
    for (const BlockTile& tile : tiles) {
        if (tile_wave(spec, tile, sms) != wave) continue;
        first = first < 0 ? tile.order : std::min(first, tile.order);
        last = std::max(last, tile.order);
        ++count;
    }
    const std::string name = "wave " + std::to_string(wave + 1) + ": ";
    if (count == last - first + 1) {
        return name + "tiles " + std::to_string(first) + "-" + std::to_string(last);
    }
    return name + std::to_string(count) + " tiles";
}

std::string wave_caption(const TileMapSpec& spec, int sms) {
    if (spec.raster == RasterOrder::kPersistent) {
        return "colour = wave (each CTA's first tile, its second ...: every CTA stays resident), "
               "number = schedule order";
    }
    const int per_sm = std::max(spec.ctas_per_sm, 1);
    const std::string blocks = per_sm == 1 ? "one block" : std::to_string(per_sm) + " blocks";
    return "colour = wave (" + std::to_string(sms * per_sm) + " tiles at a time: " + blocks +
           " per SM on " + std::to_string(sms) + " SMs), number = launch order";
}

}  // namespace

const char* tile_colouring_name(TileColouring colouring) {
    switch (colouring) {
        case TileColouring::kWave:
            return "wave";
        case TileColouring::kOrder:
            return "order";
        case TileColouring::kBlock:
            return "block";
    }
    return "wave";
}

std::optional<TileColouring> parse_tile_colouring(const std::string& text) {
    for (const TileColouring c :
         {TileColouring::kWave, TileColouring::kOrder, TileColouring::kBlock}) {
        if (text == tile_colouring_name(c)) return c;
    }
    return std::nullopt;
}

int tile_wave(const TileMapSpec& spec, const BlockTile& tile, int sms) {
    if (spec.raster == RasterOrder::kPersistent) return tile.round;
    return tile.order / std::max(sms * std::max(spec.ctas_per_sm, 1), 1);
}

Rgba tile_fill(const TileMapSpec& spec, const BlockTile& tile, int count, TileColouring colouring,
               int sms, const Palette& palette) {
    switch (colouring) {
        case TileColouring::kWave:
            return category_colour(palette, tile_wave(spec, tile, sms));
        case TileColouring::kOrder:
            return mix(category_colour(palette, 0), category_colour(palette, 1),
                       count > 1 ? float(tile.order) / float(count - 1) : 0.0f);
        case TileColouring::kBlock:
            return category_colour(palette, tile.block);
    }
    return category_colour(palette, 0);
}

TileColourKey tile_colour_key(const TileMapSpec& spec, const std::vector<BlockTile>& tiles,
                              TileColouring colouring, int sms, const Palette& palette) {
    TileColourKey key;
    const int count = int(tiles.size());
    const bool persistent = spec.raster == RasterOrder::kPersistent;
    const std::string order = persistent ? "schedule order" : "launch order";
    if (colouring == TileColouring::kOrder) {
        key.caption = "colour = " + order + ", first to last; number = " + order;
        for (int i = 0; i < 5 && count > 0; ++i) {
            const BlockTile& tile = tiles[size_t((count - 1) * i / 4)];
            key.entries.emplace_back(tile_fill(spec, tile, count, colouring, sms, palette),
                                     "tile " + std::to_string(tile.order));
        }
        return key;
    }
    int kinds = 0;
    if (colouring == TileColouring::kWave) {
        key.caption = wave_caption(spec, sms);
        kinds = wave_count(spec, tiles, sms);
    } else {
        key.caption =
            std::string("colour = ") + (persistent ? "CTA" : "block") + ", number = " + order;
        for (const BlockTile& tile : tiles) kinds = std::max(kinds, tile.block + 1);
    }
    const int shown = std::min({kinds, kMostEntries, int(palette.categories.size())});
    for (int i = 0; i < shown; ++i) {
        key.entries.emplace_back(category_colour(palette, i),
                                 colouring == TileColouring::kWave
                                     ? wave_label(spec, tiles, sms, i)
                                     : (persistent ? "CTA " : "block ") + std::to_string(i));
    }
    if (shown < kinds) key.entries.emplace_back(kTransparent, "(colours repeat)");
    return key;
}

}  // namespace tclens::viz
