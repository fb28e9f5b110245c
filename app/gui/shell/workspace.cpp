#include "app/gui/shell/workspace.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "app/parse_number.h"
#include "common/text.h"

namespace tclens::gui {
namespace {

constexpr int kMaxWindowSide = 100000;

struct Pair {
    const char* first;
    const char* second;
};
constexpr Pair kPairs[] = {{"fragments", "banks"},
                           {"kernels", "profile"},
                           {"tilemap", "kernels"},
                           {"compare", "profile"},
                           {"device", "kernels"}};

// "a, b,c" -> {"a", "b", "c"}; "" -> {}.
std::vector<std::string> comma_list(std::string_view text) {
    std::vector<std::string> items;
    while (!text.empty()) {
        const auto comma = text.find(',');
        std::string_view item = text.substr(0, comma);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        items.emplace_back(item);
        if (comma == std::string_view::npos) break;
        text.remove_prefix(comma + 1);
    }
    return items;
}

// The ratio as the settings file writes it, three decimals: "0.351".
std::string ratio_text(float ratio) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", double(ratio));
    return text;
}

std::optional<WindowSize> parse_window_size(std::string_view text) {
    if (text == "none") return WindowSize{};
    const auto x = text.find('x');
    if (x == std::string_view::npos) return std::nullopt;
    const auto width = parse_number<int>(text.substr(0, x));
    const auto height = parse_number<int>(text.substr(x + 1));
    if (!width || !height || *width < 1 || *height < 1 || *width > kMaxWindowSide ||
        *height > kMaxWindowSide) {
        return std::nullopt;
    }
    return WindowSize{*width, *height};
}

}  // namespace

std::string partner_view(std::string_view view) {
    for (const Pair& pair : kPairs) {
        if (view == pair.first) return pair.second;
    }
    for (const Pair& pair : kPairs) {
        if (view == pair.second) return pair.first;
    }
    return "";
}

const char* split_name(Split split) {
    switch (split) {
        case Split::kBeside:
            return "beside";
        case Split::kBelow:
            return "below";
        case Split::kOff:
            break;
    }
    return "off";
}

Workspace::Workspace(std::vector<std::string> views) : views_(std::move(views)) { reset(); }

bool Workspace::is_view(std::string_view view) const {
    return std::find(views_.begin(), views_.end(), view) != views_.end();
}

bool Workspace::is_floating(std::string_view view) const {
    return std::find(floating_.begin(), floating_.end(), view) != floating_.end();
}

bool Workspace::is_shown(std::string_view view) const {
    return !view.empty() && (view == main_ || view == second_ || is_floating(view));
}

Split Workspace::split() const { return second_.empty() ? Split::kOff : orientation_; }

void Workspace::unfloat(std::string_view view) {
    floating_.erase(std::remove(floating_.begin(), floating_.end(), view), floating_.end());
}

std::string Workspace::first_free_view(std::string_view except) const {
    for (const std::string& view : views_) {
        if (view != except && !is_floating(view)) return view;
    }
    return "";
}

std::string Workspace::views_text() const { return common::join(views_, ", "); }

void Workspace::reset() {
    floating_.clear();
    second_.clear();
    last_second_.clear();
    orientation_ = Split::kBeside;
    ratio_ = kDefaultSplitRatio;
    main_ = is_view(kDefaultView) ? kDefaultView : views_.empty() ? "" : views_.front();
}

void Workspace::show(std::string_view view) {
    if (!is_view(view)) return;
    unfloat(view);
    if (view == main_) return;
    if (view == second_) {
        std::swap(main_, second_);
        return;
    }
    main_ = std::string(view);
}

void Workspace::show_second(std::string_view view) {
    if (!is_view(view)) return;
    unfloat(view);
    if (main_.empty()) {
        main_ = std::string(view);
        return;
    }
    if (view == main_) {
        std::string other = second_;
        if (other.empty()) other = partner_view(view);
        if (other.empty() || !is_view(other) || is_floating(other)) other = first_free_view(view);
        if (other.empty()) return;
        unfloat(other);
        main_ = other;
    }
    second_ = std::string(view);
}

void Workspace::toggle_split() {
    if (!second_.empty()) {
        last_second_ = second_;
        second_.clear();
        return;
    }
    if (main_.empty()) return;
    const auto usable = [this](const std::string& view) {
        return !view.empty() && is_view(view) && view != main_ && !is_floating(view);
    };
    std::string second = last_second_;
    if (!usable(second)) second = partner_view(main_);
    if (!usable(second)) second = first_free_view(main_);
    if (!usable(second)) return;
    second_ = second;
}

void Workspace::toggle_orientation() {
    if (second_.empty()) {
        toggle_split();
        return;
    }
    orientation_ = orientation_ == Split::kBeside ? Split::kBelow : Split::kBeside;
}

void Workspace::set_orientation(Split where) {
    if (where == Split::kOff) return;
    orientation_ = where;
    if (second_.empty()) toggle_split();
}

void Workspace::set_ratio(float ratio) {
    if (std::isnan(ratio)) return;
    // Kept as the settings file writes it, so that what is read back is equal.
    ratio_ = parse_number<float>(ratio_text(std::clamp(ratio, kMinSplitRatio, kMaxSplitRatio)))
                 .value_or(kDefaultSplitRatio);
}

void Workspace::pop_out(std::string_view view) {
    if (!is_view(view) || is_floating(view)) return;
    if (view == main_) {
        if (!second_.empty()) {
            main_ = second_;
            last_second_ = std::string(view);
            second_.clear();
        } else {
            main_ = first_free_view(view);
        }
    } else if (view == second_) {
        last_second_ = second_;
        second_.clear();
    }
    floating_.emplace_back(view);
}

void Workspace::close_floating(std::string_view view) {
    if (!is_floating(view)) return;
    unfloat(view);
    if (main_.empty()) main_ = std::string(view);
}

void Workspace::show_linked(std::string_view target, std::string_view source) {
    if (!is_view(target) || is_shown(target)) return;
    if (!source.empty() && source == main_) {
        second_ = std::string(target);
    } else if (!source.empty() && source == second_) {
        main_ = std::string(target);
    } else {
        show(target);
    }
}

std::string Workspace::apply_setting(std::string_view key, std::string_view value) {
    const std::string shown = "='" + std::string(value) + "'";
    if (key == "view") {
        if (!is_view(value)) {
            return "view" + shown + ": allowed: a view id (" + views_text() + ")";
        }
        show(value);
        return "";
    }
    if (key == "split") {
        if (value == "off") {
            if (!second_.empty()) toggle_split();
            return "";
        }
        const auto comma = value.find(',');
        const std::string_view view = value.substr(0, comma);
        const std::string_view where =
            comma == std::string_view::npos ? std::string_view() : value.substr(comma + 1);
        if (!is_view(view) || (where != "beside" && where != "below")) {
            return "split" + shown +
                   ": allowed: ID,beside | ID,below | off (views: " + views_text() + ")";
        }
        show_second(view);
        if (second_ != view) {
            return "split" + shown + ": no other view is left for the main area";
        }
        set_orientation(where == "beside" ? Split::kBeside : Split::kBelow);
        return "";
    }
    if (key == "ratio") {
        const auto ratio = parse_number<float>(value);
        if (!ratio || !(*ratio >= kMinSplitRatio && *ratio <= kMaxSplitRatio)) {
            return "ratio" + shown + ": allowed: 0.2..0.8 (the main view's share)";
        }
        set_ratio(*ratio);
        return "";
    }
    if (key == "floating") {
        std::vector<std::string> wanted =
            value == "none" ? std::vector<std::string>{} : comma_list(value);
        for (const std::string& view : wanted) {
            if (!is_view(view)) {
                return "floating" + shown + ": allowed: none or a list of view ids (" +
                       views_text() + ")";
            }
        }
        for (const std::string& view : std::vector<std::string>(floating_)) {
            if (std::find(wanted.begin(), wanted.end(), view) == wanted.end()) {
                close_floating(view);
            }
        }
        for (const std::string& view : wanted) pop_out(view);
        return "";
    }
    return "workspace has no setting '" + std::string(key) +
           "' (settings: view, split, ratio, floating)";
}

std::string Workspace::to_lines() const {
    std::string text;
    if (!main_.empty()) text += "view=" + main_ + "\n";
    text += "split=" +
            (second_.empty() ? std::string("off") : second_ + "," + split_name(orientation_)) +
            "\n";
    text += "ratio=" + ratio_text(ratio_) + "\n";
    std::string floating;
    for (const std::string& view : floating_) floating += (floating.empty() ? "" : ",") + view;
    text += "floating=" + (floating.empty() ? std::string("none") : floating) + "\n";
    text +=
        "window=" +
        (window_.width > 0 ? std::to_string(window_.width) + "x" + std::to_string(window_.height)
                           : std::string("none")) +
        "\n";
    return text;
}

std::string Workspace::read_line(std::string_view line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
    if (line.empty()) return "";
    const auto equals = line.find('=');
    if (equals == std::string_view::npos) return "'" + std::string(line) + "': not KEY=VALUE";
    const std::string_view key = line.substr(0, equals), value = line.substr(equals + 1);
    if (key == "window") {
        const auto size = parse_window_size(value);
        if (!size) return "window='" + std::string(value) + "': allowed: WxH (1..100000) or none";
        window_ = *size;
        return "";
    }
    return apply_setting(key, value);
}

bool Workspace::operator==(const Workspace& other) const {
    return views_ == other.views_ && main_ == other.main_ && second_ == other.second_ &&
           split() == other.split() && ratio_ == other.ratio_ && floating_ == other.floating_ &&
           window_ == other.window_;
}

WorkspaceLayout layout_workspace(const Workspace& workspace, Rect area, float rail_width,
                                 float divider, float min_pane, PaneNeeds needs) {
    area = {std::round(area.x), std::round(area.y), std::max(0.0f, std::round(area.width)),
            std::max(0.0f, std::round(area.height))};
    WorkspaceLayout layout;
    const float rail = std::clamp(std::round(rail_width), 0.0f, area.width);
    layout.rail = {area.x, area.y, rail, area.height};
    const Rect panes{area.x + rail, area.y, area.width - rail, area.height};
    layout.main = panes;
    layout.divider = {panes.x, panes.y, 0, 0};
    layout.second = {panes.x, panes.y, 0, 0};
    layout.split = workspace.split();
    if (layout.split == Split::kOff) return layout;
    const float least = std::round(min_pane);
    const float gap_x = std::clamp(std::round(divider), 0.0f, panes.width);
    const float gap_y = std::clamp(std::round(divider), 0.0f, panes.height);
    float least_first = least, least_second = least;
    if (layout.split == Split::kBeside) {
        least_first = std::max(least, std::ceil(needs.main_width));
        least_second = std::max(least, std::ceil(needs.second_width));
        if (least_first + gap_x + least_second > panes.width) {
            least_first = least_second = least;  // the needs cannot be met side by side
            if (panes.height - gap_y >= 2 * least) layout.split = Split::kBelow;
        }
    }
    const bool beside = layout.split == Split::kBeside;
    const float gap = beside ? gap_x : gap_y;
    const float span = (beside ? panes.width : panes.height) - gap;
    float first = std::round(span * workspace.ratio());
    if (span >= least_first + least_second) {
        first = std::clamp(first, least_first, span - least_second);
    }
    const float rest = span - first;
    if (beside) {
        layout.main = {panes.x, panes.y, first, panes.height};
        layout.divider = {panes.x + first, panes.y, gap, panes.height};
        layout.second = {panes.x + first + gap, panes.y, rest, panes.height};
    } else {
        layout.main = {panes.x, panes.y, panes.width, first};
        layout.divider = {panes.x, panes.y + first, panes.width, gap};
        layout.second = {panes.x, panes.y + first + gap, panes.width, rest};
    }
    return layout;
}

}  // namespace tclens::gui
