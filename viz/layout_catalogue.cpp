#include "viz/layout_catalogue.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "viz/fragment_layout.h"

namespace tclens::viz {

namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

bool matches(const std::string& id, const std::string& title,
             const std::vector<std::string>& words) {
    const std::string haystack = lower(id) + " " + lower(title);
    return std::all_of(words.begin(), words.end(), [&](const std::string& word) {
        return haystack.find(word) != std::string::npos;
    });
}

}  // namespace

std::vector<LayoutGroup> layout_groups(const std::vector<std::string>& ids,
                                       std::string_view filter) {
    std::vector<std::string> words;
    std::istringstream stream{lower(filter)};
    for (std::string word; stream >> word;) words.push_back(word);
    std::vector<LayoutGroup> groups;
    for (const std::string& id : ids) {
        const LayoutFamilyInfo family = layout_family(id);
        std::string title = family.family + ", " + family.arch;
        if (family.family == "tcgen05") title += " (models)";
        if (!matches(id, title, words)) continue;
        auto group = std::find_if(groups.begin(), groups.end(),
                                  [&](const LayoutGroup& g) { return g.title == title; });
        if (group == groups.end()) {
            groups.push_back({title, {}});
            group = groups.end() - 1;
        }
        group->ids.push_back(id);
    }
    return groups;
}

}  // namespace tclens::viz
