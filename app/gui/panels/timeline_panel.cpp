#include "app/gui/panels/timeline_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/gui/jobs/app_context.h"
#include "app/gui/jobs/trace_job.h"
#include "app/gui/jobs/user_kernel_job.h"
#include "app/gui/panels/job_controls.h"
#include "app/gui/views/draw_list_painter.h"
#include "app/gui/views/item_width.h"
#include "app/gui/views/keys.h"
#include "app/gui/views/lecture_mode.h"
#include "app/gui/views/presentation.h"
#include "app/parse_number.h"
#include "common/text.h"
#include "kernels/registry.h"
#include "kernels/trace_limits.h"
#include "viz/warp_timeline_view.h"
#include "viz/warp_trace_json.h"
#include "viz/warp_trace_summary.h"

namespace tclens::gui {
namespace {

constexpr const char* kDefaultTracedKernel = "wgmma_ws.bf16";
constexpr std::uintmax_t kMaxTraceFileBytes = std::uintmax_t{64} << 20;
constexpr double kWheelZoom = 1.25;  // per notch
constexpr double kKeyZoom = 1.5;
constexpr double kKeyPan = 0.25;  // of the window's width

std::string microseconds(std::int64_t ns) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f us", static_cast<double>(ns) / 1000.0);
    return text;
}

// A non-negative number of microseconds as ns; false for anything else.
bool parse_microseconds(const std::string& text, std::int64_t& ns) {
    char* end = nullptr;
    const double us = std::strtod(text.c_str(), &end);
    if (text.empty() || end == nullptr || *end != '\0' || !std::isfinite(us) || us < 0 ||
        us > 1e9) {
        return false;
    }
    ns = static_cast<std::int64_t>(std::llround(us * 1000.0));
    return true;
}

}  // namespace

bool load_trace_file(const std::string& path, viz::WarpTrace& trace, std::string& error) {
    namespace fs = std::filesystem;
    const std::string where = "cannot open trace " + (path.empty() ? "''" : path) + ": ";
    std::error_code ignored;
    if (path.empty()) {
        error = where + "no path given";
        return false;
    }
    if (!fs::is_regular_file(path, ignored)) {
        error = where + (fs::exists(path, ignored) ? "not a regular file" : "no such file");
        return false;
    }
    if (fs::file_size(path, ignored) > kMaxTraceFileBytes) {
        error = where + "larger than a trace may be (64 MiB)";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in && !in.eof()) {
        error = where + "it could not be read";
        return false;
    }
    std::string parse_error;
    if (!viz::parse_warp_trace(text.str(), trace, parse_error)) {
        error = where + parse_error;
        return false;
    }
    viz::normalise_trace(trace);
    return true;
}

// The Help menu's text of the panel.
constexpr const char* kTimelinePanelHelp =
    "What every traced warp of a kernel did, and when: one row per warp, under its block "
    "and the SM it ran on; each bar a phase (issuing TMA or cp.async loads, waiting on a "
    "full "
    "or empty barrier, wgmma or mma.sync, the epilogue, the store, and in the persistent "
    "rungs the tile scheduler and stream-K's fix-up) in the colour of the legend. Hover a "
    "bar for its phase, duration and K tile. Pick a second kernel under 'below' to draw "
    "two traces on one time scale: rung 9 (one warpgroup loads, waits, then multiplies) "
    "against rung 10 (a producer warp loads while the consumers multiply). Zoom with the "
    "mouse wheel or = and -, pan by dragging or with comma and period, 0 shows the whole "
    "trace. Under each trace: the share of the warps' time each phase takes and the "
    "tensor pipe's idle time between K tiles. Trace on GPU runs the kernel's traced "
    "variant (verified first); without a GPU the open recording's traces are shown, or a "
    "trace file (tclens trace --json F) opened here.";

TimelinePanel::TimelinePanel() : Panel("timeline", "Timeline", kTimelinePanelHelp) {
    for (const kernels::KernelDescriptor& k : kernels::all_kernels()) {
        if (k.traced.traceable()) traced_kernels_.push_back(k.id);
    }
    const auto it = std::find(traced_kernels_.begin(), traced_kernels_.end(), kDefaultTracedKernel);
    kernel_ = it == traced_kernels_.end() ? 0 : static_cast<int>(it - traced_kernels_.begin());
}

const std::string& TimelinePanel::kernel_id(int slot) const {
    static const std::string kNone;
    const int index = slot == 0 ? kernel_ : compare_;
    if (index < 0 || index >= static_cast<int>(traced_kernels_.size())) return kNone;
    return traced_kernels_[static_cast<std::size_t>(index)];
}

std::string TimelinePanel::open_file(int slot, const std::string& path) {
    auto trace = std::make_shared<viz::WarpTrace>();
    std::string error;
    if (!load_trace_file(path, *trace, error)) return error;
    slots_[static_cast<std::size_t>(slot)] = {std::move(trace), path};
    window_ = {};
    return "";
}

std::string TimelinePanel::apply_setting(std::string_view key, std::string_view value) {
    const std::string text(value);
    if (key == "kernel" || key == "compare") {
        const auto it = std::find(traced_kernels_.begin(), traced_kernels_.end(), text);
        if (key == "compare" && text == "none") {
            compare_ = -1;
            return "";
        }
        if (it == traced_kernels_.end()) {
            return std::string(key) + "='" + text +
                   "': allowed: kernels with trace points: " + common::join(traced_kernels_, ", ") +
                   (key == "compare" ? ", none" : "");
        }
        (key == "kernel" ? kernel_ : compare_) = static_cast<int>(it - traced_kernels_.begin());
        slots_[key == "kernel" ? 0 : 1] = {};
        window_ = {};
        return "";
    }
    if (key == "mnk") return size_.apply_setting(text);
    if (key == "blocks") {
        const auto blocks = parse_number<int>(text);
        if (!blocks || *blocks < 1 || *blocks > kernels::kMaxTracedBlocks) {
            return "blocks='" + text + "': allowed: 1.." +
                   std::to_string(kernels::kMaxTracedBlocks);
        }
        blocks_ = *blocks;
        return "";
    }
    if (key == "open" || key == "compare_open") {
        const std::string error = open_file(key == "open" ? 0 : 1, text);
        return error.empty() ? "" : std::string(key) + ": " + error;
    }
    if (key == "window") {
        if (text == "all") {
            window_ = {};
            return "";
        }
        const std::size_t dots = text.find("..");
        std::int64_t start = 0, end = 0;
        if (dots == std::string::npos || !parse_microseconds(text.substr(0, dots), start) ||
            !parse_microseconds(text.substr(dots + 2), end) || end <= start) {
            return "window='" + text +
                   "': allowed: START..END in microseconds, START < END (e.g. 0..2.5), or all";
        }
        window_ = {start, end};
        return "";
    }
    if (key == "controls") {
        if (text != "on" && text != "off") return "controls='" + text + "': allowed: on, off";
        controls_ = text == "on";
        return "";
    }
    if (key == "run") {
        if (text != "on") return "run='" + text + "': allowed: on";
        run_requested_ = true;
        return "";
    }
    return "view 'timeline' has no setting '" + std::string(key) +
           "'; settings: kernel, compare, mnk, blocks, open, compare_open, window, run, controls";
}

TimelinePanel::Shown TimelinePanel::shown(AppContext& context, int slot, bool bulk_ready) const {
    const Slot& s = slots_[static_cast<std::size_t>(slot)];
    if (s.file) return {s.file, "from " + s.file_path};
    const std::string& id = kernel_id(slot);
    if (id.empty()) return {};
    if (const auto live = context.live_traces.latest()) {
        if (const viz::WarpTrace* trace = find_trace(live->traces, id)) {
            return {std::shared_ptr<const viz::WarpTrace>(live, trace), "traced in the worker"};
        }
    }
    const auto recording = context.recording.latest();
    if (!recording) {
        return {nullptr, "No trace of " + id +
                             " yet: Trace on GPU takes one, or open a "
                             "recording with traces or a trace file."};
    }
    if (!bulk_ready) return {nullptr, bulk_read_.progress()};
    const profiling::Recording& r = recording->recording;
    if (const viz::WarpTrace* trace = find_trace(profiling::traces_of(r), id)) {
        return {std::shared_ptr<const viz::WarpTrace>(recording, trace), "from " + recording->path};
    }
    if (!r.traces_missing.empty()) {
        return {nullptr,
                "No trace of " + id + ": the open recording has none: " + r.traces_missing + "."};
    }
    if (r.bulk && !r.bulk->error().empty()) {
        return {nullptr, "No trace of " + id + ": the open recording's traces could not be read: " +
                             r.bulk->error() + "."};
    }
    const std::string kernels = common::join(profiling::traces_of(r), ", ",
                                             [](const viz::WarpTrace& t) { return t.kernel; });
    return {nullptr, "No trace of " + id + " in the open recording; it has traces of: " +
                         (kernels.empty() ? std::string("none") : kernels) + "."};
}

void TimelinePanel::draw_contents(AppContext& context) {
    if (controls_ && !controls_folded()) {
        draw_controls(context);
        draw_file_row();
    }
    // The open recording's traces are read on the job runner: the first use parses them.
    const auto recording = context.recording.latest();
    const bool bulk_ready = !recording || bulk_read_.ready(context, recording->recording);
    std::array<Shown, 2> traces{shown(context, 0, bulk_ready), shown(context, 1, bulk_ready)};
    const bool two = compare_ >= 0 || slots_[1].file;
    std::int64_t total_ns = 1;
    bool any = false;
    for (int i = 0; i < (two ? 2 : 1); ++i) {
        if (!traces[i].trace) continue;
        total_ns = std::max(total_ns, viz::trace_end_ns(*traces[i].trace));
        any = true;
    }
    // Without a trace the window stays as asked (the whole trace by default): made concrete
    // against an empty one it would shrink to its floor when the trace arrives.
    if (any) window_ = viz::clamp_window(window_, total_ns);
    if (any) handle_keys(total_ns);
    const viz::TimeWindow shown_window = viz::clamp_window(window_, total_ns);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped(
        "window %s to %s of %s  -  wheel or = - zoom, drag or , . pan, 0 whole trace",
        microseconds(shown_window.start_ns).c_str(), microseconds(shown_window.end_ns).c_str(),
        microseconds(total_ns).c_str());
    ImGui::PopStyleColor();
    ImGui::BeginChild("timelines", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollWithMouse);
    for (int i = 0; i < (two ? 2 : 1); ++i) {
        const Shown& s = traces[static_cast<std::size_t>(i)];
        ImGui::PushID(i);
        if (!s.trace) {
            ImGui::PushStyleColor(ImGuiCol_Text, imgui_colour(theme().note));
            ImGui::TextWrapped("%s", s.source.c_str());
            ImGui::PopStyleColor();
        } else {
            ImGui::TextDisabled("%s", s.source.c_str());
            // A recording's trace holds 8 blocks: draw and sum up the first `blocks_` of them.
            const viz::WarpTrace shown = viz::first_blocks(*s.trace, blocks_);
            draw_trace(shown, total_ns);
            draw_summary(shown);
        }
        ImGui::Separator();
        ImGui::PopID();
    }
    ImGui::EndChild();
    // A drag that began on either trace pans both (one window), once per frame.
    if (dragging_ && !ImGui::IsMouseDown(ImGuiMouseButton_Left)) dragging_ = false;
    const float drag = ImGui::GetIO().MouseDelta.x;
    if (dragging_ && drag != 0.0f)
        window_ = viz::pan_window(window_, -drag / bars_width_, total_ns);
}

void TimelinePanel::draw_controls(AppContext& context) {
    // Kernels of yours join the list once a load named them (traced in the worker).
    if (const auto yours = context.user_kernels.latest()) {
        for (const UserKernel& kernel : yours->kernels) {
            if (kernel.form.empty() || kernel.form == "exercise") continue;
            if (std::find(traced_kernels_.begin(), traced_kernels_.end(), kernel.id) ==
                traced_kernels_.end())
                traced_kernels_.push_back(kernel.id);
        }
    }
    const auto combo = [&](const char* label, int& index, bool none) {
        const char* preview =
            index < 0 ? "none" : traced_kernels_[static_cast<std::size_t>(index)].c_str();
        next_item_width(10, preview, ItemKind::kCombo);
        const bool open = ImGui::BeginCombo(label, preview);
        if (!open) {
            note_shown_value(preview, ItemKind::kCombo, label);
            return;
        }
        if (none && ImGui::Selectable("none", index < 0)) {
            index = -1;
            slots_[1] = {};
        }
        for (std::size_t i = 0; i < traced_kernels_.size(); ++i) {
            if (ImGui::Selectable(traced_kernels_[i].c_str(), static_cast<int>(i) == index)) {
                index = static_cast<int>(i);
                slots_[&index == &kernel_ ? 0 : 1] = {};
                window_ = {};
            }
        }
        ImGui::EndCombo();
    };
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("kernel");
    ImGui::SameLine();
    combo("##kernel", kernel_, false);
    ImGui::SameLine();
    ImGui::TextUnformatted("below");
    ImGui::SameLine();
    combo("##compare", compare_, true);
    ImGui::SameLine();
    size_.draw();
    ImGui::SameLine();
    ImGui::TextUnformatted("blocks");
    ImGui::SameLine();
    next_item_width(0, std::to_string(std::max(blocks_, 999)), ItemKind::kStepper);
    if (ImGui::InputInt("##blocks", &blocks_)) {
        blocks_ = std::clamp(blocks_, 1, kernels::kMaxTracedBlocks);
    }
    note_shown_value(std::to_string(blocks_), ItemKind::kStepper);
    ImGui::SameLine();
    JobControls controls;
    controls.run_label = "Trace on GPU";
    controls.run_tooltip =
        "run the traced variant of the kernel (and of the one below), verified "
        "first, and read back what every warp of the first blocks did";
    controls.gpu_use = "a trace";
    controls.blocked = size_.error();
    const auto system = context.system.latest();
    const bool clicked = draw_job_controls(controls, job_, system.get(), theme());
    if (clicked || (run_requested_ && job_can_start(controls, job_.snapshot(), system.get()))) {
        run_requested_ = false;
        std::vector<std::string> ids{kernel_id(0)};
        if (!kernel_id(1).empty()) ids.push_back(kernel_id(1));
        job_ = request_traces(context, ids, size_.problem(), blocks_);
    }
    if (const auto live = context.live_traces.latest(); live && !live->error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, imgui_colour(theme().error));
        ImGui::TextWrapped("%s", live->error.c_str());
        ImGui::PopStyleColor();
    }
}

void TimelinePanel::draw_file_row() {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("trace file");
    ImGui::SameLine();
    next_item_width(24);
    ImGui::InputTextWithHint("##path", "a trace JSON (tclens trace --json F)", path_buffer_.data(),
                             path_buffer_.size());
    for (int slot = 0; slot < 2; ++slot) {
        ImGui::SameLine();
        if (ImGui::Button(slot == 0 ? "Open above" : "Open below")) {
            file_error_ = open_file(slot, path_buffer_.data());
        }
    }
    if (!file_error_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, imgui_colour(theme().error));
        ImGui::TextWrapped("%s", file_error_.c_str());
        ImGui::PopStyleColor();
    }
}

void TimelinePanel::draw_trace(const viz::WarpTrace& trace, std::int64_t total_ns) {
    const float zoom = ui_zoom();
    viz::TimelineOptions options;
    options.width = std::max(200.0f, ImGui::GetContentRegionAvail().x / zoom);
    options.view_start_ns = window_.start_ns;
    options.view_end_ns = window_.end_ns;
    options.palette = &theme().palette;
    const viz::DrawList draw = viz::warp_timeline(trace, options);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const int hit = paint_draw_list(draw, 1.0f);
    const ImGuiIO& io = ImGui::GetIO();
    const float bars_left = origin.x + viz::kTimelineLabelWidth * zoom;
    const float bars_width =
        std::max(1.0f, (options.width - 8.0f - viz::kTimelineLabelWidth) * zoom);
    if (ImGui::IsItemHovered()) {
        if (io.MouseWheel != 0.0f) {
            const double anchor = (io.MousePos.x - bars_left) / bars_width;
            window_ =
                viz::zoom_window(window_, std::pow(kWheelZoom, io.MouseWheel), anchor, total_ns);
        }
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) dragging_ = true;
    }
    bars_width_ = bars_width;
    if (hit >= 0 && static_cast<std::size_t>(hit) < trace.phases.size()) {
        const viz::WarpPhase& p = trace.phases[static_cast<std::size_t>(hit)];
        ImGui::BeginTooltip();
        ImGui::Text("%s: %s (%s)", viz::phase_words(p.phase), viz::phase_meaning(p.phase),
                    viz::phase_name(p.phase));
        ImGui::Text("block %d  warp %d  SM %d", p.block, p.warp, p.sm);
        if (p.k_tile >= 0) {
            ImGui::Text("K tile %d", p.k_tile);
        } else {
            ImGui::TextUnformatted("no K tile (after the K loop)");
        }
        ImGui::Text("%s (%lld cycles), %s to %s", microseconds(p.end_ns - p.start_ns).c_str(),
                    static_cast<long long>(p.cycles), microseconds(p.start_ns).c_str(),
                    microseconds(p.end_ns).c_str());
        ImGui::EndTooltip();
    }
}

// Each phase's share goes on the line while it fits, else starts the next one; the idle line
// wraps: nothing runs past the pane at lecture zoom.
void TimelinePanel::draw_summary(const viz::WarpTrace& trace) const {
    const viz::TraceSummary summary = viz::summarize_trace(trace);
    ImGui::TextUnformatted("share of the warps' time:");
    for (const viz::PhaseShare& share : summary.shares) {
        if (share.count == 0) continue;
        char value[32];
        std::snprintf(value, sizeof value, "%.1f %%", 100.0 * share.share);
        const char* words = viz::phase_words(share.phase);
        same_line_if_fits(ImGui::CalcTextSize(words).x + 4.0f + ImGui::CalcTextSize(value).x);
        const viz::Rgba& c = viz::category_colour(theme().palette, static_cast<int>(share.phase));
        ImGui::TextColored(imgui_colour(c), "%s", words);
        ImGui::SameLine(0.0f, 4.0f);
        ImGui::TextUnformatted(value);
    }
    const viz::TensorPipeIdle idle = viz::tensor_pipe_idle(summary);
    if (idle.warps == 0) {
        ImGui::TextDisabled("no wgmma or mma_sync phases: the tensor pipe is not traced here");
        return;
    }
    ImGui::TextWrapped(
        "tensor pipe idle between K tiles: %s summed over %d multiplying warps (%s per warp), "
        "longest gap %s",
        microseconds(idle.idle_ns).c_str(), idle.warps,
        microseconds(idle.idle_ns / idle.warps).c_str(), microseconds(idle.longest_ns).c_str());
}

void TimelinePanel::handle_keys(std::int64_t total_ns) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl || io.WantTextInput ||
        !ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows)) {
        return;
    }
    if (ImGui::IsKeyPressed(keys::kEqual) || ImGui::IsKeyPressed(keys::kKeypadAdd)) {
        window_ = viz::zoom_window(window_, kKeyZoom, 0.5, total_ns);
    }
    if (ImGui::IsKeyPressed(keys::kMinus) || ImGui::IsKeyPressed(keys::kKeypadSubtract)) {
        window_ = viz::zoom_window(window_, 1.0 / kKeyZoom, 0.5, total_ns);
    }
    if (ImGui::IsKeyPressed(keys::kComma)) window_ = viz::pan_window(window_, -kKeyPan, total_ns);
    if (ImGui::IsKeyPressed(keys::kPeriod)) window_ = viz::pan_window(window_, kKeyPan, total_ns);
    if (ImGui::IsKeyPressed(keys::k0, false) || ImGui::IsKeyPressed(keys::kKeypad0, false)) {
        window_ = viz::clamp_window({}, total_ns);
    }
}

}  // namespace tclens::gui
