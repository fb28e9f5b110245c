#include "app/gui/views/device_view.h"

#include "viz/table_view.h"

namespace tclens::gui {

viz::DrawList device_view(const profiling::SystemReport& report, const viz::Palette& palette) {
    std::vector<viz::TableSection> sections;
    if (!report.has_gpu()) {
        sections.push_back({"No GPU",
                            {{"status", profiling::system_summary(report)},
                             {"reason", report.no_gpu_reason},
                             {"works without one", "fragment layouts, bank models, recordings"},
                             {"needs one", "running kernels, profiling"}}});
    }
    for (const profiling::DeviceFacts& device : report.devices) {
        viz::TableSection section{"GPU " + std::to_string(device.index), {}};
        for (auto& [label, value] : profiling::describe_device(device)) {
            section.rows.push_back({std::move(label), std::move(value)});
        }
        sections.push_back(std::move(section));
    }
    viz::TableViewOptions options;
    options.title = profiling::versions_summary(report);
    options.palette = &palette;
    return viz::table_view(sections, options);
}

}  // namespace tclens::gui
