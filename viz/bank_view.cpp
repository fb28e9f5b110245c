#include "viz/bank_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/text.h"
#include "viz/view_builder.h"

namespace tclens::viz {

namespace {

constexpr float kMargin = 12.0f;
constexpr float kTitleSize = 14.0f;
constexpr float kLineSize = 13.0f;  // totals, captions
constexpr float kLineGap = 4.0f;
constexpr float kSectionGap = 14.0f;  // between heatmap, legend, caption and tile
constexpr float kAxisSize = 11.0f;    // row numbers, phase names, byte offsets, "8 wf"
constexpr float kAxisGap = 6.0f;      // axis labels to cells
constexpr float kLabelLine = 0.62f;   // cell labels: this fraction of the cell high
constexpr float kMinLabelCell = 12.0f;
constexpr float kLegendSwatch = 14.0f;
constexpr int kWordsPerChunk = 4;  // byte offsets are written every 16 bytes
// Row numbers: every 2^k-th row, k the smallest that keeps them kAxisSize apart and at most
// kMaxRowLabels of them.
constexpr int kMaxRowLabels = 256;

// 32.0 -> "32", 4.031 -> "4.03".
std::string number_text(double value) {
    char text[32];
    if (std::fabs(value - std::round(value)) < 0.005) {
        std::snprintf(text, sizeof text, "%.0f", value);
    } else {
        std::snprintf(text, sizeof text, "%.2f", value);
    }
    return text;
}

// Which lanes of the request touch each word of the tile, indexed by row * words + word.
struct WordTouches {
    std::vector<int> index;  // -1 or an index into lanes / masks
    std::vector<std::vector<int>> lanes;
    std::vector<std::uint32_t> masks;
};

WordTouches word_touches(const RequestReport& request, int rows, int words) {
    WordTouches touches;
    touches.index.assign(static_cast<size_t>(rows) * static_cast<size_t>(words), -1);
    for (const LaneBanks& lane : request.lanes) {
        for (int offset = 0; offset < request.access_bytes; offset += kBankBytes) {
            const size_t word = static_cast<size_t>(lane.row) * static_cast<size_t>(words) +
                                static_cast<size_t>((lane.byte_col + offset) / kBankBytes);
            if (touches.index[word] < 0) {
                touches.index[word] = static_cast<int>(touches.lanes.size());
                touches.lanes.emplace_back();
                touches.masks.push_back(0);
            }
            const size_t slot = static_cast<size_t>(touches.index[word]);
            touches.lanes[slot].push_back(lane.lane);
            touches.masks[slot] |= std::uint32_t{1} << lane.phase;
        }
    }
    for (std::vector<int>& lanes : touches.lanes) {
        std::sort(lanes.begin(), lanes.end());
        lanes.erase(std::unique(lanes.begin(), lanes.end()), lanes.end());
    }
    return touches;
}

using BankBuilder = ViewBuilder<BankHit>;

// A bank view being built. Its parts stack downwards: cells are `cell` pixels, left-aligned at
// x0 (right of the axis labels); `right` is the right edge of the widest part so far.
struct BankCanvas {
    BankBuilder b;
    const BankPalette& banks;
    CellGrid grid;
    float cell;
    bool labels;  // numbers inside the cells
    float x0;
    float right;
};

// One line centred in the cell at (x, y), readable on `fill`.
void cell_label(BankCanvas& c, float x, float y, Rgba fill, std::string label) {
    c.b.cell_label(x, y, c.cell, c.cell, c.cell * kLabelLine, fill, {std::move(label)});
}

// A cell that is a hover target; outlined in `outline` when that is opaque.
void target(BankCanvas& c, float x, float y, Rgba fill, Rgba outline, BankHit hit) {
    c.b.grid_cell(c.grid, x, y, c.cell, c.cell, fill, outline, c.b.hit(std::move(hit)));
}

// A line of text at the left margin; returns the y below it.
float margin_line(BankCanvas& c, float y, float size, const std::string& text) {
    c.b.text(kMargin, y, size, c.b.palette().text, TextAlign::kLeft, text);
    c.right = std::max(c.right, kMargin + text_width(text.size(), size));
    return y + size;
}

// An axis label left of the cell row at y.
void row_label(BankCanvas& c, float y, std::string text) {
    c.b.text(kMargin, y + 0.5f * (c.cell - kAxisSize), kAxisSize, c.b.palette().text,
             TextAlign::kLeft, std::move(text));
}

// The request shown: options.request clamped, or an empty one for a report without requests.
const RequestReport& shown_request(const BankReport& report, int index) {
    static const RequestReport kNoRequest;
    if (report.requests.empty()) return kNoRequest;
    return report.requests[static_cast<size_t>(
        std::clamp(index, 0, static_cast<int>(report.requests.size()) - 1))];
}

// Title and totals; returns the y below them.
float draw_heading(BankCanvas& c, const BankReport& report, float y) {
    const Tile& tile = report.tile;
    const std::string title = "swizzle " + report.swizzle.spec + ": " + report.pattern.name +
                              " on " + std::to_string(tile.rows) + " x " +
                              std::to_string(tile.row_bytes) + " bytes";
    y = margin_line(c, y, kTitleSize, title) + kLineGap;
    return margin_line(c, y, kLineSize, totals_text(report)) + kSectionGap;
}

// The heatmap: a header of bank swatches, then (bank, phase) -> bank_words[bank], each phase
// followed by its wavefronts; the shown phase (>= 0) outlined. Returns the y below it.
float draw_heatmap(BankCanvas& c, const RequestReport& request, int shown_phase, float y) {
    const Palette& palette = c.b.palette();
    const int phases = static_cast<int>(request.phases.size());
    const float heat_width = static_cast<float>(kBankCount) * c.cell;
    row_label(c, y, "bank");
    c.b.backdrop(c.grid, c.x0, y, heat_width, static_cast<float>(1 + phases) * c.cell);
    for (int bank = 0; bank < kBankCount; ++bank) {
        const float bx = c.x0 + static_cast<float>(bank) * c.cell;
        const Rgba fill = bank_colour(c.banks, bank);
        BankHit hit;
        hit.kind = BankHitKind::kBank;
        hit.bank = bank;
        target(c, bx, y, fill, kTransparent, std::move(hit));
        if (c.labels) cell_label(c, bx, y, fill, std::to_string(bank));
    }
    const float heat_top = y + c.cell;
    float wf_right = c.x0 + heat_width;
    for (const PhaseReport& phase : request.phases) {
        const float py = heat_top + static_cast<float>(phase.index) * c.cell;
        row_label(c, py, "p" + std::to_string(phase.index));
        for (int bank = 0; bank < kBankCount; ++bank) {
            const float bx = c.x0 + static_cast<float>(bank) * c.cell;
            const int degree = phase.bank_words[static_cast<size_t>(bank)];
            const Rgba fill = conflict_colour(c.banks, degree);
            BankHit hit;
            hit.kind = BankHitKind::kHeat;
            hit.bank = bank;
            hit.phase = phase.index;
            hit.degree = degree;
            hit.phase_mask = std::uint32_t{1} << phase.index;
            hit.lanes = phase.bank_lanes[static_cast<size_t>(bank)];
            target(c, bx, py, fill, kTransparent, std::move(hit));
            if (c.labels && degree > 0) cell_label(c, bx, py, fill, std::to_string(degree));
        }
        const std::string wavefronts = std::to_string(phase.wavefronts) + " wf";
        const float wf_x = c.x0 + heat_width + kAxisGap;
        c.b.text(wf_x, py + 0.5f * (c.cell - kAxisSize), kAxisSize, palette.text, TextAlign::kLeft,
                 wavefronts);
        wf_right = std::max(wf_right, wf_x + text_width(wavefronts.size(), kAxisSize));
    }
    if (shown_phase >= 0) {
        c.b.rect(c.x0, heat_top + static_cast<float>(shown_phase) * c.cell, heat_width + 1.0f,
                 c.cell + 1.0f, kTransparent, palette.text, c.grid.outline);
    }
    c.right = std::max(c.right, wf_right);
    return heat_top + static_cast<float>(phases) * c.cell + kSectionGap;
}

// The legend: idle, then one swatch per conflict bucket. Returns the y below it.
float draw_legend(BankCanvas& c, float y) {
    const Palette& palette = c.b.palette();
    const std::string caption = "distinct words per bank:";
    c.b.text(kMargin, y, kAxisSize, palette.text, TextAlign::kLeft, caption);
    float lx = kMargin + text_width(caption.size(), kAxisSize) + kAxisGap;
    for (int bucket = -1; bucket < kConflictBuckets; ++bucket) {
        const std::string label = bucket < 0 ? "0" : conflict_bucket_label(bucket);
        const Rgba fill =
            bucket < 0
                ? c.banks.idle
                : c.banks.heat[std::min(static_cast<size_t>(bucket), c.banks.heat.size() - 1)];
        c.b.rect(lx, y - 0.5f * (kLegendSwatch - kAxisSize), kLegendSwatch, kLegendSwatch, fill,
                 palette.grid, 1.0f);
        lx = c.b.swatch_label(lx, y, kLegendSwatch, kAxisSize, label) + 10.0f;
    }
    c.right = std::max(c.right, lx);
    return y + kLegendSwatch + kSectionGap;
}

// Which lanes the tile highlights: "phase 1 of 4: lanes 8-15, 2 wavefronts", or "all 4
// phases: ..." when no phase is shown.
std::string lanes_caption(const RequestReport& request, int shown_phase) {
    const int phases = static_cast<int>(request.phases.size());
    if (shown_phase >= 0) {
        const PhaseReport& phase = request.phases[static_cast<size_t>(shown_phase)];
        return "phase " + std::to_string(shown_phase) + " of " + std::to_string(phases) +
               ": lanes " + ranges_text(phase.lanes) + ", " +
               common::count_text(phase.wavefronts, "wavefront");
    }
    std::vector<int> lanes;
    for (const LaneBanks& lane : request.lanes) lanes.push_back(lane.lane);
    return "all " + common::count_text(phases, "phase") + ": lanes " + ranges_text(lanes) + ", " +
           common::count_text(request.wavefronts, "wavefront");
}

// Byte offsets above the tile every 16 bytes, when they fit. Returns the y below them.
float draw_byte_offsets(BankCanvas& c, const Tile& tile, float y) {
    const int words = tile.row_bytes / kBankBytes;
    const int widest_offset = static_cast<int>(std::to_string(tile.row_bytes).size());
    if (text_width(static_cast<size_t>(widest_offset), kAxisSize) <= kWordsPerChunk * c.cell) {
        for (int word = 0; word < words; word += kWordsPerChunk) {
            c.b.text(c.x0 + static_cast<float>(word) * c.cell, y, kAxisSize, c.b.palette().text,
                     TextAlign::kLeft, std::to_string(word * kBankBytes));
        }
    }
    return y + kAxisSize + kLineGap;
}

// The word at (row, word) of the tile at (x0, y): the colour of the bank of its physical
// address; dimmed unless a lane of a shown phase (bit p of shown_mask for phase p) touches it,
// then outlined and labelled with the lowest such lane ("3+" when there are more).
void draw_word(BankCanvas& c, const BankReport& report, const RequestReport& request,
               const WordTouches& touches, std::uint32_t shown_mask, int row, int word, float y) {
    const Palette& palette = c.b.palette();
    const int words = report.tile.row_bytes / kBankBytes;
    const float wx = c.x0 + static_cast<float>(word) * c.cell;
    const float ry = y + static_cast<float>(row) * c.cell;
    BankHit hit;
    hit.kind = BankHitKind::kWord;
    hit.row = row;
    hit.byte_col = word * kBankBytes;
    hit.byte_addr = physical_address(report.swizzle, report.tile, row, hit.byte_col);
    hit.bank = bank_of(hit.byte_addr);
    const int touch = touches.index[static_cast<size_t>(row) * words + word];
    const Rgba bank_fill = bank_colour(c.banks, hit.bank);
    const Rgba dimmed = mix(bank_fill, palette.background, kDimming);
    if (touch < 0) {
        target(c, wx, ry, dimmed, kTransparent, std::move(hit));
        return;
    }
    hit.lanes = touches.lanes[static_cast<size_t>(touch)];
    hit.phase_mask = touches.masks[static_cast<size_t>(touch)];
    std::vector<int> shown_lanes;
    for (const LaneBanks& lane : request.lanes) {
        if ((shown_mask >> lane.phase & 1u) &&
            std::binary_search(hit.lanes.begin(), hit.lanes.end(), lane.lane)) {
            shown_lanes.push_back(lane.lane);
        }
    }
    if (shown_lanes.empty()) {
        target(c, wx, ry, dimmed, kTransparent, std::move(hit));
        return;
    }
    target(c, wx, ry, bank_fill, palette.text, std::move(hit));
    if (c.labels) {
        std::sort(shown_lanes.begin(), shown_lanes.end());
        cell_label(c, wx, ry, bank_fill,
                   std::to_string(shown_lanes.front()) + (shown_lanes.size() > 1 ? "+" : ""));
    }
}

// The tile: (row, word) -> bank of its physical address, touched words highlighted, every
// 2^k-th row numbered. Returns the y below it.
float draw_tile(BankCanvas& c, const BankReport& report, const RequestReport& request,
                int shown_phase, float y) {
    const Tile& tile = report.tile;
    const int words = tile.row_bytes / kBankBytes;
    const WordTouches touches = word_touches(request, tile.rows, words);
    const size_t cells = static_cast<size_t>(tile.rows) * static_cast<size_t>(words);
    c.b.draw().rects.reserve(c.b.draw().rects.size() + cells + 1);
    c.b.hits().reserve(c.b.hits().size() + cells);
    c.b.backdrop(c.grid, c.x0, y, static_cast<float>(words) * c.cell,
                 static_cast<float>(tile.rows) * c.cell);
    int row_label_step = 1;
    while (static_cast<float>(row_label_step) * c.cell < kAxisSize ||
           tile.rows / row_label_step > kMaxRowLabels) {
        row_label_step *= 2;
    }
    const std::uint32_t shown_mask =
        shown_phase >= 0 ? std::uint32_t{1} << shown_phase : ~std::uint32_t{0};
    for (int row = 0; row < tile.rows; ++row) {
        if (row % row_label_step == 0) {
            row_label(c, y + static_cast<float>(row) * c.cell, std::to_string(row));
        }
        for (int word = 0; word < words; ++word) {
            draw_word(c, report, request, touches, shown_mask, row, word, y);
        }
    }
    c.right = std::max(c.right, c.x0 + static_cast<float>(words) * c.cell);
    return y + static_cast<float>(tile.rows) * c.cell;
}

}  // namespace

std::string ranges_text(const std::vector<int>& values, const std::string& separator,
                        const std::string& empty) {
    std::vector<std::string> runs;
    for (size_t i = 0; i < values.size();) {
        size_t j = i;
        while (j + 1 < values.size() && values[j + 1] == values[j] + 1) ++j;
        runs.push_back(std::to_string(values[i]) + (j > i ? "-" + std::to_string(values[j]) : ""));
        i = j + 1;
    }
    return runs.empty() ? empty : common::join(runs, separator);
}

std::string totals_text(const BankReport& report) {
    const double factor =
        report.ideal_wavefronts > 0
            ? static_cast<double>(report.total_wavefronts) / report.ideal_wavefronts
            : 0.0;
    char text[128];
    std::snprintf(text, sizeof text, "wavefronts %d / ideal %d, conflict factor %.2fx",
                  report.total_wavefronts, report.ideal_wavefronts, factor);
    std::string out = text;
    if (report.measured_wavefronts) {
        out += " | measured " + number_text(*report.measured_wavefronts *
                                            static_cast<double>(report.requests.size()));
    }
    return out;
}

BankView bank_view(const BankReport& report, const BankViewOptions& options) {
    const Palette& palette = options.palette ? *options.palette : dark_palette();
    const BankPalette& banks = options.banks ? *options.banks : dark_bank_palette();
    const Tile& tile = report.tile;
    const RequestReport& request = shown_request(report, options.request);
    const int phases = static_cast<int>(request.phases.size());
    const int shown_phase = options.phase >= 0 && options.phase < phases ? options.phase : -1;

    // Left gutter: wide enough for "bank", row numbers and phase names.
    const size_t widest_axis_label =
        std::max({sizeof "bank" - 1, std::to_string(std::max(tile.rows - 1, 0)).size(),
                  std::to_string(phases).size() + 1});
    const float x0 = kMargin + text_width(widest_axis_label, kAxisSize) + kAxisGap;
    BankCanvas c{BankBuilder(palette),
                 banks,
                 cell_grid(options.cell),
                 options.cell,
                 options.cell >= kMinLabelCell,
                 x0,
                 x0};

    float y = draw_heading(c, report, kMargin);
    y = draw_heatmap(c, request, shown_phase, y);
    y = draw_legend(c, y);
    y = margin_line(c, y, kLineSize, lanes_caption(request, shown_phase)) + kLineGap;
    y = draw_byte_offsets(c, tile, y);
    y = draw_tile(c, report, request, shown_phase, y);

    c.b.draw().width = std::ceil(c.right + kMargin);
    c.b.draw().height = std::ceil(y + kMargin);
    return c.b.take_view<BankView>();
}

BankView side_by_side(const BankView& left, const BankView& right, float gap) {
    BankView view = left;
    for (BankHit& hit : view.hits) hit.side = 0;
    const float dx = left.draw.width + gap;
    const int first_hit = static_cast<int>(view.hits.size());
    view.draw.rects.reserve(view.draw.rects.size() + right.draw.rects.size());
    for (DrawRect rect : right.draw.rects) {
        rect.x += dx;
        if (rect.hit >= 0) rect.hit += first_hit;
        view.draw.rects.push_back(rect);
    }
    for (DrawText text : right.draw.texts) {
        text.x += dx;
        view.draw.texts.push_back(std::move(text));
    }
    for (BankHit hit : right.hits) {
        hit.side = 1;
        view.hits.push_back(std::move(hit));
    }
    view.draw.width = dx + right.draw.width;
    view.draw.height = std::max(left.draw.height, right.draw.height);
    return view;
}

bool related_hits(const BankHit& hovered, const BankHit& other) {
    if (hovered.side != other.side || hovered.bank != other.bank || hovered.kind == other.kind) {
        return false;
    }
    return hovered.kind == BankHitKind::kBank || other.kind == BankHitKind::kBank ||
           (hovered.phase_mask & other.phase_mask) != 0;
}

std::string bank_hit_tooltip(const BankHit& hit) {
    switch (hit.kind) {
        case BankHitKind::kWord: {
            std::string text = "row " + std::to_string(hit.row) + ", bytes " +
                               std::to_string(hit.byte_col) + "-" +
                               std::to_string(hit.byte_col + kBankBytes - 1) + " -> address " +
                               std::to_string(hit.byte_addr) + ", bank " + std::to_string(hit.bank);
            if (hit.lanes.empty()) return text + "; no lane";
            std::vector<int> phases;
            for (int phase = 0; phase < 32; ++phase) {
                if (hit.phase_mask >> phase & 1u) phases.push_back(phase);
            }
            return text + "; lane" + (hit.lanes.size() == 1 ? " " : "s ") + ranges_text(hit.lanes) +
                   " (phase" + (phases.size() == 1 ? " " : "s ") + ranges_text(phases) + ")";
        }
        case BankHitKind::kBank:
            return "bank " + std::to_string(hit.bank) + ": bytes " +
                   std::to_string(hit.bank * kBankBytes) + "-" +
                   std::to_string(hit.bank * kBankBytes + kBankBytes - 1) + " of every " +
                   std::to_string(kBankCount * kBankBytes) + "-byte line";
        case BankHitKind::kHeat: {
            std::string text =
                "phase " + std::to_string(hit.phase) + ", bank " + std::to_string(hit.bank) + ": ";
            if (hit.degree == 0) return text + "idle";
            text += common::count_text(hit.degree, "distinct word");
            text += hit.degree == 1 ? " (conflict-free)"
                                    : " (" + std::to_string(hit.degree) + "-way conflict)";
            return text + "; lane" + (hit.lanes.size() == 1 ? " " : "s ") + ranges_text(hit.lanes);
        }
    }
    return "";
}

}  // namespace tclens::viz
