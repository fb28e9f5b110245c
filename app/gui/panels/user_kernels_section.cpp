#include "app/gui/panels/user_kernels_section.h"

#include <imgui.h>

#include "app/gui/jobs/app_context.h"
#include "app/gui/panels/job_controls.h"
#include "app/gui/views/draw_list_painter.h"
#include "kernels/problem_text.h"
#include "kernels/user/kernel_ref.h"
#include "viz/error_map.h"

namespace tclens::gui {
namespace {

constexpr double kWatchPollS = 0.1;  // how often a watched file is looked at

void wrapped(viz::Rgba colour, const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, imgui_colour(colour));
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

const UserKernel* find_kernel(const UserKernels* kernels, const std::string& ref) {
    if (!kernels) return nullptr;
    const int index = kernels->find(ref);
    return index < 0 ? nullptr : &kernels->kernels[std::size_t(index)];
}

}  // namespace

void UserKernelsSection::open(const std::string& ref) {
    pending_.push_back(ref);
    selected_ = ref;
    shown_version_ = -1;
}

void UserKernelsSection::set_watch(const std::string& ref, bool on) {
    if (!on) {
        watching_.erase(ref);
        return;
    }
    const auto parsed = kernels::user::parse_kernel_ref(ref);
    if (!parsed) return;
    watching_[ref] =
        std::make_unique<worker::WatchedFile>(parsed->path, worker::read_file_text(parsed->path));
}

void UserKernelsSection::update(AppContext& context,
                                const std::vector<kernels::GemmProblem>& problems) {
    if (problems.empty()) return;  // the sizes are being fixed; nothing to build at
    for (const std::string& ref : pending_) {
        jobs_[ref] = request_user_kernel_build(context, ref, problems.front());
    }
    pending_.clear();
    const double now = ImGui::GetTime();
    if (watching_.empty() || now < next_poll_s_) return;
    next_poll_s_ = now + kWatchPollS;
    for (auto& [ref, file] : watching_) {
        if (jobs_[ref].snapshot().active()) continue;  // the save waits for the build in flight
        if (file->poll()) {
            jobs_[ref] = request_user_kernel_build(context, ref, problems.front());
            if (ref == selected_) shown_version_ = -1;
        }
    }
}

bool UserKernelsSection::draw_group(const UserKernels* kernels) {
    if (!kernels || kernels->kernels.empty()) return false;
    bool clicked = false;
    ImGui::Spacing();
    ImGui::TextUnformatted("yours");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("run in a worker process; File > Open kernel... or drop a .cu");
    ImGui::PopStyleColor();
    for (std::size_t i = 0; i < kernels->kernels.size(); ++i) {
        const UserKernel& kernel = kernels->kernels[i];
        ImGui::PushID(int(i));
        std::string label = kernel.id;
        if (const worker::WatchVersion* newest = kernel.newest()) {
            label += "  v" + std::to_string(newest->number) +
                     (newest->good() ? ""
                      : newest->row  ? " not verified"
                                     : " failed");
        }
        if (watching_.count(kernel.ref)) label += "  (watching)";
        if (ImGui::Selectable(label.c_str(), selected_ == kernel.ref)) {
            selected_ = kernel.ref;
            shown_version_ = -1;
            clicked = true;
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", kernel.ref.c_str());
        ImGui::PopID();
    }
    return clicked;
}

void UserKernelsSection::draw_details(AppContext& context,
                                      const std::shared_ptr<const UserKernels>& kernels,
                                      const std::vector<kernels::GemmProblem>& problems,
                                      const Theme& theme) {
    const UserKernel* kernel = find_kernel(kernels.get(), selected_);
    const JobHandle& job = jobs_[selected_];
    ImGui::TextUnformatted(kernel ? kernel->id.c_str() : selected_.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("yours%s%s", kernel && !kernel->form.empty() ? ", " : "",
                        kernel ? kernel->form.c_str() : "");
    if (kernel && !kernel->title.empty()) ImGui::TextWrapped("%s", kernel->title.c_str());
    ImGui::TextDisabled("%s", selected_.c_str());

    JobControls controls;
    controls.run_label =
        problems.empty() ? std::string("Rebuild###rebuild")
                         : "Rebuild at " + kernels::problem_text(problems.front()) + "###rebuild";
    controls.run_tooltip =
        "compile, verify, time next to cuBLAS and profile a new version, in "
        "the worker process";
    controls.worker_gpu = true;
    // The worker said it cannot run kernels (no GPU on its host): Rebuild waits for Retry.
    const auto status = context.worker_status.latest();
    const bool unavailable = status && !status->unavailable.empty();
    if (unavailable) controls.blocked = status->unavailable;
    if (problems.empty()) controls.blocked = "fix the sizes first";
    bool watch = watching_.count(selected_) > 0;
    const bool rebuild =
        draw_job_controls(controls, job, context.system.latest().get(), theme, [&] {
            if (unavailable) {
                if (ImGui::Button("Retry")) {
                    context.worker_status.publish(
                        std::make_shared<WorkerStatus>(WorkerStatus{status->hello, ""}));
                }
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip("ask the worker again (a GPU freed, a host reachable again)");
                ImGui::SameLine();
            }
            if (ImGui::Checkbox("Watch", &watch)) set_watch(selected_, watch);
            if (ImGui::IsItemHovered()) {
                ImGui::SetTooltip(
                    "each save of the file builds a new version (v1, v2, ...); the "
                    "last good one stays on screen");
            }
        });
    if (rebuild) {
        pending_.push_back(selected_);
        shown_version_ = -1;
    }
    if (!kernel || kernel->versions.empty()) {
        if (!job.snapshot().active()) ImGui::TextDisabled("no version built yet");
        return;
    }
    ImGui::Separator();
    ImGui::TextUnformatted("versions");
    const int shown = shown_version_ >= 0 && shown_version_ < int(kernel->versions.size())
                          ? shown_version_
                          : int(kernel->versions.size()) - 1;
    for (int i = int(kernel->versions.size()) - 1; i >= 0; --i) {
        const worker::WatchVersion& v = kernel->versions[std::size_t(i)];
        ImGui::PushID(i);
        ImGui::PushStyleColor(ImGuiCol_Text, imgui_colour(v.good() ? theme.ok
                                                          : v.row  ? theme.error
                                                                   : theme.note));
        if (ImGui::Selectable(version_result_text(v).c_str(), i == shown)) shown_version_ = i;
        ImGui::PopStyleColor();
        ImGui::PopID();
    }
    ImGui::Separator();
    draw_version(kernels, *kernel, shown, theme);
}

void UserKernelsSection::draw_version(const std::shared_ptr<const UserKernels>& owner,
                                      const UserKernel& kernel, int index, const Theme& theme) {
    const worker::WatchVersion& v = kernel.versions[std::size_t(index)];
    if (!v.error.empty()) {
        wrapped(theme.error, "v" + std::to_string(v.number) + ": " + v.error);
    }
    if (const std::string times = version_times_text(v); !times.empty()) {
        ImGui::TextDisabled("%s", times.c_str());
    }
    if (!v.profile_error.empty()) ImGui::TextDisabled("profile: %s", v.profile_error.c_str());
    const int good = kernel.last_good;
    if (!v.good() && good >= 0 && good != index) {
        ImGui::TextUnformatted("last good version:");
        wrapped(theme.ok, version_result_text(kernel.versions[std::size_t(good)]));
    } else if (v.good()) {
        for (int before = index - 1; before >= 0; --before) {
            const worker::WatchVersion& earlier = kernel.versions[std::size_t(before)];
            if (!earlier.good()) continue;
            ImGui::TextWrapped("%s", version_change_text(earlier, v).c_str());
            break;
        }
    }
    if (v.row && !v.row->result.check.passed && v.row->result.check.error_map) {
        draw_error_map(owner, *v.row->result.check.error_map, theme);
    }
}

void UserKernelsSection::draw_error_map(const std::shared_ptr<const UserKernels>& owner,
                                        const viz::ErrorMap& map, const Theme& theme) {
    if (map_drawn_ != &map || map_theme_ != &theme) {
        viz::ErrorMapViewOptions options;
        options.palette = &theme.palette;
        options.heat = &theme.banks;
        map_view_ = viz::error_map_view(map, options);
        map_drawn_ = &map;
        map_theme_ = &theme;
        map_owner_ = owner;  // keeps `map` alive while it is drawn
    }
    ImGui::TextUnformatted("error map: where C is wrong");
    const int hit = paint_draw_list(map_view_.draw, 1.0f);
    if (hit >= 0) ImGui::SetTooltip("%s", viz::error_cell_tooltip(map, hit).c_str());
}

}  // namespace tclens::gui
