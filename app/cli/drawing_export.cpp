#include "app/cli/drawing_export.h"

#include <cstdio>

#include "app/exit_codes.h"
#include "viz/png_writer.h"
#include "viz/raster.h"
#include "viz/svg_export.h"

namespace tclens::cli {

int export_drawing(const viz::DrawList& draw, const std::string& svg_path,
                   const std::string& png_path) {
    std::string error;
    if (!svg_path.empty()) error = viz::write_svg(draw, svg_path);
    if (error.empty() && !png_path.empty()) error = viz::write_png(viz::rasterize(draw), png_path);
    if (!error.empty()) {
        std::fprintf(stderr, "tclens: %s\n", error.c_str());
        return kExitFailure;
    }
    return kExitOk;
}

}  // namespace tclens::cli
