#include "viz/fragment_view.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>

#include "viz/layout_description.h"
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

// Appends rects and texts, and the hit targets they point to.
class ViewBuilder {
  public:
    ViewBuilder(const FragmentViewOptions& options, const Palette& palette)
        : options_(options),
          palette_(palette),
          grid_width_(options.cell >= 8.0f ? 1.0f : 0.0f),
          highlight_width_(std::max(2.0f, std::round(options.cell * 0.12f))) {}

    // The grid behind a block of cells at (x, y), w x h: the cells, inset by the grid width on
    // their top and left, let it show through as lines. One rect instead of an outline per
    // cell keeps large views cheap to paint (a wgmma m64n256 accumulator has 16,384 cells).
    void backdrop(float x, float y, float w, float h) {
        if (grid_width_ <= 0.0f) return;
        view_.draw.rects.push_back(
            {x, y, w + grid_width_, h + grid_width_, palette_.grid, kTransparent, 0.0f, -1});
    }

    // A cell that is a hover target for `hit`, on a backdrop(); outlined in highlight when
    // hit.lane is the highlighted lane.
    void target(float x, float y, float w, float h, Rgba fill, const FragmentHit& hit) {
        const int index = static_cast<int>(view_.hits.size());
        if (hit.lane == options_.highlight_lane) {
            view_.draw.rects.push_back({x, y, w + grid_width_, h + grid_width_, fill,
                                        palette_.highlight, highlight_width_, index});
        } else {
            view_.draw.rects.push_back({x + grid_width_, y + grid_width_, w - grid_width_,
                                        h - grid_width_, fill, kTransparent, 0.0f, index});
        }
        view_.hits.push_back(hit);
    }

    void outline(float x, float y, float w, float h, Rgba colour, float width) {
        view_.draw.rects.push_back({x, y, w, h, kTransparent, colour, width, -1});
    }

    void text(float x, float y, float size, Rgba colour, TextAlign align, std::string text) {
        view_.draw.texts.push_back({x, y, size, colour, align, std::move(text)});
    }

    // Lines of text centred in the cell at (x, y), each `size` high, readable on `fill`.
    void cell_labels(float x, float y, float cell, float size, Rgba fill,
                     std::initializer_list<std::string> lines) {
        const Rgba colour = label_colour_on(palette_, fill);
        float line_y = y + 0.5f * (cell - size * static_cast<float>(lines.size()));
        for (const std::string& line : lines) {
            text(x + 0.5f * cell, line_y, size, colour, TextAlign::kCenter, line);
            line_y += size;
        }
    }

    FragmentView& view() { return view_; }
    FragmentView take() { return std::move(view_); }

  private:
    const FragmentViewOptions& options_;
    const Palette& palette_;
    const float grid_width_;
    const float highlight_width_;
    FragmentView view_;
};

}  // namespace

std::string register_name(Operand op, int reg) {
    return std::string(1, static_cast<char>(operand_letter(op) - 'A' + 'a')) + std::to_string(reg);
}

namespace {

std::string swizzle_text(int swizzle_bytes) {
    return swizzle_bytes == 0 ? "no swizzle" : std::to_string(swizzle_bytes) + "B swizzle";
}

// The shared-memory tiles of a wgmma descriptor view, left to right from x: per tile the
// operand matrix coloured by core matrix, then its bytes, 128 per line. Returns the right edge
// and raises `bottom` past what it drew.
float draw_shared_memory(ViewBuilder& builder, const FragmentLayout& layout, const Palette& palette,
                         bool labels_wanted, float cell, float x, float title_y, float top,
                         float& bottom) {
    size_t cells = 0;
    for (const SharedMemoryTile& tile : layout.shared_memory) cells += tile.elements.size();
    const bool labels = labels_wanted && cell >= kMinLabelCell && cells <= kMaxLabelledCells;
    const float label_size = cell * kLabelLine;
    float right = x;
    for (const SharedMemoryTile& tile : layout.shared_memory) {
        const std::string letter(1, operand_letter(tile.operand));
        const std::string type = tile.elem_bits == 32   ? "tf32"
                                 : tile.elem_bits == 16 ? "f16"
                                 : tile.elem_bits == 8  ? "e4m3"
                                                        : "b1";
        const std::string title = letter + " " + std::to_string(tile.rows) + "x" +
                                  std::to_string(tile.cols) + " " + type + ", " +
                                  (tile.k_major ? "K" : "MN") + "-major, " +
                                  swizzle_text(tile.swizzle_bytes);
        builder.text(x, title_y, kTitleSize, palette.text, TextAlign::kLeft, title);
        builder.backdrop(x, top, static_cast<float>(tile.cols) * cell,
                         static_cast<float>(tile.rows) * cell);
        // chunk (16 bytes) -> (core matrix, row of the core matrix)
        std::map<int, std::pair<int, int>> chunks;
        int last_byte = 0;
        for (const SharedMemoryElement& e : tile.elements) {
            const Rgba fill = category_colour(palette, e.core_matrix);
            const float cx = x + static_cast<float>(e.col) * cell;
            const float cy = top + static_cast<float>(e.row) * cell;
            builder.view().draw.rects.push_back(
                {cx + 1.0f, cy + 1.0f, cell - 1.0f, cell - 1.0f, fill, kTransparent, 0.0f, -1});
            if (labels) {
                builder.cell_labels(
                    cx, cy, cell, label_size, fill,
                    {"m" + std::to_string(e.core_matrix), "+" + std::to_string(e.byte)});
            }
            const int mn = tile.operand == Operand::A ? e.row : e.col;
            const int k = tile.operand == Operand::A ? e.col : e.row;
            chunks[e.byte / kSmemChunkBytes] = {e.core_matrix, (tile.k_major ? mn : k) % 8};
            last_byte = std::max(last_byte, e.byte);
        }
        const float matrix_width = static_cast<float>(tile.cols) * cell;
        bottom = std::max(bottom, top + static_cast<float>(tile.rows) * cell);
        x += std::ceil(std::max(matrix_width, text_width(title.size(), kTitleSize))) + kAddressGap;

        const int chunks_per_line = kSmemLineBytes / kSmemChunkBytes;
        const int lines = last_byte / kSmemLineBytes + 1;
        const std::string bytes_title = letter + " in shared memory, 128 B per line (LBO " +
                                        std::to_string(tile.leading_bytes) + ", SBO " +
                                        std::to_string(tile.stride_bytes) + ")";
        builder.text(x, title_y, kTitleSize, palette.text, TextAlign::kLeft, bytes_title);
        builder.backdrop(x, top, static_cast<float>(chunks_per_line) * cell,
                         static_cast<float>(lines) * cell);
        for (const auto& [chunk, owner] : chunks) {
            const Rgba fill = category_colour(palette, owner.first);
            const float cx = x + static_cast<float>(chunk % chunks_per_line) * cell;
            const float cy = top + static_cast<float>(chunk / chunks_per_line) * cell;
            builder.view().draw.rects.push_back(
                {cx + 1.0f, cy + 1.0f, cell - 1.0f, cell - 1.0f, fill, kTransparent, 0.0f, -1});
            if (cell >= kMinLabelCell && labels_wanted) {
                builder.cell_labels(
                    cx, cy, cell, label_size, fill,
                    {"m" + std::to_string(owner.first), "r" + std::to_string(owner.second)});
            }
        }
        bottom = std::max(bottom, top + static_cast<float>(lines) * cell);
        right = x + std::max(static_cast<float>(chunks_per_line) * cell,
                             text_width(bytes_title.size(), kTitleSize));
        x = std::ceil(right) + kBlockGap;
    }
    return right;
}

}  // namespace

FragmentView fragment_view(const FragmentLayout& layout, const FragmentViewOptions& options) {
    const Palette& palette = options.palette ? *options.palette : dark_palette();
    const float cell = options.cell;
    const std::vector<ViewOperand> operands = view_operands(layout);
    const bool tmem = layout.tmem_slots;
    const bool smem_only = operands.empty() && !layout.shared_memory.empty();
    const int warps = std::max(1, (layout.threads + kWarpLanes - 1) / kWarpLanes);
    const std::string lane_prefix = tmem ? "L" : "T";

    size_t element_cells = 0;
    for (const ViewOperand& operand : operands) element_cells += operand.layout->elements.size();
    const bool labels =
        options.labels && cell >= kMinLabelCell && element_cells <= kMaxLabelledCells;
    const float label_size = cell * kLabelLine;
    const float lane_cell = std::max(cell, kMinLaneCell);

    ViewBuilder builder(options, palette);
    FragmentView& view = builder.view();
    view.draw.background = palette.background;
    view.draw.rects.reserve(element_cells + layout.address_lanes.size() +
                            static_cast<size_t>(layout.threads + 2 * warps * operands.size()));
    view.hits.reserve(element_cells + layout.address_lanes.size() +
                      static_cast<size_t>(layout.threads));
    if (labels) view.draw.texts.reserve(2 * element_cells + layout.address_lanes.size());

    // Models no GPU at hand can check say so above everything (and so in every export).
    float title_y = kMargin;
    float right = kMargin;
    if (!layout.verifiable) {
        const std::string banner = std::string(kModelOnlyNote) + " (" + layout.source + ")";
        builder.text(kMargin, kMargin, kBannerSize, palette.highlight, TextAlign::kLeft, banner);
        right = kMargin + text_width(banner.size(), kBannerSize);
        title_y += kBannerSize + kBannerGap;
    }

    const bool warp_gutter = warps > 1 && !smem_only;
    const float gutter = warp_gutter ? text_width(6, kWarpLabelSize) + kGutterGap : 0.0f;
    const float top = title_y + kTitleSize + kTitleGap;
    float x = kMargin + gutter;  // advances by whole pixels past each block (cell may not)
    float bottom = top;

    // ldmatrix/stmatrix: (row) -> lane supplying that row's address, one cell per tile row.
    if (!layout.address_lanes.empty()) {
        const std::string title = "addr";
        builder.text(x, title_y, kTitleSize, palette.text, TextAlign::kLeft, title);
        builder.backdrop(x, top, cell, static_cast<float>(layout.address_lanes.size()) * cell);
        for (size_t row = 0; row < layout.address_lanes.size(); ++row) {
            const int lane = layout.address_lanes[row];
            // Rows 8j..8j+7 are matrix j, which is register j.
            const int reg = static_cast<int>(row) / 8;
            const Rgba fill =
                category_colour(palette, colour_index(options.colouring, lane, reg, 0));
            const float y = top + static_cast<float>(row) * cell;
            builder.target(x, y, cell, cell, fill, {Operand::A, kLaneOnlyHit, lane});
            if (labels) {
                builder.cell_labels(x, y, cell, label_size, fill, {"T" + std::to_string(lane)});
            }
        }
        bottom = std::max(bottom, top + static_cast<float>(layout.address_lanes.size()) * cell);
        x += std::ceil(std::max(cell, text_width(title.size(), kTitleSize))) + kAddressGap;
    }

    // Operand blocks: (lane, reg, sub) -> (row, col) cell, as the layout lists them.
    for (const ViewOperand& operand : operands) {
        const OperandLayout& matrix = *operand.layout;
        const std::string title = operand.name + " " + std::to_string(matrix.rows) + "x" +
                                  std::to_string(matrix.cols) + " " + operand_type(layout, matrix);
        builder.text(x, title_y, kTitleSize, palette.text, TextAlign::kLeft, title);
        const bool packed = elements_per_register(matrix.elem_bits) > 1;
        builder.backdrop(x, top, static_cast<float>(matrix.cols) * cell,
                         static_cast<float>(matrix.rows) * cell);
        for (size_t i = 0; i < matrix.elements.size(); ++i) {
            const LayoutElement& e = matrix.elements[i];
            const Rgba fill =
                category_colour(palette, colour_index(options.colouring, e.lane, e.reg, e.sub));
            const float cx = x + static_cast<float>(e.col) * cell;
            const float cy = top + static_cast<float>(e.row) * cell;
            builder.target(cx, cy, cell, cell, fill, {matrix.operand, static_cast<int>(i), e.lane});
            if (labels) {
                std::string reg =
                    tmem ? "c" + std::to_string(e.reg) : register_name(matrix.operand, e.reg);
                if (packed) reg += "." + std::to_string(e.sub);
                builder.cell_labels(cx, cy, cell, label_size, fill,
                                    {lane_prefix + std::to_string(e.lane), reg});
            }
        }
        const float width = static_cast<float>(matrix.cols) * cell;
        const float height = static_cast<float>(matrix.rows) * cell;
        if (warps > 1 && !tmem && matrix.rows == kRowsPerWarp * warps) {
            for (int w = 0; w < warps; ++w) {
                builder.outline(x, top + static_cast<float>(w * kRowsPerWarp) * cell, width,
                                kRowsPerWarp * cell, palette.text, kBandStroke);
            }
        }
        bottom = std::max(bottom, top + height);
        x += std::ceil(std::max(width, text_width(title.size(), kTitleSize))) + kBlockGap;
    }
    if (warps > 1 && !tmem && !smem_only) {
        for (int w = 0; w < warps; ++w) {
            const float band_y = top + static_cast<float>(w * kRowsPerWarp) * cell;
            builder.text(kMargin, band_y + 0.5f * (kRowsPerWarp * cell - kWarpLabelSize),
                         kWarpLabelSize, palette.text, TextAlign::kLeft,
                         "warp " + std::to_string(w));
        }
    }
    right = std::max(right, x - kBlockGap);

    if (smem_only) {
        right = std::max(right, draw_shared_memory(builder, layout, palette, options.labels, cell,
                                                   x, title_y, top, bottom));
        view.draw.width = std::ceil(right + kMargin);
        view.draw.height = std::ceil(bottom + kMargin);
        return builder.take();
    }

    // Lane strip: lane L at row L / 32, column L % 32; row w is warp w (TMEM: subpartition w).
    const float strip_title_y = bottom + kStripGap;
    builder.text(kMargin + gutter, strip_title_y, kTitleSize, palette.text, TextAlign::kLeft,
                 tmem ? "TMEM lanes" : "lanes");
    const float strip_top = strip_title_y + kTitleSize + kTitleGap;
    const Rgba neutral = mix(palette.background, palette.text, 0.2f);
    const bool lane_coloured = options.colouring == FragmentColouring::kLane ||
                               options.colouring == FragmentColouring::kThreadGroup;
    builder.backdrop(kMargin + gutter, strip_top,
                     static_cast<float>(std::min(layout.threads, kWarpLanes)) * lane_cell,
                     static_cast<float>(warps) * lane_cell);
    for (int lane = 0; lane < layout.threads; ++lane) {
        const float lx = kMargin + gutter + static_cast<float>(lane % kWarpLanes) * lane_cell;
        const float ly = strip_top + static_cast<float>(lane / kWarpLanes) * lane_cell;
        const Rgba fill =
            lane_coloured ? category_colour(palette, colour_index(options.colouring, lane, 0, 0))
                          : neutral;
        builder.target(lx, ly, lane_cell, lane_cell, fill, {Operand::A, kLaneOnlyHit, lane});
        if (options.labels) {
            builder.cell_labels(lx, ly, lane_cell, lane_cell * kStripLabelLine, fill,
                                {std::to_string(lane)});
        }
    }
    if (warps > 1) {
        for (int w = 0; w < warps; ++w) {
            builder.text(
                kMargin,
                strip_top + (static_cast<float>(w) + 0.5f) * lane_cell - 0.5f * kWarpLabelSize,
                kWarpLabelSize, palette.text, TextAlign::kLeft,
                (tmem ? "part " : "warp ") + std::to_string(w));
        }
    }
    const float strip_bottom = strip_top + static_cast<float>(warps) * lane_cell;
    right = std::max(right, kMargin + gutter + kWarpLanes * lane_cell);

    view.draw.width = std::ceil(right + kMargin);
    view.draw.height = std::ceil(strip_bottom + kMargin);
    return builder.take();
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
