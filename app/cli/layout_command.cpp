// `tclens layout --list [--json] | ID [--operand X] [--json] [--svg F] [--png F] [--verify]`:
// the fragment atlas on the command line (docs/json-formats.md, "Layout JSON").
// `--list` prints one ID per line (for scripts); `--list --json` the catalogue:
//   {"groups": [{"title": "mma.sync, sm_80", "layouts": [{"id", "ptx", "threads", "elements",
//     "verified", "probe", "note" (models only: kModelOnlyNote), "source" (models only)}]}]}
// in viz::layout_groups's order, where "elements" counts the model's register (or TMEM) slots
// plus its shared-memory tile elements, "verified" is false for the models no GPU at hand can
// run (tcgen05), and "probe" says whether `--verify` has a GPU probe for the ID.
// `--verify` runs the probe in a worker (app/worker/, a `layout_verify` request; --worker,
// --remote, --time-limit); everything else is the model, computed here without a GPU.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/drawing_export.h"
#include "app/cli/worker_calls.h"
#include "app/exit_codes.h"
#include "app/worker/gpu_calls.h"
#include "common/text.h"
#include "kernels/probes/fragment_probe.h"
#include "viz/fragment_layout.h"
#include "viz/fragment_view.h"
#include "viz/layout_catalogue.h"
#include "viz/layout_description.h"
#include "viz/layout_json.h"

namespace tclens::cli {
namespace {

struct LayoutOptions {
    bool list = false;
    std::string id;
    std::string operand;
    bool json = false;
    std::string svg_path;
    std::string png_path;
    bool verify = false;
    WorkerOptions worker;
};

std::string operand_letters(const viz::FragmentLayout& layout) {
    return common::join(layout.operands, ", ",
                        [](const auto& op) { return viz::operand_letter(op.operand); });
}

// Keeps only `operand` in `layout` (for a shared-memory view: only that tile); "" on success,
// else the one-line error.
std::string select_operand(viz::FragmentLayout& layout, const std::string& operand) {
    if (operand.empty()) return "";
    const auto op = viz::parse_operand(operand);
    if (!layout.shared_memory.empty()) {
        std::vector<viz::SharedMemoryTile> kept;
        for (const viz::SharedMemoryTile& tile : layout.shared_memory) {
            if (op && tile.operand == *op) kept.push_back(tile);
        }
        if (kept.empty()) {
            return "--operand '" + operand + "': " + layout.id + " has shared-memory operands A, B";
        }
        layout.shared_memory = kept;
        return "";
    }
    const viz::OperandLayout* found = op ? layout.find(*op) : nullptr;
    if (!found) {
        return "--operand '" + operand + "': " + layout.id + " has register operands " +
               operand_letters(layout);
    }
    layout.operands = {*found};
    return "";
}

// Prints rows x cols cells, one text row per matrix row, columns padded to the widest cell.
void print_cells(const std::vector<std::string>& cells, int rows, int cols) {
    size_t width = 0;
    for (const std::string& cell : cells) width = std::max(width, cell.size());
    for (int row = 0; row < rows; ++row) {
        std::string line;
        for (int col = 0; col < cols; ++col) {
            const std::string& cell = cells[size_t(row) * cols + col];
            line += cell + std::string(width + 1 - cell.size(), ' ');
        }
        line.erase(line.find_last_not_of(' ') + 1);
        std::printf("  %s\n", line.c_str());
    }
}

// Each operand as a grid of "T<lane>.<reg>[<sub>]" cells (TMEM slots: "L<lane>.c<column>"),
// one matrix row per text row, after its plain-language description; shared-memory views as
// grids of byte offsets ("+<byte>", "+<byte>.<bit>" for b1).
void print_grid(const viz::FragmentLayout& layout) {
    std::printf("%s  (%s, %d threads)\n", layout.id.c_str(), layout.ptx.c_str(), layout.threads);
    if (!layout.verifiable) {
        std::printf("%s (%s)\n", viz::kModelOnlyNote, layout.source.c_str());
    }
    for (const viz::OperandLayout& op : layout.operands) {
        std::printf("\n%c: %d x %d, %d-bit elements, %d %s\n", viz::operand_letter(op.operand),
                    op.rows, op.cols, op.elem_bits, op.regs_per_thread,
                    layout.tmem_slots ? "TMEM columns" : "registers per thread");
        std::printf("%s\n", viz::describe_operand(layout, op).c_str());
        std::vector<std::string> cells(size_t(op.rows) * op.cols);
        for (const viz::LayoutElement& e : op.elements) {
            std::string cell =
                layout.tmem_slots
                    ? "L" + std::to_string(e.lane) + ".c" + std::to_string(e.reg)
                    : "T" + std::to_string(e.lane) + "." + viz::register_name(op.operand, e.reg);
            if (viz::elements_per_register(op.elem_bits) > 1) {
                cell += "[" + std::to_string(e.sub) + "]";
            }
            cells[size_t(e.row) * op.cols + e.col] = std::move(cell);
        }
        print_cells(cells, op.rows, op.cols);
    }
    for (const viz::SharedMemoryTile& tile : layout.shared_memory) {
        std::printf(
            "\n%c in shared memory: %d x %d, %d-bit elements, %s-major, %s, LBO %d, "
            "SBO %d, descriptor 0x%016llx\n",
            viz::operand_letter(tile.operand), tile.rows, tile.cols, tile.elem_bits,
            tile.k_major ? "K" : "MN",
            tile.swizzle_bytes == 0
                ? "no swizzle"
                : (std::to_string(tile.swizzle_bytes) + "-byte swizzle").c_str(),
            tile.leading_bytes, tile.stride_bytes,
            static_cast<unsigned long long>(tile.descriptor));
        std::vector<std::string> cells(size_t(tile.rows) * tile.cols);
        for (const viz::SharedMemoryElement& e : tile.elements) {
            std::string cell = "+" + std::to_string(e.byte);
            if (tile.elem_bits < 8) cell += "." + std::to_string(e.bit);
            cells[size_t(e.row) * tile.cols + e.col] = std::move(cell);
        }
        print_cells(cells, tile.rows, tile.cols);
    }
}

int export_view(const viz::FragmentLayout& layout, const LayoutOptions& options) {
    if (options.svg_path.empty() && options.png_path.empty()) return kExitOk;
    const viz::FragmentView view = viz::fragment_view(layout, viz::FragmentViewOptions{});
    return export_drawing(view.draw, options.svg_path, options.png_path);
}

// Runs `model`'s probe in a worker (a `layout_verify` request) and prints each mismatch and the
// count; kExitOk when every element matches, else the one line's exit code or kExitFailure.
int verify_on_gpu(const viz::FragmentLayout& model, const WorkerOptions& options) {
    if (!model.verifiable) {
        std::fprintf(stderr, "tclens: cannot verify %s: %s (%s)\n", model.id.c_str(),
                     viz::kModelOnlyNote, model.source.c_str());
        return kExitNeedsResource;
    }
    if (!kernels::has_layout_probe(model.id)) {
        std::fprintf(stderr, "tclens: %s has no GPU probe\n", model.id.c_str());
        return kExitFailure;
    }
    worker::WorkerClient client(client_options(options));
    if (const int code = check_remote_gpu(client, options); code != kExitOk) return code;
    const ProgressLines progress("layout");
    worker::LayoutVerifyResult result;
    const worker::Reply reply =
        worker::verify_layout(client, model.id, result, terminal_only(progress));
    progress.done();
    if (!reply.ok()) return report_failure(reply);
    const kernels::LayoutComparison& comparison = result.comparison;
    for (const std::string& mismatch : comparison.mismatches) {
        std::printf("mismatch: %s\n", mismatch.c_str());
    }
    std::printf("%s on %s: %d/%d elements match\n", model.id.c_str(), result.device.c_str(),
                comparison.matched, comparison.total);
    return comparison.matched == comparison.total ? kExitOk : kExitFailure;
}

int element_count(const viz::FragmentLayout& layout) {
    size_t count = 0;
    for (const viz::OperandLayout& op : layout.operands) count += op.elements.size();
    for (const viz::SharedMemoryTile& tile : layout.shared_memory) count += tile.elements.size();
    return static_cast<int>(count);
}

nlohmann::json catalogue_json() {
    nlohmann::json groups = nlohmann::json::array();
    for (const viz::LayoutGroup& group : viz::layout_groups(viz::fragment_layout_ids(), "")) {
        nlohmann::json layouts = nlohmann::json::array();
        for (const std::string& id : group.ids) {
            const viz::FragmentLayout layout = *viz::fragment_layout(id);
            nlohmann::json entry = {{"id", id},
                                    {"ptx", layout.ptx},
                                    {"threads", layout.threads},
                                    {"elements", element_count(layout)},
                                    {"verified", layout.verifiable},
                                    {"probe", kernels::has_layout_probe(id)}};
            if (!layout.verifiable) {
                entry["note"] = viz::kModelOnlyNote;
                entry["source"] = layout.source;
            }
            layouts.push_back(std::move(entry));
        }
        groups.push_back({{"title", group.title}, {"layouts", std::move(layouts)}});
    }
    return {{"groups", std::move(groups)}};
}

int run_layout(const LayoutOptions& options) {
    if (options.list) {
        if (options.json) {
            std::printf("%s\n", catalogue_json().dump(1).c_str());
            return kExitOk;
        }
        for (const std::string& id : viz::fragment_layout_ids()) std::printf("%s\n", id.c_str());
        return kExitOk;
    }
    if (options.id.empty()) {
        std::fprintf(stderr, "tclens: layout needs an ID or --list; valid IDs: %s\n",
                     viz::fragment_layout_ids_text().c_str());
        return kExitUsage;
    }
    auto layout = viz::fragment_layout(options.id);
    if (!layout) {
        std::fprintf(stderr, "tclens: unknown layout '%s'; valid IDs: %s\n", options.id.c_str(),
                     viz::fragment_layout_ids_text().c_str());
        return kExitUsage;
    }
    const viz::FragmentLayout full = *layout;
    if (const std::string error = select_operand(*layout, options.operand); !error.empty()) {
        std::fprintf(stderr, "tclens: %s\n", error.c_str());
        return kExitUsage;
    }
    if (options.json) {
        std::printf("%s\n", viz::layout_to_json(*layout).dump(1).c_str());
    } else if (!options.verify && options.svg_path.empty() && options.png_path.empty()) {
        print_grid(*layout);
    }
    if (const int code = export_view(*layout, options); code != kExitOk) return code;
    return options.verify ? verify_on_gpu(full, options.worker) : kExitOk;
}

}  // namespace

void add_layout_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "layout", "Fragment layouts: which lane and register hold which matrix element");
    auto options = std::make_shared<LayoutOptions>();
    command->add_flag("--list", options->list,
                      "List the layout IDs, one per line; with --json grouped by family and "
                      "architecture, with element counts and which are models");
    command->add_option("id", options->id, "Layout ID, e.g. mma.m16n8k8.tf32");
    command->add_option("--operand", options->operand, "Only this operand: A, B, C, D or E");
    command->add_flag("--json", options->json, "The layout as JSON (docs/json-formats.md)");
    command->add_option("--svg", options->svg_path, "Write the drawing to an SVG file");
    command->add_option("--png", options->png_path, "Write the drawing to a PNG file");
    command->add_flag("--verify", options->verify,
                      "Run the instruction on the GPU (in a worker) and compare every element "
                      "with the model");
    add_worker_options(*command, options->worker);
    command->callback([options, &exit_code] { exit_code = run_layout(*options); });
}

}  // namespace tclens::cli
