// The Device panel's draw records (app/gui/views/device_view.h) and their export: a machine with
// GPUs gets one section per GPU with every describe_device row, a machine without one says why; the
// SVG and PNG the Export buttons write from them exist and are not blank.
#include "app/gui/views/device_view.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "viz/png_writer.h"
#include "viz/raster.h"
#include "viz/svg_export.h"

namespace tclens::gui {
namespace {

profiling::SystemReport two_gpus() {
    profiling::SystemReport report;
    report.runtime_version = 13000;
    report.driver_cuda_version = 13000;
    report.driver_version = "580.159.04";
    for (int i = 0; i < 2; ++i) {
        profiling::DeviceFacts device;
        device.index = i;
        device.name = "NVIDIA H100 80GB HBM3";
        device.cc_major = 9;
        device.sm_count = 132;
        device.sm_clock_khz = 1980000;
        device.mem_clock_khz = 2619000;
        device.mem_bus_width_bits = 5120;
        device.l2_bytes = 50 << 20;
        device.smem_per_block = 48 << 10;
        device.smem_per_block_optin = 227 << 10;
        device.regs_per_block = 65536;
        device.warp_size = 32;
        report.devices.push_back(device);
    }
    return report;
}

bool device_view_has_text(const viz::DrawList& draw, const std::string& text) {
    for (const viz::DrawText& t : draw.texts) {
        if (t.text == text) return true;
    }
    return false;
}

std::string read_file(const std::string& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

TEST(DeviceView, OneSectionPerGpuWithEveryFact) {
    const profiling::SystemReport report = two_gpus();
    const viz::DrawList draw = device_view(report, viz::dark_palette());
    EXPECT_TRUE(device_view_has_text(draw, profiling::versions_summary(report)));
    EXPECT_TRUE(device_view_has_text(draw, "GPU 0"));
    EXPECT_TRUE(device_view_has_text(draw, "GPU 1"));
    for (const auto& [label, value] : profiling::describe_device(report.devices[0])) {
        EXPECT_TRUE(device_view_has_text(draw, label)) << label;
        EXPECT_TRUE(device_view_has_text(draw, value)) << value;
    }
    EXPECT_EQ(draw.background, viz::dark_palette().background);
}

TEST(DeviceView, WithoutAGpuSaysWhyAndWhatStillWorks) {
    profiling::SystemReport report;
    report.runtime_version = 13000;
    report.no_gpu_reason = "CUDA driver not found";
    const viz::DrawList draw = device_view(report, viz::high_contrast_palette());
    EXPECT_TRUE(device_view_has_text(draw, "No GPU"));
    EXPECT_TRUE(device_view_has_text(draw, "CUDA driver not found"));
    EXPECT_TRUE(device_view_has_text(draw, profiling::system_summary(report)));
    EXPECT_EQ(draw.background, viz::high_contrast_palette().background);
}

TEST(DeviceViewExport, SvgAndPngAreWrittenAndNotBlank) {
    const viz::DrawList draw = device_view(two_gpus(), viz::dark_palette());
    const std::string svg = test::temp_path("device.svg"), png = test::temp_path("device.png");
    ASSERT_EQ(viz::write_svg(draw, svg), "");
    ASSERT_EQ(viz::write_png(viz::rasterize(draw), png), "");
    const std::string text = read_file(svg);
    EXPECT_NE(text.find(">132</text>"), std::string::npos);
    EXPECT_NE(text.find(">GPU 1</text>"), std::string::npos);
    const test::PngFacts facts = test::inspect_png(png);
    std::remove(svg.c_str());
    std::remove(png.c_str());
    ASSERT_TRUE(facts.loaded);
    EXPECT_EQ(facts.width, int(draw.width));
    EXPECT_EQ(facts.height, int(draw.height));
    EXPECT_GE(facts.distinct_colours, 4);  // background, stripes, labels, values
    EXPECT_GT(facts.text_rows, 100);       // two tables of rows of glyphs
    // The canvas is the palette's background where nothing is drawn (top-left corner).
    const viz::Rgba background = viz::dark_palette().background;
    EXPECT_EQ(facts.rgba[0], background.r);
    EXPECT_EQ(facts.rgba[1], background.g);
    EXPECT_EQ(facts.rgba[2], background.b);
}

}  // namespace
}  // namespace tclens::gui
