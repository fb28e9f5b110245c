#pragma once
// Device panel: every cudaDeviceProp fact a GEMM writer needs, per GPU, or why there is none.

#include <string>

#include "app/gui/panels/panel.h"

namespace tclens::gui {

class DevicePanel : public Panel {
  public:
    DevicePanel();

  private:
    void draw_contents(AppContext& context) override;
    std::string export_message_;  // of the last Export click
};

}  // namespace tclens::gui
