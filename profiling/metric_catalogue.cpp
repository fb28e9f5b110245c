#include "profiling/metric_catalogue.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <utility>

namespace tclens::profiling {
namespace {

MetricInfo range(std::string name, std::string label, std::string unit, std::string meaning,
                 bool in_default) {
    return MetricInfo{std::move(name),
                      std::move(label),
                      std::move(unit),
                      std::move(meaning),
                      MetricSource::kRangeProfiler,
                      in_default,
                      false};
}

MetricInfo launch(std::string name, std::string label, std::string unit, std::string meaning,
                  bool in_default) {
    return MetricInfo{std::move(name),
                      std::move(label),
                      std::move(unit),
                      std::move(meaning),
                      MetricSource::kLaunch,
                      in_default,
                      false};
}

MetricInfo pm(std::string name, std::string label, std::string meaning) {
    return MetricInfo{std::move(name),
                      std::move(label),
                      "%",
                      std::move(meaning),
                      MetricSource::kPmSampling,
                      false,
                      true};
}

// Names checked on an H100 (GH100) are listed in docs/cupti.md; the others are Nsight
// Compute names for the same counters and are validated against the chip before each use.
std::vector<MetricInfo> build_catalogue() {
    return {
        // ---- default set: range profiler
        range("gpu__time_duration.sum", "duration", "ns",
              "GPU time from the start of the range's first kernel to the end of its last one.",
              true),
        range("sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
              "tensor pipe", "%",
              "Tensor pipe busy: share of cycles the HMMA/HGMMA tensor pipe was active, on SMs "
              "that had work (counts mma.sync, wmma and, on Hopper, wgmma).",
              true),
        range("sm__inst_executed_pipe_tensor_op_gmma.sum", "wgmma instructions", "instructions",
              "Warp-group MMA (wgmma, HGMMA) instructions executed; 0 for mma.sync and wmma "
              "kernels, and only Hopper has the counter.",
              true),
        range("sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", "FMA pipe", "%",
              "FMA pipe busy: share of cycles the pipe of FFMA, FMUL, FADD and IMAD was active, "
              "on SMs that had work.",
              true),
        range("dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM throughput", "%",
              "DRAM traffic as a share of the peak DRAM bandwidth over the range's elapsed "
              "time.",
              true),
        range("dram__bytes_read.sum", "DRAM read", "bytes",
              "Bytes read from DRAM (HBM) into the L2 cache.", true),
        range("dram__bytes_write.sum", "DRAM written", "bytes",
              "Bytes written from the L2 cache back to DRAM (HBM).", true),
        range("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "smem load conflicts",
              "wavefronts",
              "Extra shared-memory wavefronts that loads (LDS, ldmatrix) needed beyond the "
              "conflict-free minimum: bank conflicts.",
              true),
        range("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "smem store conflicts",
              "wavefronts",
              "Extra shared-memory wavefronts that stores (STS) needed beyond the conflict-free "
              "minimum: bank conflicts.",
              true),
        range("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smem load wavefronts",
              "wavefronts",
              "Shared-memory wavefronts of loads (LDS and ldmatrix); one wavefront serves one "
              "conflict-free pass over the 32 banks.",
              true),
        range("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "smem store wavefronts",
              "wavefronts",
              "Shared-memory wavefronts of stores (STS); cp.async writes are not counted here.",
              true),
        range("lts__t_sector_hit_rate.pct", "L2 hit rate", "%",
              "Share of L2 sector requests that found their data in the L2 cache.", true),
        range("sm__warps_active.avg.pct_of_peak_sustained_active", "achieved occupancy", "%",
              "Warps resident per cycle as a share of the SM's maximum, on SMs that had work.",
              true),
        // ---- default set: launch facts (CUPTI activity records)
        launch("launch__registers_per_thread", "registers/thread", "registers",
               "Registers each thread of the kernel holds; with the block size it bounds how many "
               "blocks fit on an SM.",
               true),
        launch("launch__shared_mem_per_block_static", "static smem/block", "bytes",
               "Shared memory each block declares statically (__shared__ arrays).", true),
        launch("launch__shared_mem_per_block_dynamic", "dynamic smem/block", "bytes",
               "Shared memory each block asks for at launch (extern __shared__).", true),
        launch("launch__block_size", "block size", "threads", "Threads per block.", true),
        launch("launch__grid_size", "grid size", "blocks", "Blocks in the grid.", true),
        // ---- the rest: range profiler
        range("sm__inst_executed_pipe_tensor_op_hmma.sum", "mma instructions", "instructions",
              "Tensor-pipe MMA instructions executed (HMMA; on Hopper wgmma counts here too).",
              false),
        range("sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", "tensor pipe (all)",
              "%",
              "Share of cycles any tensor pipe (HMMA, IMMA, DMMA, HGMMA) was active, on SMs that "
              "had work.",
              false),
        range("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", "smem wavefronts (all)",
              "wavefronts",
              "All shared-memory wavefronts, including the writes of cp.async (LDGSTS).", false),
        range("smsp__inst_executed_op_ldsm.sum", "ldmatrix instructions", "instructions",
              "ldmatrix (LDSM) warp instructions executed.", false),
        range("smsp__inst_executed_op_shared_ld.sum", "LDS instructions", "instructions",
              "Shared-memory load (LDS) warp instructions executed.", false),
        range("sm__cycles_elapsed.avg.per_second", "SM clock", "Hz",
              "SM clock frequency over the range (Nsight Compute locks it to base by default; "
              "tclens does not).",
              false),
        // ---- the rest: launch facts
        launch("launch__occupancy_limit_registers", "blocks/SM by registers", "blocks",
               "Blocks that fit on one SM given the registers they hold.", false),
        launch("launch__occupancy_limit_shared_mem", "blocks/SM by shared memory", "blocks",
               "Blocks that fit on one SM given the shared memory they use (static, dynamic and "
               "the driver's reserve per block).",
               false),
        launch("launch__occupancy_limit_warps", "blocks/SM by warps", "blocks",
               "Blocks that fit on one SM given its maximum resident warps.", false),
        launch("launch__occupancy_limit_blocks", "blocks/SM by block slots", "blocks",
               "Blocks that fit on one SM given its maximum resident blocks.", false),
        // ---- PM sampling (one-pass set seen to work on an H100, CUPTI.md)
        pm("sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed",
           "tensor pipe (live)",
           "Share of elapsed cycles a tensor pipe was active, averaged over all SMs, per "
           "sample."),
        pm("FBSP.TriageCompute.dramc__throughput.avg.pct_of_peak_sustained_elapsed",
           "DRAM throughput (live)",
           "DRAM traffic as a share of the peak DRAM bandwidth, per sample."),
        pm("TPC.TriageCompute.sm__inst_executed_pipe_fma_realtime.avg.pct_of_peak_sustained_"
           "elapsed",
           "FMA issue (live)",
           "FMA-pipe instructions issued as a share of the peak issue rate, averaged over all "
           "SMs, per sample."),
    };
}

// "sm__x.avg.pct" -> ("sm__x", ".avg.pct"); the base is the dotted part holding "__", so a
// prefix such as "FBSP.TriageCompute." stays with it.
std::pair<std::string, std::string> split_base(std::string_view name) {
    const std::size_t unit_end = name.find("__");
    if (unit_end == std::string_view::npos) {
        return {std::string(name), ""};
    }
    const std::size_t dot = name.find('.', unit_end);
    if (dot == std::string_view::npos) {
        return {std::string(name), ""};
    }
    return {std::string(name.substr(0, dot)), std::string(name.substr(dot))};
}

// The words of a name or label: runs of letters and digits ("sm__pipe_fma" -> sm, pipe, fma).
std::vector<std::string> words(const std::string& text) {
    std::vector<std::string> out;
    std::string word;
    for (const char c : text + " ") {
        if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
            word += c;
        } else if (!word.empty()) {
            out.push_back(word);
            word.clear();
        }
    }
    return out;
}

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

}  // namespace

const std::vector<MetricInfo>& metric_catalogue() {
    static const std::vector<MetricInfo> catalogue = build_catalogue();
    return catalogue;
}

const MetricInfo* find_metric(std::string_view name) {
    for (const MetricInfo& info : metric_catalogue()) {
        if (info.name == name) {
            return &info;
        }
    }
    return nullptr;
}

std::vector<std::string> metric_set(std::string_view set_name) {
    std::vector<std::string> names;
    for (const MetricInfo& info : metric_catalogue()) {
        const bool wanted = (set_name == "default" && info.in_default_set) ||
                            (set_name == "all" && info.source != MetricSource::kPmSampling) ||
                            (set_name == "timeline" && info.in_timeline_set);
        if (wanted) {
            names.push_back(info.name);
        }
    }
    return names;
}

std::string metric_set_names() { return "default, all, timeline"; }

bool looks_like_metric_name(std::string_view name) {
    if (name.empty() || name.find("__") == std::string_view::npos || name.front() == '.' ||
        name.back() == '.') {
        return false;
    }
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.';
    });
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) {
        row[j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] =
                std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0u : 1u)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::vector<std::string> suggest_metrics(std::string_view unknown,
                                         const std::vector<std::string>& chip_metrics,
                                         std::size_t count) {
    const std::string query = lower(unknown);
    const auto [query_base, query_suffix] = split_base(query);
    struct Candidate {
        std::string name;
        std::size_t score;  // 0 for a containment match, else 1 + edit distance
    };
    std::vector<Candidate> candidates;
    // `compared` (a name, base, label or word standing for `name`) against `against`; a word
    // only matches by spelling and ranks below whole names and labels.
    auto consider = [&](const std::string& name, const std::string& compared,
                        const std::string& against, bool is_word = false) {
        const std::string text = lower(compared);
        std::size_t score = 0;
        const bool contains =
            !is_word && against.size() >= 4 &&
            (text.find(against) != std::string::npos || against.find(text) != std::string::npos);
        if (!contains) {
            const std::size_t distance = edit_distance(against, text);
            const std::size_t longer = std::max(against.size(), text.size());
            const bool close = is_word ? (distance == 0 && text.size() >= 2) ||
                                             (text.size() >= 4 && 4 * distance <= longer)
                                       : 3 * distance <= longer + 3;
            if (!close) {
                return;
            }
            score = (is_word ? 3 : 1) + distance;
        }
        for (Candidate& seen : candidates) {
            if (seen.name == name) {
                seen.score = std::min(seen.score, score);
                return;
            }
        }
        candidates.push_back({name, score});
    };
    for (const MetricInfo& info : metric_catalogue()) {
        consider(info.name, info.name, query);
        consider(info.name, split_base(info.name).first, query_base);
        consider(info.name, info.label, query);
        for (const std::string& word : words(info.name + " " + info.label)) {
            consider(info.name, word, query, true);  // "tensr" -> "tensor"
        }
    }
    for (const std::string& base : chip_metrics) {
        consider(base + query_suffix, base, query_base);
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.score < b.score; });
    std::vector<std::string> best;
    for (const Candidate& candidate : candidates) {
        if (best.size() == count) break;
        if (lower(candidate.name) != query) best.push_back(candidate.name);
    }
    return best;
}

std::string unknown_metric_message(std::string_view name,
                                   const std::vector<std::string>& suggestions,
                                   std::string_view where) {
    std::string message = "unknown metric '" + std::string(name) + "'" + std::string(where);
    if (!suggestions.empty()) {
        message += "; did you mean ";
        for (std::size_t i = 0; i < suggestions.size(); ++i) {
            if (i > 0) message += i + 1 == suggestions.size() ? " or " : ", ";
            message += suggestions[i];
        }
        message += "?";
    }
    return message + " (tclens profile --list-metrics shows the catalogue)";
}

std::string format_metric_value(double value, const std::string& unit) {
    char text[64];
    auto scaled = [&](const char* const* names, const double* scales, int count) {
        int pick = 0;
        while (pick + 1 < count && std::fabs(value) >= scales[pick + 1]) ++pick;
        const double shown = value / scales[pick];
        std::snprintf(text, sizeof text, pick == 0 ? "%.0f %s" : "%.3g %s", shown, names[pick]);
        return std::string(text);
    };
    if (unit == "%") {
        std::snprintf(text, sizeof text, "%.1f %%", value);
        return text;
    }
    if (unit == "ns") {
        const char* names[] = {"ns", "us", "ms", "s"};
        const double scales[] = {1, 1e3, 1e6, 1e9};
        return scaled(names, scales, 4);
    }
    if (unit == "bytes") {
        const char* names[] = {"B", "kB", "MB", "GB", "TB"};
        const double scales[] = {1, 1e3, 1e6, 1e9, 1e12};
        return scaled(names, scales, 5);
    }
    if (unit == "Hz") {
        const char* names[] = {"Hz", "kHz", "MHz", "GHz"};
        const double scales[] = {1, 1e3, 1e6, 1e9};
        return scaled(names, scales, 4);
    }
    std::string number;
    if (std::fabs(value - std::round(value)) < 1e-9 && std::fabs(value) < 1e18) {
        std::snprintf(text, sizeof text, "%.0f", std::fabs(value));
        const std::string digits = text;
        for (std::size_t i = 0; i < digits.size(); ++i) {
            if (i > 0 && (digits.size() - i) % 3 == 0) number += ',';
            number += digits[i];
        }
        if (value < 0) number = "-" + number;
    } else {
        std::snprintf(text, sizeof text, "%.3f", value);
        number = text;
    }
    return unit.empty() ? number : number + " " + unit;
}

}  // namespace tclens::profiling
