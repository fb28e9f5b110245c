#pragma once
// What the Source panel shows of a source profile (profiling/source/source_profile.h), as plain
// data, without ImGui: the SASS rows in address or "hottest" order, heat for a cell, the link
// between a SASS instruction and its CUDA line both ways, the kernel's stall reasons with their
// sentence, and, for a conflicting shared-memory instruction of a rung, the bank lab's model of
// its access beside what the GPU measured. Pure; tested in tests/unit/app/gui/views/.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/jobs/panel_link.h"
#include "kernels/sass_census/instruction_counts.h"
#include "profiling/recording.h"
#include "profiling/source/source_profile.h"
#include "viz/palette.h"

namespace tclens::gui {

enum class SassOrder { kAddress, kHottest };

// "address" / "hottest" and back; nullopt for any other text.
const char* sass_order_name(SassOrder order);
std::optional<SassOrder> parse_sass_order(const std::string& text);

// What the heat columns colour by.
enum class HeatColumn { kSamples, kConflicts };

// Indices into profile.instructions in display order: by (function, pc), or by samples then
// executions (hottest first).
std::vector<std::size_t> sass_rows(const profiling::SourceProfile& profile, SassOrder order);

// value -> 0..1 against the largest value of its column, on a square-root scale so that a
// tenth of the hottest still shows: 0 -> 0, max -> 1, max / 4 -> 0.5.
double heat_fraction(std::uint64_t value, std::uint64_t max);

// A heat colour for `fraction` from a conflict ramp (the theme's BankPalette::heat): nullopt for 0
// (no fill), else the ramp's bucket for fraction, the last one for 1.
std::optional<viz::Rgba> heat_colour(const viz::BankPalette& ramp, double fraction);

// The largest value of a column over the instructions, and over one file's lines.
std::uint64_t column_max(const profiling::SourceProfile& profile, HeatColumn column);
std::uint64_t column_max(const profiling::SourceFile& file, HeatColumn column);
std::uint64_t column_value(const profiling::InstructionProfile& instruction, HeatColumn column);
std::uint64_t column_value(const profiling::LineProfile& line, HeatColumn column);

// A place in the source: profile.files[file], line `line` (1-based); file -1 for none.
struct SourcePlace {
    int file = -1;
    int line = 0;
    bool operator==(const SourcePlace& other) const {
        return file == other.file && line == other.line;
    }
};

// The CUDA line of instruction `index`: in `preferred_file` if the instruction passes through it,
// else in the file of its outermost frame (the kernel's own). {-1, 0} without line info.
SourcePlace place_of_instruction(const profiling::SourceProfile& profile, std::size_t index,
                                 int preferred_file);

// The instructions attributed to `place` (profile.files[place.file].lines), in address order.
std::vector<std::size_t> instructions_of_place(const profiling::SourceProfile& profile,
                                               const SourcePlace& place);

// The index of the file whose path is `path` or ends in "/path", -1 when none.
int find_source_file(const profiling::SourceProfile& profile, const std::string& path);

// One row of the "why the warps wait" list.
struct StallLine {
    std::string label;
    std::string meaning;
    double share_pct = 0;
};
std::vector<StallLine> stall_lines(const profiling::SourceProfile& profile, std::size_t count);

// The bank lab's model of a linked shared-memory instruction next to the GPU's measurement.
struct AccessComparison {
    std::string access;       // "KERNEL/LABEL"
    double measured = 0;      // wavefronts per executed instruction, from the profile
    double modelled = 0;      // the bank model's wavefronts per request
    std::string model_error;  // why there is no model value, or ""
};
// nullopt unless the instruction conflicts and links to one declared access.
std::optional<AccessComparison> compare_with_bank_model(
    const profiling::InstructionProfile& instruction);

// Opens the Banks panel on `access` ("KERNEL/LABEL": its pattern on the kernel's tile, the
// kernel's swizzle on the right) and, with a GPU, measures it there too, so the bank probe's
// measurement stands beside the model.
PanelLink banks_link(const std::string& access, bool gpu);

// The profile of `kernel_id` in `recording`, or nullptr.
const profiling::SourceProfile* recorded_source(const profiling::Recording& recording,
                                                const std::string& kernel_id);

// The kernels `recording` has source profiles of, comma-separated ("" for none).
std::string recorded_source_kernels(const profiling::Recording& recording);

// One line: "1,234 instructions, 456,789 samples (every 2^12 cycles), SASS with CUDA lines" or what
// is missing.
std::string source_summary(const profiling::SourceProfile& profile);

// The notes of the missing parts, each "what: why".
std::vector<std::string> source_notes(const profiling::SourceProfile& profile);

// What the Source panel shows of one profile under its choices, computed once when the profile or
// a choice changes, so that a frame only draws (source_snapshot; SourcePanel keeps the newest).
struct SourceChoices {
    SassOrder order = SassOrder::kAddress;
    int file = 0;                      // index into profile.files (clamped)
    SourcePlace place;                 // the selected line
    std::size_t instruction = kNoRow;  // the selected instruction, kNoRow for none
    static constexpr std::size_t kNoRow = static_cast<std::size_t>(-1);
    bool operator==(const SourceChoices& other) const {
        return order == other.order && file == other.file && place == other.place &&
               instruction == other.instruction;
    }
};
struct SourceSnapshot {
    std::shared_ptr<const profiling::SourceProfile> profile;  // nullptr: nothing to show
    SourceChoices choices;                                    // what it was made for
    std::string summary;                                      // source_summary
    std::vector<std::string> notes;                           // source_notes
    std::vector<StallLine> stalls;                            // stall_lines, the top few
    std::vector<std::size_t> rows;      // SASS rows in choices.order (sass_rows)
    std::vector<std::size_t> of_place;  // instructions of choices.place (instructions_of_place)
    // The largest value of each heat column (index: HeatColumn), over the instructions and over
    // the lines of files[choices.file] (0 without files).
    std::uint64_t sass_max[2] = {0, 0};
    std::uint64_t file_max[2] = {0, 0};
    // compare_with_bank_model of the selected instruction.
    std::optional<AccessComparison> comparison;
};
SourceSnapshot source_snapshot(std::shared_ptr<const profiling::SourceProfile> profile,
                               const SourceChoices& choices, std::size_t stall_count);

}  // namespace tclens::gui
