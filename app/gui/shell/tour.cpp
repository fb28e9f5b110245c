#include "app/gui/shell/tour.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/asset_paths.h"
#include "app/gui/panels/panel_registry.h"
#include "app/gui/shell/workspace.h"
#include "common/text.h"

namespace tclens::gui {
namespace {

using nlohmann::json;

Panel* find_panel(const std::vector<std::unique_ptr<Panel>>& panels, std::string_view id) {
    for (const auto& panel : panels) {
        if (panel->id() == id) return panel.get();
    }
    return nullptr;
}

// nlohmann's 1-based byte offset of a parse error -> "line L, column C".
std::string line_and_column(std::string_view text, std::size_t byte) {
    int line = 1, column = 1;
    for (std::size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
        column = text[i] == '\n' ? 1 : column + 1;
        line += text[i] == '\n';
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// The step at `entry`, or "" with `step` filled; else the one-line reason (without the prefix).
std::string parse_step(const json& entry, const std::vector<std::unique_ptr<Panel>>& panels,
                       TourStep& step) {
    if (!entry.is_object()) return "expected an object with \"view\" and \"caption\"";
    for (const auto& [key, value] : entry.items()) {
        if (key != "view" && key != "settings" && key != "split" && key != "caption") {
            return "unknown key '" + key + "' (keys: view, settings, split, caption)";
        }
    }
    if (!entry.contains("view") || !entry["view"].is_string()) {
        return "\"view\" must be a string, one of: " + common::join(panel_ids(panels), ", ");
    }
    step.view = entry["view"].get<std::string>();
    if (!entry.contains("caption") || !entry["caption"].is_string() ||
        entry["caption"].get<std::string>().empty()) {
        return "\"caption\" must be a non-empty string";
    }
    step.caption = entry["caption"].get<std::string>();
    if (entry.contains("settings")) {
        const json& settings = entry["settings"];
        if (!settings.is_array()) return "\"settings\" must be a list of \"KEY=VALUE\" strings";
        for (const json& setting : settings) {
            if (!setting.is_string()) return "\"settings\" must be a list of \"KEY=VALUE\" strings";
            step.settings.push_back(setting.get<std::string>());
        }
    }
    Panel* panel = find_panel(panels, step.view);
    if (!panel)
        return "unknown view '" + step.view + "' (views: " + common::join(panel_ids(panels), ", ") +
               ")";
    if (entry.contains("split")) {
        if (!entry["split"].is_string()) return "\"split\" must be a string, e.g. \"banks,beside\"";
        step.split = entry["split"].get<std::string>();
        std::vector<std::string> views;
        for (const auto& candidate : panels) views.emplace_back(candidate->id());
        if (std::string error = step_workspace(step, Workspace(views)).second; !error.empty()) {
            return error;
        }
    }
    return apply_step_settings(step, *panel);
}

}  // namespace

std::string apply_step_settings(const TourStep& step, Panel& panel) {
    for (const std::string& setting : step.settings) {
        const auto equals = setting.find('=');
        if (equals == std::string::npos || equals == 0) {
            return "setting '" + setting + "': expected KEY=VALUE";
        }
        const std::string_view text = setting;
        if (std::string error =
                panel.apply_setting(text.substr(0, equals), text.substr(equals + 1));
            !error.empty()) {
            return "setting '" + setting + "': " + error;
        }
    }
    return "";
}

TourLoad parse_tour(std::string_view text, const std::string& source,
                    const std::vector<std::unique_ptr<Panel>>& panels) {
    TourLoad load;
    load.tour.source = source;
    auto fail = [&](int step, const std::string& message) {
        load.errors.push_back(
            {step,
             source + ": " + (step > 0 ? "step " + std::to_string(step) + ": " : "") + message});
    };
    json document;
    try {
        document = json::parse(text);
    } catch (const json::parse_error& error) {
        fail(0, "not JSON (" + line_and_column(text, error.byte) +
                    "); expected {\"schema_version\": 1, \"steps\": [...]}");
        return load;
    }
    if (!document.is_object() || !document.contains("schema_version")) {
        fail(0, "not a tour: missing key 'schema_version'");
        return load;
    }
    const json& version = document["schema_version"];
    if (!version.is_number_integer() || version.get<long long>() != kTourSchemaVersion) {
        fail(0, "schema_version " + version.dump() + " is not supported (this tclens reads " +
                    std::to_string(kTourSchemaVersion) + ")");
        return load;
    }
    if (document.contains("title") && document["title"].is_string()) {
        load.tour.title = document["title"].get<std::string>();
    }
    if (!document.contains("steps") || !document["steps"].is_array() || document["steps"].empty()) {
        fail(0, "\"steps\" must be a non-empty list");
        return load;
    }
    const json& steps = document["steps"];
    load.file_steps = static_cast<int>(steps.size());
    for (int i = 0; i < load.file_steps; ++i) {
        TourStep step;
        step.number = i + 1;
        if (const std::string error = parse_step(steps[size_t(i)], panels, step); !error.empty()) {
            fail(step.number, error);
            continue;
        }
        load.tour.steps.push_back(std::move(step));
    }
    return load;
}

TourLoad load_tour(const std::string& path) {
    const std::string source = std::filesystem::path(path).filename().string();
    std::error_code error;
    const auto bytes = std::filesystem::file_size(path, error);
    std::string reason;
    if (error) {
        reason = error.message();
    } else if (bytes > kMaxTourBytes) {
        reason = std::to_string(bytes) + " bytes, more than a tour's limit of " +
                 std::to_string(kMaxTourBytes);
    }
    std::ifstream file(path, std::ios::binary);
    if (reason.empty() && !file) reason = "cannot open it";
    if (!reason.empty()) {
        TourLoad load;
        load.tour.source = source;
        load.errors.push_back({0, "tour " + path + ": " + reason});
        return load;
    }
    std::stringstream text;
    text << file.rdbuf();
    return parse_tour(text.str(), source, make_all_panels());
}

std::string load_tour_step(const std::string& path, int number, TourStep& step,
                           std::string& counter) {
    const TourLoad load = load_tour(path);
    for (const TourError& error : load.errors) {
        if (error.step == 0 || error.step == number) return error.message;
    }
    const auto& steps = load.tour.steps;
    for (size_t i = 0; i < steps.size(); ++i) {
        if (steps[i].number != number) continue;
        step = steps[i];
        counter = "step " + std::to_string(i + 1) + " of " + std::to_string(steps.size());
        return "";
    }
    return load.tour.source + " has " + std::to_string(load.file_steps) + " steps; --tour-step " +
           std::to_string(number) + " is not one of them";
}

std::pair<Workspace, std::string> step_workspace(const TourStep& step, const Workspace& from) {
    Workspace workspace(from.views());
    workspace.remember_window(from.window());
    workspace.apply_setting("floating", "none");
    std::string error = workspace.apply_setting("view", step.view);
    if (!error.empty() || step.split.empty()) return {workspace, error};
    error = workspace.apply_setting("split", step.split);
    if (error.empty() && workspace.main_view() != step.view) {
        error = "split='" + step.split + "': the second view must differ from the step's view";
        workspace.apply_setting("view", step.view);
        workspace.apply_setting("split", "off");
    }
    if (!error.empty()) error = "\"split\": " + error;
    return {workspace, error};
}

std::string default_tour_path() {
    const std::string path = asset_path("tour.json");
    return path.empty() ? "tour.json" : path;  // not found: the loader names the missing file
}

const TourStep* TourPlayer::current() const {
    return active_ && index_ < int(tour_.steps.size()) ? &tour_.steps[size_t(index_)] : nullptr;
}

bool TourPlayer::go_to(int index) {
    if (!active_ || index < 0 || index >= int(tour_.steps.size()) || index == index_) return false;
    index_ = index;
    ++changes_;
    next_at_ = now_ + autoplay_s_;
    return true;
}

bool TourPlayer::start() {
    if (tour_.steps.empty()) return false;
    active_ = true;
    index_ = 0;
    ++changes_;
    next_at_ = now_ + autoplay_s_;
    return true;
}

bool TourPlayer::leave() {
    if (!active_) return false;
    active_ = false;
    ++changes_;
    return true;
}

bool TourPlayer::next() { return go_to(index_ + 1); }
bool TourPlayer::previous() { return go_to(index_ - 1); }
bool TourPlayer::first() { return go_to(0); }

bool TourPlayer::last() { return go_to(int(tour_.steps.size()) - 1); }

void TourPlayer::set_autoplay(double seconds, double now) {
    autoplay_s_ = seconds > 0 ? seconds : 0;
    now_ = now;
    next_at_ = now + autoplay_s_;
}

bool TourPlayer::advance_if_due(double now) {
    now_ = now;
    if (!active_ || autoplay_s_ <= 0 || now < next_at_) return false;
    next_at_ = now + autoplay_s_;
    const int following = index_ + 1 < int(tour_.steps.size()) ? index_ + 1 : 0;
    if (following == index_) return false;  // a one-step tour has nothing to advance to
    index_ = following;
    ++changes_;
    return true;
}

}  // namespace tclens::gui
