#include "app/gui/views/source_view.h"

#include <algorithm>
#include <cmath>

#include "common/expected.h"
#include "common/text.h"
#include "kernels/shared_access.h"
#include "profiling/bank_result.h"
#include "profiling/metric_catalogue.h"
#include "profiling/source/stall_reasons.h"
#include "viz/bank_model.h"

namespace tclens::gui {
namespace {

std::string count(std::uint64_t value) {
    return profiling::format_metric_value(static_cast<double>(value), "");
}

}  // namespace

const char* sass_order_name(SassOrder order) {
    return order == SassOrder::kAddress ? "address" : "hottest";
}

std::optional<SassOrder> parse_sass_order(const std::string& text) {
    if (text == "address") return SassOrder::kAddress;
    if (text == "hottest") return SassOrder::kHottest;
    return std::nullopt;
}

std::vector<std::size_t> sass_rows(const profiling::SourceProfile& profile, SassOrder order) {
    if (order == SassOrder::kHottest) {
        return profiling::hottest_instructions(profile, profile.instructions.size());
    }
    std::vector<std::size_t> rows(profile.instructions.size());
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
    return rows;  // join_source_profile keeps each function's instructions in pc order
}

double heat_fraction(std::uint64_t value, std::uint64_t max) {
    if (value == 0 || max == 0) return 0.0;
    return std::min(1.0, std::sqrt(static_cast<double>(value) / static_cast<double>(max)));
}

std::optional<viz::Rgba> heat_colour(const viz::BankPalette& ramp, double fraction) {
    if (fraction <= 0) return std::nullopt;
    const int bucket = std::clamp(static_cast<int>(std::ceil(fraction * viz::kConflictBuckets)) - 1,
                                  0, viz::kConflictBuckets - 1);
    return ramp.heat[static_cast<std::size_t>(bucket)];
}

std::uint64_t column_value(const profiling::InstructionProfile& instruction, HeatColumn column) {
    return column == HeatColumn::kSamples ? instruction.samples : instruction.shared_conflicts;
}

std::uint64_t column_value(const profiling::LineProfile& line, HeatColumn column) {
    return column == HeatColumn::kSamples ? line.samples : line.shared_conflicts;
}

std::uint64_t column_max(const profiling::SourceProfile& profile, HeatColumn column) {
    std::uint64_t max = 0;
    for (const auto& instruction : profile.instructions) {
        max = std::max(max, column_value(instruction, column));
    }
    return max;
}

std::uint64_t column_max(const profiling::SourceFile& file, HeatColumn column) {
    std::uint64_t max = 0;
    for (const auto& line : file.lines) max = std::max(max, column_value(line, column));
    return max;
}

SourcePlace place_of_instruction(const profiling::SourceProfile& profile, std::size_t index,
                                 int preferred_file) {
    if (index >= profile.instructions.size()) return {};
    const auto& frames = profile.instructions[index].frames;
    if (frames.empty()) return {};
    const auto place_in = [&](int file) -> std::optional<SourcePlace> {
        if (file < 0 || file >= static_cast<int>(profile.files.size())) return std::nullopt;
        const std::string& path = profile.files[static_cast<std::size_t>(file)].path;
        for (const auto& frame : frames) {  // innermost first: the line the file attributes it to
            if (frame.file == path) return SourcePlace{file, frame.line};
        }
        return std::nullopt;
    };
    if (const auto preferred = place_in(preferred_file)) return *preferred;
    if (const auto outermost = place_in(find_source_file(profile, frames.back().file))) {
        return *outermost;
    }
    return {};
}

std::vector<std::size_t> instructions_of_place(const profiling::SourceProfile& profile,
                                               const SourcePlace& place) {
    if (place.file < 0 || place.file >= static_cast<int>(profile.files.size())) return {};
    for (const auto& line : profile.files[static_cast<std::size_t>(place.file)].lines) {
        if (line.line == place.line) return line.instructions;
    }
    return {};
}

int find_source_file(const profiling::SourceProfile& profile, const std::string& path) {
    for (std::size_t i = 0; i < profile.files.size(); ++i) {
        const std::string& file = profile.files[i].path;
        if (file == path || common::ends_with(file, "/" + path)) return static_cast<int>(i);
    }
    return -1;
}

std::vector<StallLine> stall_lines(const profiling::SourceProfile& profile, std::size_t count) {
    std::vector<StallLine> lines;
    for (const profiling::StallShare& share : profile.stalls) {
        if (lines.size() >= count) break;
        const profiling::StallReasonInfo info = profiling::stall_reason_or_unknown(share.key);
        lines.push_back({info.label, info.meaning, share.share_pct});
    }
    return lines;
}

std::optional<AccessComparison> compare_with_bank_model(
    const profiling::InstructionProfile& instruction) {
    if (instruction.shared_conflicts == 0 || instruction.shared_access.empty()) return std::nullopt;
    AccessComparison comparison;
    comparison.access = instruction.shared_access;
    comparison.measured = instruction.executed > 0
                              ? static_cast<double>(instruction.shared_wavefronts) /
                                    static_cast<double>(instruction.executed)
                              : 0.0;
    const common::Expected<kernels::KernelAccess> access =
        kernels::parse_kernel_access(instruction.shared_access);
    if (!access) {
        comparison.model_error = access.error();
        return comparison;
    }
    const common::Expected<viz::BankReport> report =
        viz::bank_requests(access->swizzle, access->pattern, access->tile);
    if (!report) {
        comparison.model_error = report.error();
        return comparison;
    }
    comparison.modelled = profiling::model_wavefronts_per_request(*report);
    return comparison;
}

PanelLink banks_link(const std::string& access, bool gpu) {
    PanelLink link{"banks", {"pattern=" + access}};
    if (gpu) link.settings.push_back("measure=on");
    return link;
}

const profiling::SourceProfile* recorded_source(const profiling::Recording& recording,
                                                const std::string& kernel_id) {
    for (const profiling::SourceProfile& source : profiling::sources_of(recording)) {
        if (source.kernel_id == kernel_id) return &source;
    }
    return nullptr;
}

std::string recorded_source_kernels(const profiling::Recording& recording) {
    if (recording.bulk && !recording.bulk->error().empty()) {
        return "none (they could not be read: " + recording.bulk->error() + ")";
    }
    return common::join(profiling::sources_of(recording), ", ",
                        [](const profiling::SourceProfile& source) { return source.kernel_id; });
}

std::string source_summary(const profiling::SourceProfile& profile) {
    std::string text = count(profile.instructions.size()) + " instructions, " +
                       count(profile.total_samples()) + " samples";
    if (profile.period_log2 > 0)
        text += " (every 2^" + std::to_string(profile.period_log2) + " cycles)";
    text += profile.has_sass()
                ? (profile.has_line_info() ? ", SASS with CUDA lines" : ", SASS without CUDA lines")
                : ", no SASS text";
    if (profile.total_ms > 0) {
        text += ", answered in " +
                count(static_cast<std::uint64_t>(std::lround(profile.total_ms))) + " ms";
    }
    return text;
}

std::vector<std::string> source_notes(const profiling::SourceProfile& profile) {
    std::vector<std::string> notes;
    const std::pair<const char*, const std::string*> parts[] = {
        {"SASS", &profile.sass_missing},
        {"CUDA lines", &profile.line_info_missing},
        {"PC sampling", &profile.sampling_missing},
        {"per-instruction counts", &profile.counters_missing},
        {"Range Profiler totals", &profile.totals_missing}};
    for (const auto& [what, why] : parts) {
        if (!why->empty()) notes.push_back(std::string(what) + ": " + *why);
    }
    for (const profiling::TotalsCheck& check : profile.checks) {
        if (check.available && !check.equal()) {
            notes.push_back(check.what + ": the instructions add up to " +
                            count(static_cast<std::uint64_t>(check.instruction_sum)) +
                            ", the Range Profiler says " +
                            count(static_cast<std::uint64_t>(check.range_total)));
        }
    }
    return notes;
}

SourceSnapshot source_snapshot(std::shared_ptr<const profiling::SourceProfile> profile,
                               const SourceChoices& choices, std::size_t stall_count) {
    SourceSnapshot snapshot;
    snapshot.choices = choices;
    snapshot.profile = std::move(profile);
    if (!snapshot.profile) return snapshot;
    const profiling::SourceProfile& shown = *snapshot.profile;
    snapshot.summary = source_summary(shown);
    snapshot.notes = source_notes(shown);
    snapshot.stalls = stall_lines(shown, stall_count);
    snapshot.rows = sass_rows(shown, choices.order);
    snapshot.of_place = instructions_of_place(shown, choices.place);
    for (const HeatColumn column : {HeatColumn::kSamples, HeatColumn::kConflicts}) {
        const auto at = static_cast<std::size_t>(column);
        snapshot.sass_max[at] = column_max(shown, column);
        if (choices.file >= 0 && static_cast<std::size_t>(choices.file) < shown.files.size()) {
            snapshot.file_max[at] =
                column_max(shown.files[static_cast<std::size_t>(choices.file)], column);
        }
    }
    if (choices.instruction < shown.instructions.size()) {
        snapshot.comparison = compare_with_bank_model(shown.instructions[choices.instruction]);
    }
    return snapshot;
}

}  // namespace tclens::gui
