// The Source panel's data model on the sample recording's made-up rung-8 source profile
// (tests/support/sample_recording.h): SASS order, heat, the link between an instruction and its
// CUDA line both ways, the stall lines, and a conflicting ldmatrix's bank-model comparison with
// the link that opens the Banks panel on its access. (What the panel draws is tested under Xvfb
// in tests/ui/source_panel_test.cpp.)

#include "app/gui/views/source_view.h"

#include <gtest/gtest.h>

#include <memory>

#include "app/gui/panels/panel_registry.h"
#include "app/gui/panels/panel_settings.h"
#include "tests/support/sample_recording.h"

namespace tclens::gui {
namespace {

// Instruction indices of the sample: 0x00.. 0xc0 in steps of 0x10.
constexpr std::size_t kDepbar = 4;  // 0x40, 315 samples, the hottest
constexpr std::size_t kLdsmA = 6;   // 0x60, ldmatrix of A, no conflicts
constexpr std::size_t kLdsmB = 7;   // 0x70, ldmatrix.trans of B, 4 x 65536 conflicts
constexpr std::size_t kMma = 8;     // 0x80 and 0x90 share line 12

TEST(SourceView, OrdersSassByAddressOrHottestFirst) {
    const profiling::SourceProfile profile = test::sample_source_profile();
    const std::vector<std::size_t> address = sass_rows(profile, SassOrder::kAddress);
    ASSERT_EQ(address.size(), 13u);
    for (std::size_t i = 0; i < address.size(); ++i) EXPECT_EQ(address[i], i);
    const std::vector<std::size_t> hottest = sass_rows(profile, SassOrder::kHottest);
    const std::vector<std::size_t> top = {kDepbar, kMma, 5, 9};  // 315, 280, 264, 240 samples
    EXPECT_EQ(std::vector<std::size_t>(hottest.begin(), hottest.begin() + 4), top);
    EXPECT_EQ(parse_sass_order("hottest"), SassOrder::kHottest);
    EXPECT_FALSE(parse_sass_order("hot").has_value());
}

TEST(SourceView, HeatIsASquareRootOfTheShareOfTheHottest) {
    EXPECT_EQ(heat_fraction(0, 100), 0.0);
    EXPECT_EQ(heat_fraction(5, 0), 0.0);
    EXPECT_DOUBLE_EQ(heat_fraction(100, 100), 1.0);
    EXPECT_DOUBLE_EQ(heat_fraction(25, 100), 0.5);
    const viz::BankPalette& ramp = viz::dark_bank_palette();
    EXPECT_FALSE(heat_colour(ramp, 0.0).has_value());
    EXPECT_EQ(*heat_colour(ramp, 1.0), ramp.heat.back());
    EXPECT_EQ(*heat_colour(ramp, 0.1), ramp.heat.front());
    EXPECT_EQ(*heat_colour(ramp, 0.5), ramp.heat[2]);  // ceil(0.5 x 6) - 1
    const profiling::SourceProfile profile = test::sample_source_profile();
    EXPECT_EQ(column_max(profile, HeatColumn::kSamples), 315u);
    EXPECT_EQ(column_max(profile, HeatColumn::kConflicts), 4u * 65536);
}

TEST(SourceView, AnInstructionFindsItsLineAndALineItsInstructions) {
    const profiling::SourceProfile profile = test::sample_source_profile();
    ASSERT_EQ(profile.files.size(), 2u);
    const int kernel_file = find_source_file(profile, "08_mma_cp_async.cu");
    const int ptx_file = find_source_file(profile, "ptx.cuh");
    EXPECT_EQ(kernel_file, 0);
    EXPECT_EQ(ptx_file, 1);
    EXPECT_EQ(find_source_file(profile, "cp_async.cu"), -1);  // a name's end, not a word's
    // The B ldmatrix: line 11 of the kernel file, line 6 of the helper it inlines.
    EXPECT_EQ(place_of_instruction(profile, kLdsmB, kernel_file), (SourcePlace{kernel_file, 11}));
    EXPECT_EQ(place_of_instruction(profile, kLdsmB, ptx_file), (SourcePlace{ptx_file, 6}));
    // An instruction not in the preferred file goes to the kernel's own file.
    EXPECT_EQ(place_of_instruction(profile, kMma, ptx_file), (SourcePlace{kernel_file, 12}));
    EXPECT_EQ(place_of_instruction(profile, 999, 0), SourcePlace{});
    const std::vector<std::size_t> mma = {kMma, kMma + 1};
    EXPECT_EQ(instructions_of_place(profile, {kernel_file, 12}), mma);
    EXPECT_TRUE(instructions_of_place(profile, {kernel_file, 1}).empty());
    EXPECT_TRUE(instructions_of_place(profile, {5, 12}).empty());
}

TEST(SourceView, StallLinesCarryTheirSentence) {
    const std::vector<StallLine> lines = stall_lines(test::sample_source_profile(), 2);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].label, "Long scoreboard");
    EXPECT_NEAR(lines[0].share_pct, 100.0 * 375 / 1403, 1e-9);
    EXPECT_NE(lines[0].meaning.find("global-memory load"), std::string::npos);
    EXPECT_EQ(lines[1].label, "Short scoreboard");
}

TEST(SourceView, AConflictingLdmatrixMeetsItsBankModelAndOpensBanks) {
    const profiling::SourceProfile profile = test::sample_source_profile();
    EXPECT_FALSE(
        compare_with_bank_model(profile.instructions[kLdsmA]).has_value());  // no conflicts
    const auto comparison = compare_with_bank_model(profile.instructions[kLdsmB]);
    ASSERT_TRUE(comparison.has_value());
    EXPECT_EQ(comparison->access, "mma_cp_async.f16/B.ldmatrix");
    EXPECT_DOUBLE_EQ(comparison->measured, 8.0);  // 8 x 65536 wavefronts over 65536 executions
    EXPECT_EQ(comparison->model_error, "");
    EXPECT_DOUBLE_EQ(comparison->modelled, 4.0);  // rung 8's XOR swizzle: conflict-free x4
    const PanelLink link = banks_link(comparison->access, false);
    EXPECT_EQ(link.panel, "banks");
    EXPECT_EQ(link.settings, std::vector<std::string>{"pattern=mma_cp_async.f16/B.ldmatrix"});
    // The Banks panel takes the link's settings (the shell then shows it).
    const auto panels = make_all_panels();
    EXPECT_EQ(follow_panel_link(panels, link), "");
    // With a GPU the Banks panel measures the access too: measured and modelled side by side.
    const PanelLink measured = banks_link(comparison->access, true);
    EXPECT_EQ(measured.settings.back(), "measure=on");
    EXPECT_EQ(follow_panel_link(panels, measured), "");
}

TEST(SourceView, ASnapshotHoldsWhatAFrameDrawsForItsChoices) {
    const auto profile =
        std::make_shared<const profiling::SourceProfile>(test::sample_source_profile());
    SourceChoices choices;
    choices.order = SassOrder::kHottest;
    choices.place = {0, 12};
    choices.instruction = kLdsmB;
    const SourceSnapshot snapshot = source_snapshot(profile, choices, 2);
    EXPECT_EQ(snapshot.profile, profile);
    EXPECT_TRUE(snapshot.choices == choices);
    EXPECT_EQ(snapshot.rows, sass_rows(*profile, SassOrder::kHottest));
    EXPECT_EQ(snapshot.of_place, instructions_of_place(*profile, {0, 12}));
    EXPECT_EQ(snapshot.stalls.size(), 2u);
    EXPECT_EQ(snapshot.summary, source_summary(*profile));
    EXPECT_EQ(snapshot.notes, source_notes(*profile));
    for (const HeatColumn column : {HeatColumn::kSamples, HeatColumn::kConflicts}) {
        EXPECT_EQ(snapshot.sass_max[int(column)], column_max(*profile, column));
        EXPECT_EQ(snapshot.file_max[int(column)], column_max(profile->files[0], column));
    }
    ASSERT_TRUE(snapshot.comparison.has_value());
    EXPECT_EQ(snapshot.comparison->access, "mma_cp_async.f16/B.ldmatrix");
    // Without a profile there is nothing to show; a file out of range has no line maxima.
    EXPECT_TRUE(source_snapshot(nullptr, choices, 2).rows.empty());
    choices.file = 7;
    EXPECT_EQ(source_snapshot(profile, choices, 2).file_max[0], 0u);
}

TEST(SourceView, FindsARecordingsSourceProfiles) {
    const profiling::Recording recording = test::sample_recording();
    ASSERT_NE(recorded_source(recording, "mma_cp_async.f16"), nullptr);
    EXPECT_EQ(recorded_source(recording, "wmma.f16"), nullptr);
    EXPECT_EQ(recorded_source_kernels(recording), "mma_cp_async.f16");
}

TEST(SourceView, SummaryAndNotesSayWhatIsThereAndWhatIsNot) {
    profiling::SourceProfile profile = test::sample_source_profile();
    const std::string summary = source_summary(profile);
    EXPECT_NE(summary.find("13 instructions, 1,403 samples (every 2^11 cycles), SASS with CUDA "
                           "lines, answered in 1,320 ms"),
              std::string::npos)
        << summary;
    EXPECT_TRUE(source_notes(profile).empty());
    profile.sampling_missing = "cuptiPCSamplingEnable: not supported";
    profile.checks[0].range_total += 1;
    const std::vector<std::string> notes = source_notes(profile);
    ASSERT_EQ(notes.size(), 2u);
    EXPECT_EQ(notes[0], "PC sampling: cuptiPCSamplingEnable: not supported");
    EXPECT_NE(notes[1].find("instructions executed: the instructions add up to"),
              std::string::npos);
}

}  // namespace
}  // namespace tclens::gui
