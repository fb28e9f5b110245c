#pragma once
// The instruction list of the Fragments panel as data: layout IDs grouped by family and
// architecture (viz::layout_family), filtered by a search text. Pure; the panel draws it.

#include <string>
#include <string_view>
#include <vector>

namespace tclens::viz {

struct LayoutGroup {
    std::string title;  // "mma.sync, sm_89", "tcgen05, sm_100a (models)"
    std::vector<std::string> ids;
};

// `ids` (in their order) cut into groups of one family and architecture, in the order each group
// first appears. With a non-empty `filter`, only the IDs whose ID or group title contains every
// blank-separated word of it (case-insensitive) stay, and groups left empty are dropped:
// "e4m3 sm_89" keeps mma.m16n8k32.e4m3 and its .f16acc twin and mma.sp.m16n8k64.e4m3.sel0.
std::vector<LayoutGroup> layout_groups(const std::vector<std::string>& ids,
                                       std::string_view filter);

}  // namespace tclens::viz
