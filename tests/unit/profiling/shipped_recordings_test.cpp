// The recordings tclens ships (assets/recordings/, opened by the GUI where there is no GPU and
// by every lecture from a laptop) hold everything a view can show: a checker of their
// completeness, run on both, and shown to catch a hollow part.
//
// Complete means: a GPU in the device report; a measured peak for every precision (FP8's too, the
// roof its points sit under) and the DRAM bandwidth; for every kernel of the registry (every rung,
// FP8 and stream-K included, and every cuBLAS / cuBLASLt reference) verified, timed bench rows,
// a profile, a PM timeline with samples, and a source profile with instructions, PC samples and
// counted executions, and for tclens's own kernels their SASS and source text (a reference's
// instructions are known by PC offset only: cuBLAS's kernels are not in tclens's binary); and a
// warp trace with phases for every kernel that has a traced variant (rungs 8-12, f16 and bf16).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/registry.h"
#include "profiling/recording.h"

namespace tclens::profiling {
namespace {

const std::vector<std::string> kShipped = {"h200.json.gz", "h200_b.json.gz"};

template <typename Part>
const Part* find_part(const std::vector<Part>& parts, const std::string& kernel_id) {
    const auto found = std::find_if(parts.begin(), parts.end(),
                                    [&](const Part& part) { return part.kernel_id == kernel_id; });
    return found == parts.end() ? nullptr : &*found;
}

// `ours`: a tclens kernel, whose SASS and source text tclens has; a cuBLAS reference's
// instructions are known by PC offset only.
std::string source_problem(const SourceProfile& source, bool ours) {
    std::uint64_t executed = 0;
    for (const InstructionProfile& instruction : source.instructions) {
        executed += instruction.executed;
    }
    if (!source.ok()) return "its source profile failed";
    if (source.instructions.empty()) return "its source profile has no instructions";
    if (ours && !source.has_sass()) return "its source profile has no SASS";
    if (source.total_samples() == 0) return "its source profile has no PC samples";
    if (executed == 0) return "its source profile has no counted executions";
    if (ours && (source.files.empty() || source.files[0].text.empty())) {
        return "its source profile has no source text";
    }
    return "";
}

// One line per part missing or hollow, e.g. "wgmma_ws.bf16: no warp trace"; empty when complete.
std::vector<std::string> missing_parts(const Recording& recording) {
    std::vector<std::string> missing;
    if (!recording.system.has_gpu()) missing.push_back("no GPU in the device report");
    for (kernels::Precision precision :
         {kernels::Precision::kF32, kernels::Precision::kTF32, kernels::Precision::kF16,
          kernels::Precision::kBF16, kernels::Precision::kE4M3}) {
        const bool measured = std::any_of(
            recording.peaks.begin(), recording.peaks.end(),
            [&](const auto& peak) { return peak.precision == precision && peak.tflops > 0; });
        if (!measured) {
            missing.push_back(std::string("no measured ") + kernels::precision_name(precision) +
                              " peak");
        }
    }
    if (recording.dram_bandwidth.bytes_per_s <= 0) missing.push_back("no DRAM bandwidth");
    for (const kernels::KernelDescriptor& kernel : kernels::all_kernels()) {
        const std::string& id = kernel.id;
        const bool timed = std::any_of(recording.bench.begin(), recording.bench.end(),
                                       [&](const kernels::BenchRow& row) {
                                           return row.result.kernel_id == id && row.result.counts();
                                       });
        if (!timed) missing.push_back(id + ": no verified, timed bench row");
        const KernelProfile* profile = find_part(recording.profiles, id);
        if (profile == nullptr || !profile->ok()) missing.push_back(id + ": no profile");
        const KernelTimeline* timeline = find_part(recording.timelines, id);
        if (timeline == nullptr || !timeline->ok() || timeline->samples.empty()) {
            missing.push_back(id + ": no PM timeline with samples");
        }
        const SourceProfile* source = find_part(recording.sources, id);
        if (source == nullptr) {
            missing.push_back(id + ": no source profile");
        } else if (const std::string problem = source_problem(*source, kernel.rung > 0);
                   !problem.empty()) {
            missing.push_back(id + ": " + problem);
        }
        if (kernel.traced.traceable()) {
            const bool traced = std::any_of(recording.traces.begin(), recording.traces.end(),
                                            [&](const viz::WarpTrace& trace) {
                                                return trace.kernel == id && !trace.phases.empty();
                                            });
            if (!traced) missing.push_back(id + ": no warp trace");
        }
    }
    return missing;
}

Recording load_shipped(const std::string& name) {
    const std::string path = std::string(TCLENS_ASSETS_DIR) + "/recordings/" + name;
    Recording recording;
    std::string error;
    EXPECT_TRUE(load_recording(path, recording, error))
        << error << " (it ships with tclens: a missing file is a failure, not a skip)";
    return recording;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    return text;
}

class ShippedRecording : public testing::TestWithParam<std::string> {};

TEST_P(ShippedRecording, HoldsEveryPartOfEveryKernel) {
    const Recording recording = load_shipped(GetParam());
    EXPECT_EQ(joined(missing_parts(recording)), "");
    // Both come from one GPU, so that Compare shows two runs of the same machine.
    ASSERT_TRUE(recording.system.has_gpu());
    EXPECT_EQ(recording.system.devices[0].name, load_shipped(kShipped[0]).system.devices[0].name);
}

INSTANTIATE_TEST_SUITE_P(Assets, ShippedRecording, testing::ValuesIn(kShipped),
                         [](const testing::TestParamInfo<std::string>& info) {
                             return info.index == 0 ? std::string("First") : std::string("Second");
                         });

TEST(RecordingCompleteness, TheCheckerNamesEveryHollowPart) {
    Recording recording = load_shipped(kShipped[0]);
    ASSERT_TRUE(missing_parts(recording).empty());
    // As the recordings shipped before 2026-11-29 were: no FP8 peak, a source profile without
    // samples, a traced rung without its trace.
    recording.peaks.erase(std::remove_if(recording.peaks.begin(), recording.peaks.end(),
                                         [](const kernels::PeakMeasurement& peak) {
                                             return peak.precision == kernels::Precision::kE4M3;
                                         }),
                          recording.peaks.end());
    for (SourceProfile& source : recording.sources) {
        if (source.kernel_id != "wgmma_tma.f16") continue;
        for (InstructionProfile& instruction : source.instructions) instruction.samples = 0;
    }
    recording.traces.erase(
        std::remove_if(recording.traces.begin(), recording.traces.end(),
                       [](const viz::WarpTrace& trace) { return trace.kernel == "wgmma_ws.bf16"; }),
        recording.traces.end());
    EXPECT_EQ(joined(missing_parts(recording)),
              "no measured e4m3 peak\n"
              "wgmma_tma.f16: its source profile has no PC samples\n"
              "wgmma_ws.bf16: no warp trace\n");
}

}  // namespace
}  // namespace tclens::profiling
