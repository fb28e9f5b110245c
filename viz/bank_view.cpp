#include "viz/bank_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

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

// Appends rects, texts and the hit targets they point to.
class ViewBuilder {
  public:
    ViewBuilder(float cell, const Palette& palette)
        : palette_(palette),
          grid_width_(cell >= 8.0f ? 1.0f : 0.0f),
          stroke_width_(std::max(2.0f, std::round(cell * 0.12f))) {}

    // The grid behind a block of cells at (x, y), w x h: the cells, inset by the grid width on
    // their top and left, let it show through as lines. One rect instead of an outline per
    // cell keeps large tiles cheap to paint.
    void backdrop(float x, float y, float w, float h) {
        if (grid_width_ <= 0.0f) return;
        view_.draw.rects.push_back(
            {x, y, w + grid_width_, h + grid_width_, palette_.grid, kTransparent, 0.0f, -1});
    }

    // A cell on a backdrop() that is a hover target; outlined in `stroke` when that is opaque.
    void target(float x, float y, float size, Rgba fill, Rgba stroke, BankHit hit) {
        const int index = static_cast<int>(view_.hits.size());
        if (stroke.a > 0) {
            view_.draw.rects.push_back(
                {x, y, size + grid_width_, size + grid_width_, fill, stroke, stroke_width_, index});
        } else {
            view_.draw.rects.push_back({x + grid_width_, y + grid_width_, size - grid_width_,
                                        size - grid_width_, fill, kTransparent, 0.0f, index});
        }
        view_.hits.push_back(std::move(hit));
    }

    void outline(float x, float y, float w, float h, Rgba colour) {
        view_.draw.rects.push_back({x, y, w, h, kTransparent, colour, stroke_width_, -1});
    }

    void swatch(float x, float y, float size, Rgba fill) {
        view_.draw.rects.push_back({x, y, size, size, fill, palette_.grid, 1.0f, -1});
    }

    void text(float x, float y, float size, Rgba colour, TextAlign align, std::string text) {
        view_.draw.texts.push_back({x, y, size, colour, align, std::move(text)});
    }

    // One line centred in the cell at (x, y), readable on `fill`.
    void cell_label(float x, float y, float cell, Rgba fill, std::string label) {
        const float size = cell * kLabelLine;
        text(x + 0.5f * cell, y + 0.5f * (cell - size), size, label_colour_on(palette_, fill),
             TextAlign::kCenter, std::move(label));
    }

    BankView& view() { return view_; }
    BankView take() { return std::move(view_); }

  private:
    const Palette& palette_;
    const float grid_width_;
    const float stroke_width_;
    BankView view_;
};

}  // namespace

std::string ranges_text(const std::vector<int>& values, const std::string& separator,
                        const std::string& empty) {
    std::string text;
    for (size_t i = 0; i < values.size();) {
        size_t j = i;
        while (j + 1 < values.size() && values[j + 1] == values[j] + 1) ++j;
        text += (text.empty() ? "" : separator) + std::to_string(values[i]);
        if (j > i) text += "-" + std::to_string(values[j]);
        i = j + 1;
    }
    return text.empty() ? empty : text;
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
    const float cell = options.cell;
    const bool labels = cell >= kMinLabelCell;
    const Tile& tile = report.tile;
    const int words = tile.row_bytes / kBankBytes;

    ViewBuilder builder(cell, palette);
    BankView& view = builder.view();
    view.draw.background = palette.background;

    static const RequestReport kNoRequest;
    const RequestReport& request =
        report.requests.empty()
            ? kNoRequest
            : report.requests[static_cast<size_t>(
                  std::clamp(options.request, 0, static_cast<int>(report.requests.size()) - 1))];
    const int phases = static_cast<int>(request.phases.size());
    const int shown_phase = options.phase >= 0 && options.phase < phases ? options.phase : -1;

    // Left gutter: wide enough for "bank", row numbers and phase names.
    const size_t widest_axis_label =
        std::max({sizeof "bank" - 1, std::to_string(std::max(tile.rows - 1, 0)).size(),
                  std::to_string(phases).size() + 1});
    const float gutter = text_width(widest_axis_label, kAxisSize) + kAxisGap;
    const float x0 = kMargin + gutter;
    float right = x0;
    float y = kMargin;

    const std::string title = "swizzle " + report.swizzle.spec + ": " + report.pattern.name +
                              " on " + std::to_string(tile.rows) + " x " +
                              std::to_string(tile.row_bytes) + " bytes";
    builder.text(kMargin, y, kTitleSize, palette.text, TextAlign::kLeft, title);
    right = std::max(right, kMargin + text_width(title.size(), kTitleSize));
    y += kTitleSize + kLineGap;
    const std::string totals = totals_text(report);
    builder.text(kMargin, y, kLineSize, palette.text, TextAlign::kLeft, totals);
    right = std::max(right, kMargin + text_width(totals.size(), kLineSize));
    y += kLineSize + kSectionGap;

    // Heatmap: a header of bank swatches, then (bank, phase) -> bank_words[bank].
    const float heat_width = static_cast<float>(kBankCount) * cell;
    builder.text(kMargin, y + 0.5f * (cell - kAxisSize), kAxisSize, palette.text, TextAlign::kLeft,
                 "bank");
    builder.backdrop(x0, y, heat_width, static_cast<float>(1 + phases) * cell);
    for (int bank = 0; bank < kBankCount; ++bank) {
        const float bx = x0 + static_cast<float>(bank) * cell;
        const Rgba fill = bank_colour(banks, bank);
        BankHit hit;
        hit.kind = BankHitKind::kBank;
        hit.bank = bank;
        builder.target(bx, y, cell, fill, kTransparent, std::move(hit));
        if (labels) builder.cell_label(bx, y, cell, fill, std::to_string(bank));
    }
    const float heat_top = y + cell;
    float wf_right = x0 + heat_width;
    for (const PhaseReport& phase : request.phases) {
        const float py = heat_top + static_cast<float>(phase.index) * cell;
        builder.text(kMargin, py + 0.5f * (cell - kAxisSize), kAxisSize, palette.text,
                     TextAlign::kLeft, "p" + std::to_string(phase.index));
        for (int bank = 0; bank < kBankCount; ++bank) {
            const float bx = x0 + static_cast<float>(bank) * cell;
            const int degree = phase.bank_words[static_cast<size_t>(bank)];
            const Rgba fill = conflict_colour(banks, degree);
            BankHit hit;
            hit.kind = BankHitKind::kHeat;
            hit.bank = bank;
            hit.phase = phase.index;
            hit.degree = degree;
            hit.phase_mask = std::uint32_t{1} << phase.index;
            hit.lanes = phase.bank_lanes[static_cast<size_t>(bank)];
            builder.target(bx, py, cell, fill, kTransparent, std::move(hit));
            if (labels && degree > 0) {
                builder.cell_label(bx, py, cell, fill, std::to_string(degree));
            }
        }
        const std::string wavefronts = std::to_string(phase.wavefronts) + " wf";
        builder.text(x0 + heat_width + kAxisGap, py + 0.5f * (cell - kAxisSize), kAxisSize,
                     palette.text, TextAlign::kLeft, wavefronts);
        wf_right = std::max(wf_right,
                            x0 + heat_width + kAxisGap + text_width(wavefronts.size(), kAxisSize));
    }
    if (shown_phase >= 0) {
        builder.outline(x0, heat_top + static_cast<float>(shown_phase) * cell, heat_width + 1.0f,
                        cell + 1.0f, palette.text);
    }
    right = std::max(right, wf_right);
    y = heat_top + static_cast<float>(phases) * cell + kSectionGap;

    // Legend: idle, then one swatch per conflict bucket.
    {
        const std::string caption = "distinct words per bank:";
        builder.text(kMargin, y, kAxisSize, palette.text, TextAlign::kLeft, caption);
        float lx = kMargin + text_width(caption.size(), kAxisSize) + kAxisGap;
        for (int bucket = -1; bucket < kConflictBuckets; ++bucket) {
            const std::string label = bucket < 0 ? "0" : conflict_bucket_label(bucket);
            const Rgba fill =
                bucket < 0
                    ? banks.idle
                    : banks.heat[std::min(static_cast<size_t>(bucket), banks.heat.size() - 1)];
            builder.swatch(lx, y - 0.5f * (kLegendSwatch - kAxisSize), kLegendSwatch, fill);
            lx += kLegendSwatch + 4.0f;
            builder.text(lx, y, kAxisSize, palette.text, TextAlign::kLeft, label);
            lx += text_width(label.size(), kAxisSize) + 10.0f;
        }
        right = std::max(right, lx);
        y += kLegendSwatch + kSectionGap;
    }

    // Caption: which lanes the tile highlights.
    std::string caption;
    if (shown_phase >= 0) {
        const PhaseReport& phase = request.phases[static_cast<size_t>(shown_phase)];
        caption = "phase " + std::to_string(shown_phase) + " of " + std::to_string(phases) +
                  ": lanes " + ranges_text(phase.lanes) + ", " + std::to_string(phase.wavefronts) +
                  " wavefront" + (phase.wavefronts == 1 ? "" : "s");
    } else {
        std::vector<int> lanes;
        for (const LaneBanks& lane : request.lanes) lanes.push_back(lane.lane);
        caption = "all " + std::to_string(phases) + " phase" + (phases == 1 ? "" : "s") +
                  ": lanes " + ranges_text(lanes) + ", " + std::to_string(request.wavefronts) +
                  " wavefront" + (request.wavefronts == 1 ? "" : "s");
    }
    builder.text(kMargin, y, kLineSize, palette.text, TextAlign::kLeft, caption);
    right = std::max(right, kMargin + text_width(caption.size(), kLineSize));
    y += kLineSize + kLineGap;

    // Byte offsets every 16 bytes, when they fit.
    const int widest_offset = static_cast<int>(std::to_string(tile.row_bytes).size());
    if (text_width(static_cast<size_t>(widest_offset), kAxisSize) <= kWordsPerChunk * cell) {
        for (int word = 0; word < words; word += kWordsPerChunk) {
            builder.text(x0 + static_cast<float>(word) * cell, y, kAxisSize, palette.text,
                         TextAlign::kLeft, std::to_string(word * kBankBytes));
        }
    }
    y += kAxisSize + kLineGap;

    // The tile: (row, word) -> bank of its physical address, touched words highlighted.
    const WordTouches touches = word_touches(request, tile.rows, words);
    const size_t cells = static_cast<size_t>(tile.rows) * static_cast<size_t>(words);
    view.draw.rects.reserve(view.draw.rects.size() + cells + 1);
    view.hits.reserve(view.hits.size() + cells);
    builder.backdrop(x0, y, static_cast<float>(words) * cell, static_cast<float>(tile.rows) * cell);
    int row_label_step = 1;
    while (static_cast<float>(row_label_step) * cell < kAxisSize ||
           tile.rows / row_label_step > kMaxRowLabels) {
        row_label_step *= 2;
    }
    const std::uint32_t shown_mask =
        shown_phase >= 0 ? std::uint32_t{1} << shown_phase : ~std::uint32_t{0};
    for (int row = 0; row < tile.rows; ++row) {
        const float ry = y + static_cast<float>(row) * cell;
        if (row % row_label_step == 0) {
            builder.text(kMargin, ry + 0.5f * (cell - kAxisSize), kAxisSize, palette.text,
                         TextAlign::kLeft, std::to_string(row));
        }
        for (int word = 0; word < words; ++word) {
            const float wx = x0 + static_cast<float>(word) * cell;
            BankHit hit;
            hit.kind = BankHitKind::kWord;
            hit.row = row;
            hit.byte_col = word * kBankBytes;
            hit.byte_addr = physical_address(report.swizzle, tile, row, hit.byte_col);
            hit.bank = bank_of(hit.byte_addr);
            const int touch = touches.index[static_cast<size_t>(row) * words + word];
            const Rgba bank_fill = bank_colour(banks, hit.bank);
            if (touch < 0) {
                builder.target(wx, ry, cell, mix(bank_fill, palette.background, kDimming),
                               kTransparent, std::move(hit));
                continue;
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
                builder.target(wx, ry, cell, mix(bank_fill, palette.background, kDimming),
                               kTransparent, std::move(hit));
                continue;
            }
            builder.target(wx, ry, cell, bank_fill, palette.text, std::move(hit));
            if (labels) {
                std::sort(shown_lanes.begin(), shown_lanes.end());
                builder.cell_label(
                    wx, ry, cell, bank_fill,
                    std::to_string(shown_lanes.front()) + (shown_lanes.size() > 1 ? "+" : ""));
            }
        }
    }
    right = std::max(right, x0 + static_cast<float>(words) * cell);
    y += static_cast<float>(tile.rows) * cell;

    view.draw.width = std::ceil(right + kMargin);
    view.draw.height = std::ceil(y + kMargin);
    return builder.take();
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
            text += std::to_string(hit.degree) + " distinct word" + (hit.degree == 1 ? "" : "s");
            text += hit.degree == 1 ? " (conflict-free)"
                                    : " (" + std::to_string(hit.degree) + "-way conflict)";
            return text + "; lane" + (hit.lanes.size() == 1 ? " " : "s ") + ranges_text(hit.lanes);
        }
    }
    return "";
}

}  // namespace tclens::viz
