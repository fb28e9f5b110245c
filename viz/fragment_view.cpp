#include "viz/fragment_view.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>

#include "viz/layout_description.h"
#include "viz/view_builder.h"
#include "viz/warp.h"

namespace tclens::viz {

namespace {

constexpr int kRowsPerWarp = 16;  // wgmma: warp w holds rows 16w..16w+15 of A and D

constexpr float kMargin = 16.0f;
constexpr float kTitleSize = 14.0f;
constexpr float kTitleGap = 6.0f;    // title bottom to matrix top
constexpr float kBlockGap = 32.0f;   // between operand blocks
constexpr float kAddressGap = 8.0f;  // ldmatrix address column to its tile
constexpr float kStripGap = 24.0f;   // matrices bottom to strip title
constexpr float kWarpLabelSize = 12.0f;
constexpr float kGutterGap = 8.0f;     // warp labels to matrices
constexpr float kMinLaneCell = 20.0f;  // lane-strip cells stay this big for small `cell`
constexpr float kBandStroke = 2.0f;

// Cell labels: two lines of kLabelLine * cell each; only when cell >= kMinLabelCell (lines of
// 8 px or more) and the view has at most kMaxLabelledCells element cells.
constexpr float kLabelLine = 0.36f;
constexpr float kMinLabelCell = 22.0f;
constexpr size_t kMaxLabelledCells = 8192;
constexpr float kStripLabelLine = 0.4f;
constexpr float kBannerSize = 14.0f;
constexpr float kBannerGap = 8.0f;
constexpr int kSmemLineBytes = 128;  // shared-memory drawing: one line of 8 chunks
constexpr int kSmemChunkBytes = 16;

// An operand block of the view. C and D share one block when their layouts are identical.
struct ViewOperand {
    const OperandLayout* layout;
    std::string name;  // "A", "B", "C/D", "D"
};

bool same_layout(const OperandLayout& x, const OperandLayout& y) {
    return x.rows == y.rows && x.cols == y.cols && x.elem_bits == y.elem_bits &&
           std::equal(x.elements.begin(), x.elements.end(), y.elements.begin(), y.elements.end(),
                      [](const LayoutElement& p, const LayoutElement& q) {
                          return p.lane == q.lane && p.reg == q.reg && p.sub == q.sub &&
                                 p.row == q.row && p.col == q.col;
                      });
}

std::vector<ViewOperand> view_operands(const FragmentLayout& layout) {
    const OperandLayout* c = layout.find(Operand::C);
    const OperandLayout* d = layout.find(Operand::D);
    const bool merge_cd = c && d && same_layout(*c, *d);
    std::vector<ViewOperand> operands;
    for (const OperandLayout& operand : layout.operands) {
        if (merge_cd && operand.operand == Operand::D) continue;
        std::string name(1, operand_letter(operand.operand));
        if (merge_cd && operand.operand == Operand::C) name = "C/D";
        operands.push_back({&operand, name});
    }
    return operands;
}

int colour_index(FragmentColouring colouring, int lane, int reg, int sub) {
    switch (colouring) {
        case FragmentColouring::kRegister:
            return reg;
        case FragmentColouring::kLane:
            return lane;
        case FragmentColouring::kThreadGroup:
            return (lane % kWarpLanes) / 4;
        case FragmentColouring::kSub:
            return sub;
    }
    return 0;
}

using FragmentBuilder = ViewBuilder<FragmentHit>;

// A fragment view being built. Titles sit at title_y, matrices below them at `top`; blocks go
// left to right from x (advancing by whole pixels past each block: cell may not be whole), and
// `bottom` and `right` grow past what is drawn.
struct FragmentCanvas {
    FragmentBuilder b;
    const FragmentViewOptions& options;
    CellGrid grid;
    float cell;
    bool labels;       // the element cells' labels
    float label_size;  // their line height
    bool tmem;         // lanes are TMEM lanes and registers TMEM columns
    int warps;
    float gutter;  // left of the matrices: warp labels
    float title_y;
    float top;
    float x;
    float bottom;
    float right;
};

// A cell that is a hover target for `hit`; outlined in highlight when hit.lane is the
// highlighted lane.
void target(FragmentCanvas& c, float x, float y, float size, Rgba fill, const FragmentHit& hit) {
    const Rgba outline =
        hit.lane == c.options.highlight_lane ? c.b.palette().highlight : kTransparent;
    c.b.grid_cell(c.grid, x, y, size, size, fill, outline, c.b.hit(hit));
}

// A block title at (x, title_y).
void title(FragmentCanvas& c, float x, const std::string& text) {
    c.b.text(x, c.title_y, kTitleSize, c.b.palette().text, TextAlign::kLeft, text);
}

}  // namespace

std::string register_name(Operand op, int reg) {
    return std::string(1, static_cast<char>(operand_letter(op) - 'A' + 'a')) + std::to_string(reg);
}

namespace {

std::string swizzle_text(int swizzle_bytes) {
    return swizzle_bytes == 0 ? "no swizzle" : std::to_string(swizzle_bytes) + "B swizzle";
}

// The shared-memory tiles of a wgmma descriptor view, left to right from c.x: per tile the
// operand matrix coloured by core matrix, then its bytes, 128 per line.
void draw_shared_memory(FragmentCanvas& c, const FragmentLayout& layout) {
    const Palette& palette = c.b.palette();
    const float cell = c.cell;
    size_t cells = 0;
    for (const SharedMemoryTile& tile : layout.shared_memory) cells += tile.elements.size();
    const bool labels = c.options.labels && cell >= kMinLabelCell && cells <= kMaxLabelledCells;
    const bool chunk_labels = c.options.labels && cell >= kMinLabelCell;
    for (const SharedMemoryTile& tile : layout.shared_memory) {
        const std::string letter(1, operand_letter(tile.operand));
        const std::string type = tile.elem_bits == 32   ? "tf32"
                                 : tile.elem_bits == 16 ? "f16"
                                 : tile.elem_bits == 8  ? "e4m3"
                                                        : "b1";
        const std::string matrix_title = letter + " " + std::to_string(tile.rows) + "x" +
                                         std::to_string(tile.cols) + " " + type + ", " +
                                         (tile.k_major ? "K" : "MN") + "-major, " +
                                         swizzle_text(tile.swizzle_bytes);
        title(c, c.x, matrix_title);
        c.b.backdrop(c.grid, c.x, c.top, static_cast<float>(tile.cols) * cell,
                     static_cast<float>(tile.rows) * cell);
        // chunk (16 bytes) -> (core matrix, row of the core matrix)
        std::map<int, std::pair<int, int>> chunks;
        int last_byte = 0;
        for (const SharedMemoryElement& e : tile.elements) {
            const Rgba fill = category_colour(palette, e.core_matrix);
            const float cx = c.x + static_cast<float>(e.col) * cell;
            const float cy = c.top + static_cast<float>(e.row) * cell;
            c.b.rect(cx + 1.0f, cy + 1.0f, cell - 1.0f, cell - 1.0f, fill);
            if (labels) {
                c.b.cell_label(cx, cy, cell, cell, c.label_size, fill,
                               {"m" + std::to_string(e.core_matrix), "+" + std::to_string(e.byte)});
            }
            const int mn = tile.operand == Operand::A ? e.row : e.col;
            const int k = tile.operand == Operand::A ? e.col : e.row;
            chunks[e.byte / kSmemChunkBytes] = {e.core_matrix, (tile.k_major ? mn : k) % 8};
            last_byte = std::max(last_byte, e.byte);
        }
        const float matrix_width = static_cast<float>(tile.cols) * cell;
        c.bottom = std::max(c.bottom, c.top + static_cast<float>(tile.rows) * cell);
        c.x += std::ceil(std::max(matrix_width, text_width(matrix_title.size(), kTitleSize))) +
               kAddressGap;

        const int chunks_per_line = kSmemLineBytes / kSmemChunkBytes;
        const int lines = last_byte / kSmemLineBytes + 1;
        const std::string bytes_title = letter + " in shared memory, 128 B per line (LBO " +
                                        std::to_string(tile.leading_bytes) + ", SBO " +
                                        std::to_string(tile.stride_bytes) + ")";
        title(c, c.x, bytes_title);
        c.b.backdrop(c.grid, c.x, c.top, static_cast<float>(chunks_per_line) * cell,
                     static_cast<float>(lines) * cell);
        for (const auto& [chunk, owner] : chunks) {
            const Rgba fill = category_colour(palette, owner.first);
            const float cx = c.x + static_cast<float>(chunk % chunks_per_line) * cell;
            const float cy = c.top + static_cast<float>(chunk / chunks_per_line) * cell;
            c.b.rect(cx + 1.0f, cy + 1.0f, cell - 1.0f, cell - 1.0f, fill);
            if (chunk_labels) {
                c.b.cell_label(
                    cx, cy, cell, cell, c.label_size, fill,
                    {"m" + std::to_string(owner.first), "r" + std::to_string(owner.second)});
            }
        }
        c.bottom = std::max(c.bottom, c.top + static_cast<float>(lines) * cell);
        const float right = c.x + std::max(static_cast<float>(chunks_per_line) * cell,
                                           text_width(bytes_title.size(), kTitleSize));
        c.right = std::max(c.right, right);
        c.x = std::ceil(right) + kBlockGap;
    }
}

// ldmatrix/stmatrix: (row) -> lane supplying that row's address, one cell per tile row, left of
// the operand blocks.
void draw_address_lanes(FragmentCanvas& c, const FragmentLayout& layout) {
    const float cell = c.cell;
    const std::string column_title = "addr";
    title(c, c.x, column_title);
    c.b.backdrop(c.grid, c.x, c.top, cell, static_cast<float>(layout.address_lanes.size()) * cell);
    for (size_t row = 0; row < layout.address_lanes.size(); ++row) {
        const int lane = layout.address_lanes[row];
        // Rows 8j..8j+7 are matrix j, which is register j.
        const int reg = static_cast<int>(row) / 8;
        const Rgba fill =
            category_colour(c.b.palette(), colour_index(c.options.colouring, lane, reg, 0));
        const float y = c.top + static_cast<float>(row) * cell;
        target(c, c.x, y, cell, fill, {Operand::A, kLaneOnlyHit, lane});
        if (c.labels) {
            c.b.cell_label(c.x, y, cell, cell, c.label_size, fill, {"T" + std::to_string(lane)});
        }
    }
    c.bottom = std::max(c.bottom, c.top + static_cast<float>(layout.address_lanes.size()) * cell);
    c.x += std::ceil(std::max(cell, text_width(column_title.size(), kTitleSize))) + kAddressGap;
}

// An operand block at c.x: (lane, reg, sub) -> (row, col) cell, as the layout lists them, with
// each warp's band of rows outlined when the warps split the rows.
void draw_operand(FragmentCanvas& c, const FragmentLayout& layout, const ViewOperand& operand) {
    const Palette& palette = c.b.palette();
    const float cell = c.cell;
    const OperandLayout& matrix = *operand.layout;
    std::string block_title = operand.name + " " + std::to_string(matrix.rows) + "x" +
                              std::to_string(matrix.cols) + " " + operand_type(layout, matrix);
    // One warp's band (FragmentViewOptions::warp): its rows, moved to the top.
    const bool banded = c.warps > 1 && !c.tmem && matrix.rows == kRowsPerWarp * c.warps;
    const int band = banded ? c.options.warp : -1;
    const int first_row = band >= 0 ? band * kRowsPerWarp : 0;
    const int rows = band >= 0 ? kRowsPerWarp : matrix.rows;
    if (band >= 0) {
        block_title += ", warp " + std::to_string(band) + ": rows " + std::to_string(first_row) +
                       "-" + std::to_string(first_row + kRowsPerWarp - 1);
    }
    title(c, c.x, block_title);
    const bool packed = elements_per_register(matrix.elem_bits) > 1;
    const std::string lane_prefix = c.tmem ? "L" : "T";
    c.b.backdrop(c.grid, c.x, c.top, static_cast<float>(matrix.cols) * cell,
                 static_cast<float>(rows) * cell);
    for (size_t i = 0; i < matrix.elements.size(); ++i) {
        const LayoutElement& e = matrix.elements[i];
        if (e.row < first_row || e.row >= first_row + rows) continue;
        const Rgba fill =
            category_colour(palette, colour_index(c.options.colouring, e.lane, e.reg, e.sub));
        const float cx = c.x + static_cast<float>(e.col) * cell;
        const float cy = c.top + static_cast<float>(e.row - first_row) * cell;
        target(c, cx, cy, cell, fill, {matrix.operand, static_cast<int>(i), e.lane});
        if (c.labels) {
            std::string reg =
                c.tmem ? "c" + std::to_string(e.reg) : register_name(matrix.operand, e.reg);
            if (packed) reg += "." + std::to_string(e.sub);
            c.b.cell_label(cx, cy, cell, cell, c.label_size, fill,
                           {lane_prefix + std::to_string(e.lane), reg});
        }
    }
    const float width = static_cast<float>(matrix.cols) * cell;
    const float height = static_cast<float>(rows) * cell;
    if (banded && band < 0) {
        for (int w = 0; w < c.warps; ++w) {
            c.b.rect(c.x, c.top + static_cast<float>(w * kRowsPerWarp) * cell, width,
                     kRowsPerWarp * cell, kTransparent, palette.text, kBandStroke);
        }
    }
    c.bottom = std::max(c.bottom, c.top + height);
    c.x += std::ceil(std::max(width, text_width(block_title.size(), kTitleSize))) + kBlockGap;
}

// "warp w" left of each warp's band of rows.
void draw_warp_labels(FragmentCanvas& c) {
    for (int w = 0; w < c.warps; ++w) {
        const float band_y = c.top + static_cast<float>(w * kRowsPerWarp) * c.cell;
        c.b.text(kMargin, band_y + 0.5f * (kRowsPerWarp * c.cell - kWarpLabelSize), kWarpLabelSize,
                 c.b.palette().text, TextAlign::kLeft, "warp " + std::to_string(w));
    }
}

// Lane strip under the matrices: lane L at row L / 32, column L % 32; row w is warp w (TMEM:
// subpartition w). Returns its bottom.
float draw_lane_strip(FragmentCanvas& c, const FragmentLayout& layout) {
    const Palette& palette = c.b.palette();
    const FragmentColouring colouring = c.options.colouring;
    const float lane_cell = std::max(c.cell, kMinLaneCell);
    const float left = kMargin + c.gutter;
    const float strip_title_y = c.bottom + kStripGap;
    c.b.text(left, strip_title_y, kTitleSize, palette.text, TextAlign::kLeft,
             c.tmem ? "TMEM lanes" : "lanes");
    const float strip_top = strip_title_y + kTitleSize + kTitleGap;
    const Rgba neutral = mix(palette.background, palette.text, 0.2f);
    const bool lane_coloured =
        colouring == FragmentColouring::kLane || colouring == FragmentColouring::kThreadGroup;
    c.b.backdrop(c.grid, left, strip_top,
                 static_cast<float>(std::min(layout.threads, kWarpLanes)) * lane_cell,
                 static_cast<float>(c.warps) * lane_cell);
    for (int lane = 0; lane < layout.threads; ++lane) {
        const float lx = left + static_cast<float>(lane % kWarpLanes) * lane_cell;
        const float ly = strip_top + static_cast<float>(lane / kWarpLanes) * lane_cell;
        const Rgba fill =
            lane_coloured ? category_colour(palette, colour_index(colouring, lane, 0, 0)) : neutral;
        target(c, lx, ly, lane_cell, fill, {Operand::A, kLaneOnlyHit, lane});
        if (c.options.labels) {
            c.b.cell_label(lx, ly, lane_cell, lane_cell, lane_cell * kStripLabelLine, fill,
                           {std::to_string(lane)});
        }
    }
    if (c.warps > 1) {
        for (int w = 0; w < c.warps; ++w) {
            c.b.text(kMargin,
                     strip_top + (static_cast<float>(w) + 0.5f) * lane_cell - 0.5f * kWarpLabelSize,
                     kWarpLabelSize, palette.text, TextAlign::kLeft,
                     (c.tmem ? "part " : "warp ") + std::to_string(w));
        }
    }
    c.right = std::max(c.right, left + kWarpLanes * lane_cell);
    return strip_top + static_cast<float>(c.warps) * lane_cell;
}

}  // namespace

FragmentView fragment_view(const FragmentLayout& layout, const FragmentViewOptions& options) {
    const Palette& palette = options.palette ? *options.palette : dark_palette();
    const float cell = options.cell;
    std::vector<ViewOperand> operands = view_operands(layout);
    const bool tmem = layout.tmem_slots;
    const bool smem_only = operands.empty() && !layout.shared_memory.empty();
    const int warps = std::max(1, (layout.threads + kWarpLanes - 1) / kWarpLanes);
    const bool part = !options.operands.empty() || options.warp >= 0;
    if (!options.operands.empty()) {
        const auto picked = [&](const ViewOperand& operand) {
            const char letter = operand_letter(operand.layout->operand);
            const bool merged = operand.name == "C/D";
            return options.operands.find(letter) != std::string::npos ||
                   (merged && options.operands.find('D') != std::string::npos);
        };
        operands.erase(std::remove_if(operands.begin(), operands.end(),
                                      [&](const ViewOperand& o) { return !picked(o); }),
                       operands.end());
    }

    size_t element_cells = 0;
    for (const ViewOperand& operand : operands) element_cells += operand.layout->elements.size();
    const bool labels =
        options.labels && cell >= kMinLabelCell && element_cells <= kMaxLabelledCells;

    // Models no GPU at hand can check say so above everything (and so in every export).
    const std::string banner =
        layout.verifiable ? "" : std::string(kModelOnlyNote) + " (" + layout.source + ")";
    const float title_y = banner.empty() ? kMargin : kMargin + kBannerSize + kBannerGap;
    const float top = title_y + kTitleSize + kTitleGap;
    const bool warp_gutter = warps > 1 && !smem_only && !part;
    const float gutter = warp_gutter ? text_width(6, kWarpLabelSize) + kGutterGap : 0.0f;
    FragmentCanvas c{FragmentBuilder(palette),
                     options,
                     cell_grid(cell),
                     cell,
                     labels,
                     cell * kLabelLine,
                     tmem,
                     warps,
                     gutter,
                     title_y,
                     top,
                     kMargin + gutter,
                     top,
                     kMargin};
    c.b.draw().rects.reserve(element_cells + layout.address_lanes.size() +
                             static_cast<size_t>(layout.threads + 2 * warps * operands.size()));
    c.b.hits().reserve(element_cells + layout.address_lanes.size() +
                       static_cast<size_t>(layout.threads));
    if (labels) c.b.draw().texts.reserve(2 * element_cells + layout.address_lanes.size());
    if (!banner.empty()) {
        c.b.text(kMargin, kMargin, kBannerSize, palette.highlight, TextAlign::kLeft, banner);
        c.right = kMargin + text_width(banner.size(), kBannerSize);
    }

    if (!layout.address_lanes.empty()) draw_address_lanes(c, layout);
    for (const ViewOperand& operand : operands) draw_operand(c, layout, operand);
    if (warps > 1 && !tmem && !smem_only && !part) draw_warp_labels(c);
    c.right = std::max(c.right, c.x - kBlockGap);

    float bottom = c.bottom;
    if (smem_only) {
        draw_shared_memory(c, layout);
        bottom = c.bottom;
    } else if (!part) {
        bottom = draw_lane_strip(c, layout);
    }
    c.b.draw().width = std::ceil(c.right + kMargin);
    c.b.draw().height = std::ceil(bottom + kMargin);
    return c.b.take_view<FragmentView>();
}

std::string lane_tooltip(const FragmentLayout& layout, int lane) {
    std::string out = "lane " + std::to_string(lane);
    if (lane < 0 || lane >= layout.threads) {
        return out + ": no such lane (0.." + std::to_string(layout.threads - 1) + ")";
    }
    if (layout.threads > kWarpLanes) out += " (warp " + std::to_string(lane / kWarpLanes) + ")";
    out += ':';
    const char* separator = " ";
    for (const ViewOperand& operand : view_operands(layout)) {
        const std::vector<LayoutElement>& elements = operand.layout->elements;
        // Elements are ordered by lane, then reg, then sub (fragment_layout.h).
        const auto by_lane = [](const LayoutElement& e, int l) { return e.lane < l; };
        auto it = std::lower_bound(elements.begin(), elements.end(), lane, by_lane);
        out += separator;
        separator = " | ";
        for (int reg = -1; it != elements.end() && it->lane == lane; ++it) {
            if (it->reg != reg) {
                if (reg >= 0) out += ' ';
                reg = it->reg;
                out += register_name(operand.layout->operand, reg) + '=';
            } else {
                out += ',';
            }
            out += '(' + std::to_string(it->row) + ',' + std::to_string(it->col) + ')';
        }
    }
    for (size_t row = 0; row < layout.address_lanes.size(); ++row) {
        if (layout.address_lanes[row] == lane) out += " | addr row " + std::to_string(row);
    }
    return out;
}

}  // namespace tclens::viz
