// `tclens tilemap --kernel K [--mnk MxNxK] [--view V] [--block B] [--step S] [--sms N]
// [--colour wave|order|block] [--svg F] [--png F]`: a rung's tile map (viz/tile_map.h) on the
// command line: the spec in a few lines and C's block tiles in launch order as a text grid; --svg /
// --png export the view the GUI's Tile map panel draws.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>

#include "app/cli/commands.h"
#include "app/cli/drawing_export.h"
#include "app/cli/usage_error.h"
#include "app/exit_codes.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "kernels/tile_map_spec.h"
#include "viz/tile_map_view.h"

namespace tclens::cli {
namespace {

// The text grid shows at most this many tile rows and columns.
constexpr int kMaxTextTiles = 32;

struct TilemapOptions {
    std::string kernel;
    std::string size = "4096x4096x4096";
    std::string view = "grid";
    int block = 0;
    int step = 0;
    int sms = kernels::kDefaultPersistentSms;
    std::string colour = "wave";
    std::string svg_path;
    std::string png_path;
};

// C's tiles as rows of launch-order numbers ("." for a tile row past M), clipped to
// kMaxTextTiles each way.
void print_order_grid(const viz::TileMapSpec& spec) {
    const std::vector<viz::BlockTile> tiles = viz::block_tiles(spec);
    int rows = 0;
    int cols = 0;
    for (const viz::BlockTile& tile : tiles) {
        rows = std::max(rows, tile.tile_row + 1);
        cols = std::max(cols, tile.tile_col + 1);
    }
    const int shown_rows = std::min(rows, kMaxTextTiles);
    const int shown_cols = std::min(cols, kMaxTextTiles);
    std::vector<int> order(size_t(shown_rows) * size_t(shown_cols), -1);
    for (const viz::BlockTile& tile : tiles) {
        if (tile.tile_row < shown_rows && tile.tile_col < shown_cols) {
            order[size_t(tile.tile_row) * size_t(shown_cols) + size_t(tile.tile_col)] =
                tile.inside ? tile.order : -1;
        }
    }
    const int width = int(std::to_string(tiles.size()).size()) + 1;
    std::printf("\nlaunch order by tile (row down, column right)%s:\n",
                rows > shown_rows || cols > shown_cols ? ", first 32 x 32 tiles" : "");
    for (int r = 0; r < shown_rows; ++r) {
        std::string line;
        for (int c = 0; c < shown_cols; ++c) {
            const int value = order[size_t(r) * size_t(shown_cols) + size_t(c)];
            const std::string cell = value < 0 ? "." : std::to_string(value);
            line += std::string(size_t(width) - cell.size(), ' ') + cell;
        }
        std::printf("%s\n", line.c_str());
    }
}

int run_tilemap(const TilemapOptions& options) {
    const kernels::KernelDescriptor* kernel = kernels::find_kernel(options.kernel);
    if (options.kernel.empty() || !kernel || kernel->rung < 1) {
        return usage_error((options.kernel.empty() ? std::string("tilemap needs --kernel")
                                                   : "unknown rung '" + options.kernel + "'") +
                           "; allowed: " + kernels::tile_map_kernel_ids_text());
    }
    const auto problem = kernels::parse_problem(options.size);
    if (!problem) return usage_error("--mnk: " + kernels::problem_error(options.size));
    const auto kind = viz::parse_tile_map_view(options.view);
    if (!kind) {
        return usage_error("--view '" + options.view + "': allowed: grid, block, load, kloop");
    }
    if (options.sms < 1 || options.sms > 1024) {
        return usage_error("--sms " + std::to_string(options.sms) + ": allowed: 1..1024");
    }
    const auto spec = kernels::tile_map_spec(*kernel, *problem, options.sms);
    if (!spec) return usage_error(spec.error());
    const int blocks = int(viz::block_tile_count(*spec));
    if (options.block < 0 || options.block >= blocks) {
        return usage_error("--block " + std::to_string(options.block) + ": allowed: 0.." +
                           std::to_string(blocks - 1) + " for " + kernel->id + " at " +
                           kernels::problem_text(*problem));
    }
    const int steps = viz::k_tiles(*spec);
    if (options.step < 0 || options.step >= steps) {
        return usage_error("--step " + std::to_string(options.step) + ": allowed: 0.." +
                           std::to_string(steps - 1) + " for K = " + std::to_string(problem->k));
    }

    if (options.svg_path.empty() && options.png_path.empty()) {
        for (const std::string& line : viz::tile_map_summary(*spec)) {
            std::printf("%s\n", line.c_str());
        }
        if (const std::string refused = kernel->can_run(*problem); !refused.empty()) {
            std::printf("note: the kernel itself refuses this size: %s\n", refused.c_str());
        }
        print_order_grid(*spec);
        return kExitOk;
    }
    const auto colouring = viz::parse_tile_colouring(options.colour);
    if (!colouring) {
        return usage_error("--colour '" + options.colour + "': allowed: wave, order, block");
    }
    viz::TileMapViewOptions view_options;
    view_options.kind = *kind;
    view_options.colouring = *colouring;
    view_options.sms = options.sms;
    view_options.block = options.block;
    view_options.step = options.step;
    const viz::TileMapView view = viz::tile_map_view(*spec, view_options);
    return export_drawing(view.draw, options.svg_path, options.png_path);
}

}  // namespace

void add_tilemap_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "tilemap", "How a rung cuts the GEMM into block, warp and MMA tiles, loads and stages");
    auto options = std::make_shared<TilemapOptions>();
    command->add_option("--kernel", options->kernel, "Rung id (see tclens kernels)");
    command->add_option("--mnk", options->size, "Problem size MxNxK")->capture_default_str();
    command->add_option("--view", options->view, "View to export: grid, block, load, kloop")
        ->capture_default_str();
    command
        ->add_option("--block", options->block,
                     "Block tile (launch order) for block, load "
                     "and kloop")
        ->capture_default_str();
    command->add_option("--step", options->step, "K step for load and kloop")
        ->capture_default_str();
    command
        ->add_option("--sms", options->sms,
                     "SMs: rung 11's persistent grid is sized for them, and a wave of the grid "
                     "view fills them")
        ->capture_default_str();
    command
        ->add_option("--colour", options->colour,
                     "What a block tile's colour says in the grid view: wave, order (launch "
                     "order), block")
        ->capture_default_str();
    command->add_option("--svg", options->svg_path, "Write the view to an SVG file");
    command->add_option("--png", options->png_path, "Write the view to a PNG file");
    command->callback([options, &exit_code] { exit_code = run_tilemap(*options); });
}

}  // namespace tclens::cli
