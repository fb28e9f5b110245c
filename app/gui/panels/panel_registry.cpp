#include "app/gui/panels/panel_registry.h"

#include "app/gui/panels/banks_panel.h"
#include "app/gui/panels/compare_panel.h"
#include "app/gui/panels/device_panel.h"
#include "app/gui/panels/fragments_panel.h"
#include "app/gui/panels/kernels_panel.h"
#include "app/gui/panels/profile_panel.h"
#include "app/gui/panels/source_panel.h"
#include "app/gui/panels/tile_map_panel.h"
#include "app/gui/panels/timeline_panel.h"
#include "common/text.h"

namespace tclens::gui {

std::vector<std::unique_ptr<Panel>> make_all_panels() {
    std::vector<std::unique_ptr<Panel>> panels;
    panels.push_back(std::make_unique<DevicePanel>());
    panels.push_back(std::make_unique<FragmentsPanel>());
    panels.push_back(std::make_unique<BanksPanel>());
    panels.push_back(std::make_unique<TileMapPanel>());
    panels.push_back(std::make_unique<KernelsPanel>());
    panels.push_back(std::make_unique<ProfilePanel>());
    panels.push_back(std::make_unique<SourcePanel>());
    panels.push_back(std::make_unique<TimelinePanel>());
    panels.push_back(std::make_unique<ComparePanel>());
    return panels;
}

std::vector<std::string> panel_ids(const std::vector<std::unique_ptr<Panel>>& panels) {
    std::vector<std::string> ids;
    for (const auto& panel : panels) ids.emplace_back(panel->id());
    return ids;
}

std::string panel_ids_text() { return common::join(panel_ids(make_all_panels()), ", "); }

}  // namespace tclens::gui
