#include "app/gui/jobs/user_kernel_job.h"

#include <filesystem>

#include "app/gui/jobs/app_context.h"
#include "app/gui/jobs/source_job.h"
#include "app/worker/version_build.h"
#include "app/worker/watched_file.h"
#include "kernels/problem_text.h"
#include "kernels/user/discovery.h"
#include "kernels/user/kernel_ref.h"

namespace tclens::gui {
namespace {

// Publishes a copy of the newest list with `change` applied to the entry of `ref` (made when
// missing).
template <typename Change>
void change_kernel(AppContext& context, const std::string& ref, Change change) {
    const auto latest = context.user_kernels.latest();
    auto next = latest ? std::make_shared<UserKernels>(*latest) : std::make_shared<UserKernels>();
    int index = next->find(ref);
    if (index < 0) {
        UserKernel kernel;
        kernel.ref = ref;
        const auto parsed = kernels::user::parse_kernel_ref(ref);
        kernel.id = parsed ? std::filesystem::path(parsed->path).filename().string() : ref;
        next->kernels.push_back(std::move(kernel));
        index = int(next->kernels.size()) - 1;
    }
    change(next->kernels[std::size_t(index)]);
    context.user_kernels.publish(std::move(next));
}

}  // namespace

int UserKernels::find(const std::string& ref) const {
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        if (kernels[i].ref == ref) return int(i);
    }
    return -1;
}

std::string check_user_kernel_ref(const std::string& ref) {
    const auto parsed = kernels::user::parse_kernel_ref(ref);
    return parsed ? "" : parsed.error();
}

std::string exercise_layout_of(const std::string& ref) {
    const auto parsed = kernels::user::parse_kernel_ref(ref);
    if (!parsed) return "";
    const std::optional<std::string> text = worker::read_file_text(parsed->path);
    if (!text) return "";
    const auto found = kernels::user::discover_kernel(*text, parsed->path, *parsed);
    if (!found || found->form != kernels::user::KernelForm::kFragmentExercise) return "";
    return found->exercise_layout;
}

JobHandle request_user_kernel_build(AppContext& context, std::string ref,
                                    kernels::GemmProblem problem, bool profile) {
    const std::string title = "Build " + std::filesystem::path(ref).filename().string();
    return context.jobs.post(title, [&context, ref, problem, profile](JobProgress& progress) {
        int number = 1;
        change_kernel(context, ref,
                      [&](UserKernel& kernel) { number = int(kernel.versions.size()) + 1; });
        worker::VersionBuildOptions options;
        options.ref = ref;
        options.problem = problem;
        options.profile = profile;
        options.timeline = profile;
        worker::VersionBuild built =
            worker::build_version(worker_client(context), number, options, job_progress(progress),
                                  &progress.cancel_flag());
        if (built.end == worker::VersionBuild::End::kCancelled) return;
        const bool unavailable = built.end == worker::VersionBuild::End::kNeedsResource;
        context.worker_status.publish(std::make_shared<WorkerStatus>(
            WorkerStatus{worker_client(context).worker(), unavailable ? built.stop.message : ""}));
        // No GPU there (or no worker): nothing was built to keep as a version; the Kernels
        // panel says it once, from the worker's status.
        if (unavailable) return;
        change_kernel(context, ref, [&](UserKernel& kernel) {
            if (!built.loaded.id.empty()) {
                kernel.id = built.loaded.id;
                kernel.form = built.loaded.form;
                kernel.title = built.loaded.descriptor.value("title", "");
            }
            kernel.versions.push_back(std::move(built.version));
            if (kernel.versions.back().good()) kernel.last_good = int(kernel.versions.size()) - 1;
        });
    });
}

JobHandle request_exercise(AppContext& context, std::string ref) {
    const std::string title = "Exercise " + std::filesystem::path(ref).filename().string();
    return context.jobs.post(title, [&context, ref](JobProgress& progress) {
        auto run = std::make_shared<ExerciseRun>();
        run->ref = ref;
        const worker::Reply reply = worker_client(context).call(
            worker::ExerciseRequest{ref}, job_progress(progress), &progress.cancel_flag());
        if (reply.outcome == worker::Reply::Outcome::kCancelled) return;
        worker::ExerciseResult result;
        std::string error;
        if (!reply.ok()) {
            run->error = reply.message;
            if (reply.worker_lost()) run->error += "; a fresh worker starts at the next run";
        } else if (!worker::exercise_from_json(reply.result, result, error)) {
            run->error = "the worker's exercise result: " + error;
        } else {
            run->result = std::move(result);
        }
        context.exercise.publish(std::move(run));
    });
}

std::string user_source_id(const std::string& ref) {
    const auto parsed = kernels::user::parse_kernel_ref(ref);
    return parsed ? kernels::user::user_kernel_id(*parsed) : ref;
}

JobHandle request_user_source_profile(AppContext& context, std::string ref,
                                      kernels::GemmProblem problem) {
    const std::string title = "Source " + std::filesystem::path(ref).filename().string();
    return context.jobs.post(title, [&context, ref, problem](JobProgress& progress) {
        const std::string shown_id = user_source_id(ref);
        const auto client = source_worker(context);
        worker::Reply reply = client->call(worker::LoadRequest{ref, false, {problem}},
                                           job_progress(progress), &progress.cancel_flag());
        if (reply.outcome == worker::Reply::Outcome::kCancelled) return;
        worker::LoadResult loaded;
        if (!worker::read_result(reply, "load", worker::load_from_json, loaded))
            return publish_source_failure(context, shown_id, problem, reply.message);
        if (!loaded.can_run.empty() && !loaded.can_run.front().reason.empty()) {
            return publish_source_failure(context, shown_id, problem,
                                          loaded.id + " cannot run " +
                                              kernels::problem_text(problem) + ": " +
                                              loaded.can_run.front().reason);
        }
        publish_worker_source_profile(context, *client, progress, loaded.id, shown_id, problem);
    });
}

bool user_kernel_link(const std::string& ref, PanelLink& link, std::string& error) {
    error = check_user_kernel_ref(ref);
    if (!error.empty()) return false;
    const std::string layout = exercise_layout_of(ref);
    link = layout.empty() ? PanelLink{"kernels", {"open=" + ref}}
                          : PanelLink{"fragments", {"exercise=" + ref}};
    return true;
}

}  // namespace tclens::gui
