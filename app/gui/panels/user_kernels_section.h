#pragma once
// The Kernels panel's "yours" group: kernels of yours opened by File > Open
// kernel..., a dropped .cu or the `kernels.open=REF` setting, each built in the worker process
// (app/gui/jobs/user_kernel_job.h) at the panel's first size. Per kernel: its versions (v1, v2,
// ...; the lines of app/worker/watch_versions.h), Rebuild, and a Watch toggle that builds a new
// version at each save (app/worker/watched_file.h). A version that did not build shows its
// one line (a compile error as file:line: error: message) and the last good version under it; a
// version that failed verification shows its error map (viz/error_map_view.h): where C is
// wrong, the first wrong element with expected and got, and the pattern's hint.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/jobs/job_runner.h"
#include "app/gui/jobs/user_kernel_job.h"
#include "app/gui/views/theme.h"
#include "app/worker/watched_file.h"
#include "kernels/gemm.h"
#include "viz/error_map_view.h"

namespace tclens::gui {

struct AppContext;

class UserKernelsSection {
  public:
    // Opens `ref` (built at the next draw) and selects it.
    void open(const std::string& ref);
    void select(const std::string& ref) { selected_ = ref; }
    void deselect() { selected_.clear(); }
    bool has_selection() const { return !selected_.empty(); }
    const std::string& selected() const { return selected_; }
    // Watch on or off for `ref` (taking its current text as built).
    void set_watch(const std::string& ref, bool on);

    // Each frame, before drawing: posts the builds asked for and polls the watched files.
    void update(AppContext& context, const std::vector<kernels::GemmProblem>& problems);
    // The group in the ladder, when there is a kernel of yours; true when a row was clicked.
    bool draw_group(const UserKernels* kernels);
    // The selected kernel's details (instead of a rung's).
    void draw_details(AppContext& context, const std::shared_ptr<const UserKernels>& kernels,
                      const std::vector<kernels::GemmProblem>& problems, const Theme& theme);

  private:
    void draw_version(const std::shared_ptr<const UserKernels>& owner, const UserKernel& kernel,
                      int index, const Theme& theme);
    void draw_error_map(const std::shared_ptr<const UserKernels>& owner, const viz::ErrorMap& map,
                        const Theme& theme);

    std::vector<std::string> pending_;  // opened, build not posted yet
    std::string selected_;              // ref of the kernel whose details show; "" for none
    std::map<std::string, JobHandle> jobs_;
    std::map<std::string, std::unique_ptr<worker::WatchedFile>> watching_;
    double next_poll_s_ = 0;
    int shown_version_ = -1;  // index into the selected kernel's versions; -1: the newest
    // The error map drawn: made again when the map or the theme changes.
    const viz::ErrorMap* map_drawn_ = nullptr;
    const Theme* map_theme_ = nullptr;
    std::shared_ptr<const UserKernels> map_owner_;
    viz::ErrorMapView map_view_;
};

}  // namespace tclens::gui
