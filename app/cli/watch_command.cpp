// `tclens watch FILE.cu[:NAME][:TYPE] [--mnk MxNxK] [--no-profile] [--keep DIR] [--json]
// [--stop-after N]`: each save of the file makes a new version (v1, v2, ...) that a worker
// process (app/worker/) compiles, loads, verifies, times next to its same-run cuBLAS reference
// and profiles; the TFLOP/s line is printed as soon as the bench is done, then the times of each
// step (compile, load, verify, time, profile) and what the edit changed against the previous
// good version. A version that does not build prints the compiler's `file:line: error: message`
// and the last good version stays the one compared against. Every version is kept: listed at
// the end and, with --keep DIR, written there as vN.cu (the source built) and vN.json (its
// results, and vN_error_map.png when it failed verification).
//
// The file is polled every --poll-ms (app/worker/watched_file.h says when a save is taken); each
// version is built by app/worker/version_build.h, the same steps as the GUI's Watch toggle.
// Ctrl+C (or SIGTERM) ends it cleanly: a request in flight is abandoned (its worker killed), the
// versions are listed, exit 0. With --stop-after N it ends after N versions instead, exit 0 when
// the last one verified, else 1. A worker that faults, hangs or crashes is one line for that
// version; the next save gets a fresh worker. No GPU or no profiling permission ends it (exit 3).

#include <signal.h>
#include <sys/stat.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include "app/cli/commands.h"
#include "app/cli/drawing_export.h"
#include "app/cli/usage_error.h"
#include "app/cli/worker_calls.h"
#include "app/exit_codes.h"
#include "app/worker/version_build.h"
#include "app/worker/watch_versions.h"
#include "app/worker/watched_file.h"
#include "common/atomic_file.h"
#include "kernels/problem_text.h"
#include "kernels/user/kernel_ref.h"
#include "viz/error_map_view.h"

namespace tclens::cli {
namespace {

struct WatchOptions {
    std::string ref;
    std::string size = "4096x4096x4096";
    bool no_profile = false;
    int runs = 30;
    int warmup = 5;
    std::string keep_dir;
    int stop_after = 0;  // 0: until Ctrl+C
    bool json = false;
    int poll_ms = 100;
    WorkerOptions worker;
};

std::atomic<bool> g_stop{false};  // set by SIGINT / SIGTERM

extern "C" void on_stop_signal(int) { g_stop = true; }

double seconds_since(std::int64_t realtime_ns) {
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    const std::int64_t now_ns = static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
    return static_cast<double>(now_ns - realtime_ns) / 1e9;
}

class Watch {
  public:
    Watch(const WatchOptions& options, const kernels::GemmProblem& problem)
        : options_(options), problem_(problem), client_(client_options(options.worker)) {}

    // Builds, runs and prints one version of `source`, saved at `mtime_ns`. Returns false when
    // watching cannot go on (no GPU, no permission: `exit_code` says which) or was stopped.
    bool build(int number, const std::string& source, std::int64_t mtime_ns, int& exit_code);

    const std::vector<worker::WatchVersion>& versions() const { return versions_; }

  private:
    void keep(const std::string& name, const std::string& bytes) const;
    void finish(worker::WatchVersion& version);

    const WatchOptions& options_;
    kernels::GemmProblem problem_;
    worker::WorkerClient client_;
    std::vector<worker::WatchVersion> versions_;
    int last_good_ = -1;  // index into versions_
};

void Watch::keep(const std::string& name, const std::string& bytes) const {
    if (options_.keep_dir.empty()) return;
    const std::string error = common::write_bytes_atomically(
        (std::filesystem::path(options_.keep_dir) / name).string(), bytes);
    if (!error.empty()) std::fprintf(stderr, "tclens: %s\n", error.c_str());
}

void Watch::finish(worker::WatchVersion& v) {
    if (options_.json) {
        std::printf("%s\n", to_json(v).dump().c_str());
    } else {
        if (!v.good()) std::printf("%s\n", version_result_text(v).c_str());
        if (const std::string times = version_times_text(v); !times.empty())
            std::printf("    %s\n", times.c_str());
        if (!v.profile_error.empty()) std::printf("    profile: %s\n", v.profile_error.c_str());
        if (v.good() && last_good_ >= 0) {
            std::printf(
                "    %s\n",
                version_change_text(versions_[static_cast<std::size_t>(last_good_)], v).c_str());
        } else if (!v.good() && last_good_ >= 0) {
            std::printf(
                "    last good: %s\n",
                version_result_text(versions_[static_cast<std::size_t>(last_good_)]).c_str());
        }
    }
    std::fflush(stdout);
    keep("v" + std::to_string(v.number) + ".json", to_json(v).dump(1) + "\n");
    versions_.push_back(v);
    if (v.good()) last_good_ = static_cast<int>(versions_.size()) - 1;
}

bool Watch::build(int number, const std::string& source, std::int64_t mtime_ns, int& exit_code) {
    keep("v" + std::to_string(number) + ".cu", source);
    const ProgressLines progress("watch v" + std::to_string(number));
    worker::VersionBuildOptions build_options;
    build_options.ref = options_.ref;
    build_options.problem = problem_;
    build_options.runs = options_.runs;
    build_options.warmup = options_.warmup;
    build_options.profile = !options_.no_profile;
    // As soon as the bench is in: the TFLOP/s line, or where C is wrong.
    auto benched = [&](worker::WatchVersion& v) {
        v.save_to_result_s = seconds_since(mtime_ns);
        progress.done();
        if (!options_.json && v.good()) {
            std::printf("%s\n", version_result_text(v).c_str());
            std::fflush(stdout);
        }
        if (!v.row || !v.row->result.check.error_map || v.row->result.check.passed) return;
        const viz::ErrorMap& map = *v.row->result.check.error_map;
        if (!options_.json) {
            std::printf("    %s\n", viz::error_map_summary(map).c_str());
            for (const std::string& note : viz::error_map_notes(map)) {
                std::printf("    %s\n", note.c_str());
            }
        }
        if (!options_.keep_dir.empty()) {
            const std::string path = (std::filesystem::path(options_.keep_dir) /
                                      ("v" + std::to_string(number) + "_error_map.png"))
                                         .string();
            export_drawing(viz::error_map_view(map, {}).draw, "", path);
        }
    };
    worker::VersionBuild built =
        worker::build_version(client_, number, build_options, progress, &g_stop, benched);
    progress.done();
    if (built.end == worker::VersionBuild::End::kCancelled) return false;
    if (built.end == worker::VersionBuild::End::kNeedsResource) {
        exit_code = report_failure(built.stop);
        return false;
    }
    for (const std::string& warning : built.loaded.warnings)
        std::fprintf(stderr, "%s\n", warning.c_str());
    finish(built.version);
    return true;
}

int run_watch(const WatchOptions& options) {
    const auto ref = kernels::user::parse_kernel_ref(options.ref);
    if (!ref) return usage_error(ref.error());
    const auto problem = kernels::parse_problem(options.size);
    if (!problem) return usage_error(kernels::problem_error(options.size));
    if (!worker::read_file_text(ref->path))
        return usage_error("cannot read " + ref->path + ": no such file, or not readable");
    if (!options.keep_dir.empty()) {
        std::error_code error;
        std::filesystem::create_directories(options.keep_dir, error);
        if (error || !std::filesystem::is_directory(options.keep_dir)) {
            std::fprintf(stderr, "tclens: --keep %s: cannot make that folder (%s)\n",
                         options.keep_dir.c_str(), error.message().c_str());
            return kExitFailure;
        }
    }
    struct sigaction action {};
    action.sa_handler = on_stop_signal;  // no SA_RESTART: a blocking call returns EINTR
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);

    if (!options.json) {
        std::printf(
            "watching %s at %s: each save is compiled, verified, timed next to cuBLAS%s; "
            "Ctrl+C ends\n",
            ref->path.c_str(), kernels::problem_text(*problem).c_str(),
            options.no_profile ? "" : " and profiled");
        std::fflush(stdout);
    }
    Watch watch(options, *problem);
    worker::WatchedFile file(ref->path);
    bool said_missing = false;
    int exit_code = kExitOk;
    int number = 0;
    const auto poll = std::chrono::milliseconds(options.poll_ms);
    while (!g_stop) {
        const std::optional<std::string> saved = file.poll();
        if (file.missing() && !said_missing)
            std::fprintf(stderr, "watch: waiting for %s\n", ref->path.c_str());
        said_missing = file.missing();
        if (!saved) {
            std::this_thread::sleep_for(poll);
            continue;
        }
        if (!watch.build(++number, *saved, file.taken_mtime_ns(), exit_code)) break;
        if (options.stop_after > 0 && number >= options.stop_after) {
            exit_code = watch.versions().back().good() ? kExitOk : kExitFailure;
            break;
        }
    }
    if (!options.json && !watch.versions().empty()) {
        std::printf("versions:\n");
        for (const worker::WatchVersion& v : watch.versions())
            std::printf("  %s\n", version_result_text(v).c_str());
    }
    return exit_code;
}

}  // namespace

void add_watch_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "watch",
        "Rebuild, verify, time (next to cuBLAS) and profile a kernel of yours at each save, "
        "keeping every version; runs it in a worker process; needs a GPU");
    auto options = std::make_shared<WatchOptions>();
    command->add_option("FILE", options->ref, "path.cu[:NAME][:TYPE] (docs/your-kernel.md)")
        ->required();
    command->add_option("--mnk", options->size, "Problem size MxNxK")->capture_default_str();
    command->add_flag("--no-profile", options->no_profile, "Verify and time only");
    command
        ->add_option("--runs", options->runs, "Timed runs per version; the median counts (1-1000)")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    command->add_option("--warmup", options->warmup, "Untimed runs first (0-100)")
        ->capture_default_str()
        ->check(CLI::Range(0, 100));
    command->add_option("--keep", options->keep_dir,
                        "Folder to keep every version in: vN.cu, vN.json (and vN_error_map.png)");
    command
        ->add_option("--stop-after", options->stop_after,
                     "End after N versions (for scripts; default: at Ctrl+C)")
        ->check(CLI::Range(1, 1000000));
    command->add_flag("--json", options->json, "One JSON object per version on stdout");
    command->add_option("--poll-ms", options->poll_ms, "How often to look at the file (10-10000)")
        ->capture_default_str()
        ->check(CLI::Range(10, 10000));
    add_worker_options(*command, options->worker);
    command->callback([options, &exit_code] { exit_code = run_watch(*options); });
}

}  // namespace tclens::cli
