#include "kernels/descriptor_text.h"

namespace tclens::kernels {

std::string tile_text(const TileShape& tile) {
    if (tile.m == 0 && tile.n == 0 && tile.k == 0) return "-";
    std::string text = std::to_string(tile.m) + "x" + std::to_string(tile.n);
    if (tile.k > 0) text += "x" + std::to_string(tile.k);
    return text;
}

std::string types_text(const KernelDescriptor& kernel) {
    return std::string(precision_name(kernel.precision)) + "/" + precision_name(kernel.accumulate);
}

}  // namespace tclens::kernels
