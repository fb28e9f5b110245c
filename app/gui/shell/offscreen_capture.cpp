#include "app/gui/shell/offscreen_capture.h"

#include <GL/gl.h>
#include <GL/glext.h>
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "app/exit_codes.h"
#include "app/gui/jobs/app_context.h"
#include "app/gui/jobs/open_recordings.h"
#include "app/gui/panels/panel_registry.h"
#include "app/gui/panels/panel_settings.h"
#include "app/gui/shell/frame_stats.h"
#include "app/gui/shell/gui_runtime.h"
#include "app/gui/shell/layout_report.h"
#include "app/gui/shell/layout_settle.h"
#include "app/gui/shell/recording_io.h"
#include "app/gui/shell/shell_frame.h"
#include "app/gui/shell/tour_overlay.h"
#include "app/gui/views/lecture_mode.h"
#include "app/gui/views/presentation.h"
#include "common/atomic_file.h"
#include "viz/png_writer.h"

namespace tclens::gui {
namespace {

// An RGBA8 colour renderbuffer bound as the draw and read framebuffer while alive.
class Framebuffer {
  public:
    Framebuffer(int width, int height) {
        glGenFramebuffers(1, &framebuffer_);
        glGenRenderbuffers(1, &colour_);
        glBindRenderbuffer(GL_RENDERBUFFER, colour_);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
        glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_);
    }
    ~Framebuffer() {
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glDeleteRenderbuffers(1, &colour_);
        glDeleteFramebuffers(1, &framebuffer_);
    }
    bool complete() const {
        return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    }

  private:
    GLuint framebuffer_ = 0;
    GLuint colour_ = 0;
};

// GL rows run bottom-up; PNG rows top-down.
viz::RgbaImage read_pixels(int width, int height) {
    viz::RgbaImage image{width, height, std::vector<std::uint8_t>(size_t(width) * height * 4)};
    std::vector<std::uint8_t> raw(image.pixels.size());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, raw.data());
    const size_t row_bytes = size_t(width) * 4;
    for (int y = 0; y < height; ++y) {
        std::memcpy(&image.pixels[y * row_bytes], &raw[(height - 1 - y) * row_bytes], row_bytes);
    }
    return image;
}

// The panel alone in a window filling the image, above the caption banner if there is one.
void draw_view_alone(Panel& panel, AppContext& context, const CaptureRequest& request,
                     const LectureMode& lecture) {
    const float banner =
        request.caption.empty()
            ? 0.0f
            : draw_banner_above({request.caption, request.caption_counter, {}}, 0.0f,
                                float(request.height), float(request.width), lecture);
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(float(request.width), float(request.height) - banner));
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;
    if (ImGui::Begin(std::string(panel.title()).c_str(), nullptr, flags)) panel.draw(context);
    ImGui::End();
}

}  // namespace

int capture_view(const CaptureRequest& request) {
    ShellFrame shell;
    const auto& panels = shell.panels();
    Panel* panel = nullptr;
    for (const auto& candidate : panels) {
        if (candidate->id() == request.view) panel = candidate.get();
    }
    std::string error;
    if (request.whole_window) {
        error = shell.apply_settings(request.settings);
        if (error.empty() && !request.view.empty()) error = shell.show_only(request.view);
    } else if (!panel) {
        error = "unknown view '" + request.view + "'; views: " + panel_ids_text();
    } else {
        error = apply_panel_settings(panels, request.settings, request.view);
    }
    if (!error.empty()) {
        std::fprintf(stderr, "tclens: %s\n", error.c_str());
        return kExitUsage;
    }

    GuiRuntimeOptions window_options;
    window_options.visible = false;
    window_options.width = 64;
    window_options.height = 64;
    auto runtime = GuiRuntime::open(window_options, error);
    if (!runtime) {
        std::fprintf(stderr, "tclens: %s\n", error.c_str());
        return kExitNeedsResource;
    }
    GLint max_size = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
    if (request.width > max_size || request.height > max_size) {
        std::fprintf(stderr, "tclens: --size %dx%d exceeds this OpenGL's limit of %d pixels\n",
                     request.width, request.height, max_size);
        return kExitUsage;
    }

    AppContext context;
    request_system_query(context);
    context.jobs.wait_idle(std::chrono::seconds(60));
    std::string open_error;
    std::vector<std::string> open_paths = request.open_paths;
    if (const auto system = context.system.latest();
        system && request.tour_step && !request.whole_window && open_paths.empty()) {
        const std::string path = start_up_recording_path(system->has_gpu(), false);
        if (!path.empty()) open_paths.push_back(path);
    }
    for (const std::string& path : open_paths) {
        const std::string error = open_recording_now(context, path);
        if (!error.empty()) std::fprintf(stderr, "tclens: %s\n", error.c_str());
        if (open_error.empty()) open_error = error;
    }

    Framebuffer framebuffer(request.width, request.height);
    if (!framebuffer.complete()) {
        std::fprintf(stderr, "tclens: cannot create a %dx%d offscreen framebuffer\n", request.width,
                     request.height);
        return kExitFailure;
    }
    LectureMode lecture(request.lecture, {[&runtime] { runtime->fonts_changed(); }, {}});
    lecture.set_content_scale(request.content_scale);
    lecture.apply_pending();
    FrameStats stats;
    // The whole window goes on drawing (at most LayoutSettle::kMaxExtraSeconds more) until it has
    // settled: the panes have taken the widths their views need.
    LayoutSettle settle;
    const auto more = [&](int frame) {
        return frame < request.frames ||
               (request.whole_window && !settle.settled() && settle.may_wait());
    };
    for (int frame = 0; more(frame); ++frame) {
        stats.begin_frame();
        runtime->begin_frame(request.width, request.height);
        if (request.whole_window) {
            shell.update_presentation(lecture.presentation());
            shell.draw(context);
            lecture.draw_frame();
            settle.saw(context.jobs.wait_idle(std::chrono::milliseconds(0)), shell.layout());
        } else {
            set_controls_folded(request.tour_step && lecture.presentation());
            draw_view_alone(*panel, context, request, lecture);
        }
        glViewport(0, 0, request.width, request.height);
        const auto clear = lecture.clear_colour();
        glClearColor(clear[0], clear[1], clear[2], clear[3]);
        glClear(GL_COLOR_BUFFER_BIT);
        runtime->render_frame();
        glFinish();
        stats.end_frame();
        // What the app starts in its first frame (the shipped recording where there is no GPU)
        // is there before the last one.
        if (frame == 0) context.jobs.wait_idle(std::chrono::seconds(60));
    }
    if (request.frame_stats) std::printf("%s\n", stats.summary().c_str());
    error = viz::write_png(read_pixels(request.width, request.height), request.out_path);
    if (error.empty() && !request.layout_json_path.empty()) {
        error = request.whole_window ? write_layout_report(shell, request.layout_json_path)
                                     : common::write_bytes_atomically(
                                           request.layout_json_path,
                                           view_layout_report_json(std::string(panel->title())));
    }
    if (!error.empty()) {
        std::fprintf(stderr, "tclens: %s\n", error.c_str());
        return kExitFailure;
    }
    return open_error.empty() ? kExitOk : kExitFailure;
}

}  // namespace tclens::gui
