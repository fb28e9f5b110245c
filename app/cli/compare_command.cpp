// `tclens compare A.json [B.json ...] [--runs RUN,...] [--json]`: the Compare panel's table
// headless. Runs of every recording given (one GPU at two times, or two GPUs) side by side, each
// column headed by a letter, the key under the table naming its kernel, size and, with several
// recordings, the GPU and date it was recorded on; no line longer than 120 characters (columns
// that do not fit wrap into bands below, each repeating the metric labels); one row per metric with
// each run's value and, after the first run (the baseline), its change in % and whether that is
// better or worse for the metric (app/gui/views/compare_runs.h, viz/compare_table.h). Without
// --runs: the panel's default, the best rung of each precision and its cuBLAS. A file that cannot
// be read: one line, exit 1; a bad run id: exit 2.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/exit_codes.h"
#include "app/gui/views/compare_runs.h"
#include "kernels/problem_text.h"
#include "viz/compare_table.h"

namespace tclens::cli {
namespace {

const char* better_name(viz::Better better) {
    switch (better) {
        case viz::Better::kHigher:
            return "higher";
        case viz::Better::kLower:
            return "lower";
        case viz::Better::kNeither:
            return "neither";
    }
    return "neither";
}

const char* change_name(viz::Change change) {
    switch (change) {
        case viz::Change::kBetter:
            return "better";
        case viz::Change::kWorse:
            return "worse";
        case viz::Change::kNeutral:
            return "changed";
        case viz::Change::kNone:
            return "";
    }
    return "";
}

// The cell of run c in `row`: its text, padded to `value_width`, and after the baseline "+12.3%
// better" ("same" for no change).
std::string cell_text(const viz::CompareRow& row, size_t c, size_t value_width) {
    std::string text = c < row.texts.size() ? row.texts[c] : "-";
    if (c == 0 || c >= row.values.size() || row.values.empty()) return text;
    const double pct = viz::delta_pct(row.values[0], row.values[c]);
    if (std::isnan(pct)) return text;
    const std::string change = change_name(viz::judge_change(row.better, pct));
    text.resize(std::max(text.size(), value_width), ' ');
    return text + "  " + viz::delta_text(pct) + (change.empty() ? "" : " " + change);
}

constexpr size_t kMaxLine = 120;  // no printed line is longer
constexpr size_t kGap = 3;        // spaces between columns

void print_line(const std::string& text) {
    std::string line = text;
    line.erase(line.find_last_not_of(' ') + 1);
    std::printf("%s\n", line.c_str());
}

// The table in bands of columns no wider than kMaxLine (viz::column_bands), each band headed by
// the runs' keys ("A", "B" ...), then the key naming each run in full.
void print_table(const std::vector<viz::CompareColumn>& columns,
                 const std::vector<viz::CompareRow>& rows) {
    // Per column its lines: the key, "(baseline)" or "", then one cell per row.
    std::vector<std::vector<std::string>> cells(columns.size() + 1);
    cells[0] = {"metric", ""};
    for (const viz::CompareRow& row : rows) cells[0].push_back(row.label);
    std::vector<size_t> width(cells.size(), 0);
    std::vector<float> band_widths;
    for (size_t c = 0; c < columns.size(); ++c) {
        cells[c + 1] = {viz::column_key(c), c == 0 ? "(baseline)" : ""};
        size_t value_width = 0;
        for (const viz::CompareRow& row : rows) {
            value_width = std::max(value_width, c < row.texts.size() ? row.texts[c].size() : 1);
        }
        for (const viz::CompareRow& row : rows) {
            cells[c + 1].push_back(cell_text(row, c, value_width));
        }
    }
    for (size_t c = 0; c < cells.size(); ++c) {
        for (const std::string& cell : cells[c]) width[c] = std::max(width[c], cell.size());
        if (c > 0) band_widths.push_back(float(width[c] + kGap));
    }
    const std::vector<size_t> bands = viz::column_bands(band_widths, float(width[0]), kMaxLine);
    for (size_t band = 0; band < bands.size(); ++band) {
        const size_t end = band + 1 < bands.size() ? bands[band + 1] : columns.size();
        size_t total = width[0];
        for (size_t c = bands[band]; c < end; ++c) total += kGap + width[c + 1];
        if (band > 0) std::printf("\n");
        for (size_t l = 0; l < cells[0].size(); ++l) {
            std::string text = cells[0][l] + std::string(width[0] - cells[0][l].size(), ' ');
            for (size_t c = bands[band] + 1; c <= end; ++c) {
                text += std::string(kGap, ' ') + cells[c][l] +
                        std::string(width[c] - cells[c][l].size(), ' ');
            }
            print_line(text);
            if (l == 1) std::printf("%s\n", std::string(std::min(total, kMaxLine), '-').c_str());
        }
    }
    std::printf("\n");
    for (size_t c = 0; c < columns.size(); ++c) {
        const std::string key = viz::column_key(c) + "  ";
        print_line(key + columns[c].title + "  " + columns[c].subtitle +
                   (c == 0 ? " (baseline)" : ""));
        if (!columns[c].source.empty()) {
            print_line(std::string(key.size(), ' ') + columns[c].source);
        }
    }
}

nlohmann::json number_or_null(double value) {
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json();
}

nlohmann::json comparison_json(const std::vector<gui::CompareSource>& sources,
                               const std::vector<std::string>& paths,
                               const std::vector<const gui::CompareRun*>& runs,
                               const std::vector<viz::CompareRow>& rows,
                               const std::vector<std::string>& missing) {
    nlohmann::json out;
    out["sources"] = nlohmann::json::array();
    for (size_t i = 0; i < sources.size(); ++i) {
        out["sources"].push_back({{"key", sources[i].key},
                                  {"path", paths[i]},
                                  {"label", sources[i].label},
                                  {"runs", sources[i].runs.size()}});
    }
    out["runs"] = nlohmann::json::array();
    for (const gui::CompareRun* run : runs) {
        out["runs"].push_back({{"key", run->key()},
                               {"kernel", run->kernel_id},
                               {"size", kernels::problem_text(run->problem)},
                               {"source", run->source_key},
                               {"tflops", number_or_null(run->tflops > 0 ? run->tflops : NAN)},
                               {"tflops_from_profile", run->tflops_from_profile}});
    }
    out["rows"] = nlohmann::json::array();
    for (const viz::CompareRow& row : rows) {
        nlohmann::json values = nlohmann::json::array(), deltas = nlohmann::json::array();
        for (size_t c = 0; c < runs.size(); ++c) {
            const double value = c < row.values.size() ? row.values[c] : NAN;
            values.push_back(number_or_null(value));
            deltas.push_back(c == 0 ? nlohmann::json()
                                    : number_or_null(viz::delta_pct(row.values[0], value)));
        }
        out["rows"].push_back({{"metric", row.label},
                               {"better", better_name(row.better)},
                               {"values", values},
                               {"texts", row.texts},
                               {"delta_pct", deltas}});
    }
    out["missing"] = missing;
    return out;
}

}  // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "compare",
        "Compare kernel runs of one or more recordings side by side, as the Compare panel's "
        "table (each run's metrics and its change from the first run)");
    struct Options {
        std::vector<std::string> paths;
        std::string runs;
        bool json = false;
    };
    auto options = std::make_shared<Options>();
    command->add_option("recordings", options->paths, "Recording files (tclens record)")
        ->required();
    command->add_option("--runs", options->runs,
                        "Runs to compare, the first the baseline: KERNEL@MxNxK (the first "
                        "recording's that has it) or FILE:KERNEL@MxNxK, comma-separated "
                        "(default: the best rung of each precision and its cuBLAS)");
    command->add_flag("--json", options->json, "Machine-readable output");
    command->callback([options, &exit_code] {
        std::vector<std::string> entries;
        if (!options->runs.empty()) {
            std::string error;
            entries = gui::parse_compare_run_ids(options->runs, error);
            if (!error.empty()) {
                std::fprintf(stderr, "tclens: --runs: %s\n", error.c_str());
                exit_code = kExitUsage;
                return;
            }
        }
        std::vector<profiling::Recording> recordings(options->paths.size());
        for (size_t i = 0; i < options->paths.size(); ++i) {
            std::string error;
            if (!profiling::load_recording(options->paths[i], recordings[i], error)) {
                std::fprintf(stderr, "tclens: %s\n", error.c_str());
                exit_code = kExitFailure;
                return;
            }
        }
        std::vector<std::pair<std::string, const profiling::Recording*>> open;
        for (size_t i = 0; i < recordings.size(); ++i) {
            open.emplace_back(options->paths[i], &recordings[i]);
        }
        const std::vector<gui::CompareSource> sources = gui::recording_compare_sources(open);
        if (entries.empty()) entries = gui::default_compare_runs(sources);
        std::vector<const gui::CompareRun*> runs;
        std::vector<std::string> missing;
        for (const gui::ResolvedRun& resolved : gui::resolve_compare_runs(sources, entries)) {
            if (resolved.run) {
                runs.push_back(resolved.run);
            } else {
                missing.push_back(resolved.missing);
            }
        }
        const std::vector<viz::CompareColumn> columns = gui::compare_columns(runs);
        const std::vector<viz::CompareRow> rows = gui::compare_rows(runs);
        if (options->json) {
            std::printf(
                "%s\n",
                comparison_json(sources, options->paths, runs, rows, missing).dump(2).c_str());
        } else {
            for (const gui::CompareSource& source : sources) {
                std::printf("%s\n", source.caption.c_str());
            }
            std::printf("\n");
            if (!runs.empty()) print_table(columns, rows);
        }
        for (const std::string& line : missing) std::fprintf(stderr, "tclens: %s\n", line.c_str());
        if (runs.empty()) {
            std::fprintf(stderr,
                         "tclens: nothing to compare: the recordings have no verified run%s\n",
                         entries.empty() ? "" : " of those asked for");
            exit_code = kExitFailure;
            return;
        }
        exit_code = kExitOk;
    });
}

}  // namespace tclens::cli
