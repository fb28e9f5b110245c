#include "app/cli/worker_calls.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <functional>
#include <memory>

#include "app/cli/drawing_export.h"
#include "app/exit_codes.h"
#include "common/one_line.h"
#include "kernels/problem_text.h"
#include "kernels/user/kernel_ref.h"
#include "viz/error_map.h"
#include "viz/error_map_view.h"

namespace tclens::cli {
namespace {

bool ends_with_ignoring_case(std::string text, const std::string& suffix) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

constexpr const char* kRemoteHelp =
    "Run the worker on this host through the system's ssh: [user@]host[:path to tclens there] "
    "(docs/remote.md; ssh's config, keys and agent do the rest)";
constexpr const char* kWorkerHelp =
    "Command that starts the worker (default: this tclens with 'worker', or $TCLENS_WORKER), run "
    "by /bin/sh, e.g. 'srun -n1 -Q tclens worker' (docs/many-gpus.md)";

// Adds --remote, each value checked as it is parsed and handed to `take` once it is a target.
CLI::Option* add_remote_targets(CLI::App& command,
                                std::function<void(const worker::RemoteTarget&)> take) {
    // The option's own strings are not needed once the targets are parsed.
    auto texts = std::make_shared<std::vector<std::string>>();
    return command.add_option("--remote", *texts, kRemoteHelp)
        ->check(CLI::Validator(
            [take = std::move(take), texts](std::string& value) {
                const auto target = worker::parse_remote_target(value);
                if (!target) return target.error();
                take(*target);
                return std::string();
            },
            "[user@]host[:/path/to/tclens]"));
}

void add_time_limit_option(CLI::App& command, double& time_limit_s) {
    command
        .add_option("--time-limit", time_limit_s,
                    "Seconds a kernel run (verify and time one size) may take in the worker "
                    "before it is killed and restarted (0.1-3600)")
        ->capture_default_str()
        ->check(CLI::Range(0.1, 3600.0));
}

}  // namespace

CLI::Option* add_remote_option(CLI::App& command, std::optional<worker::RemoteTarget>& remote) {
    return add_remote_targets(command,
                              [&remote](const worker::RemoteTarget& target) { remote = target; })
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
}

void add_worker_options(CLI::App& command, WorkerOptions& options) {
    CLI::Option* worker = command.add_option("--worker", options.command, kWorkerHelp);
    add_remote_option(command, options.remote)->excludes(worker);
    add_time_limit_option(command, options.time_limit_s);
}

void add_spread_worker_options(CLI::App& command, SpreadWorkerOptions& options) {
    CLI::Option* worker =
        command
            .add_option("--worker", options.commands,
                        std::string(kWorkerHelp) + "; repeatable: each is one worker")
            ->allow_extra_args(false);
    add_remote_targets(
        command,
        [&options](const worker::RemoteTarget& target) { options.remotes.push_back(target); })
        ->description(std::string(kRemoteHelp) + "; repeatable: each host is one worker")
        ->allow_extra_args(false)
        ->excludes(worker);
    add_time_limit_option(command, options.time_limit_s);
}

worker::ClientOptions client_options(const WorkerOptions& options) {
    worker::ClientOptions client;
    if (!options.command.empty()) client.command = options.command;
    client.remote = options.remote;
    client.time_limit_s = options.time_limit_s;
    return client;
}

std::string spread_worker_commands(const SpreadWorkerOptions& given, int workers, int gpu,
                                   std::vector<worker::ClientOptions>& commands) {
    const bool own_command = !given.commands.empty();
    if (gpu >= 0 && workers > 1)
        return "--gpu picks the GPU of one worker; --workers N puts one on each of N GPUs";
    if (gpu >= 0 && own_command)
        return "--gpu picks a GPU for this tclens's own worker; with --worker give the "
               "command its own --gpu N";
    std::vector<worker::ClientOptions> places;
    for (const std::string& command : given.commands) places.emplace_back().command = command;
    for (const worker::RemoteTarget& remote : given.remotes) places.emplace_back().remote = remote;
    if (places.empty()) places.emplace_back();
    for (const worker::ClientOptions& place : places) {
        for (int w = 0; w < workers; ++w) {
            worker::ClientOptions client = place;
            client.time_limit_s = given.time_limit_s;
            const int pinned = gpu >= 0 ? gpu : workers > 1 ? w : -1;
            commands.push_back(pinned >= 0 ? worker::worker_on_gpu(client, pinned, own_command)
                                           : client);
        }
    }
    return "";
}

int load_on_every_worker(const std::vector<std::string>& refs,
                         std::vector<std::unique_ptr<worker::ClientSpreadWorker>>& workers,
                         const std::string& what, std::vector<worker::LoadResult>& loaded) {
    for (std::size_t w = 0; w < workers.size(); ++w) {
        if (const int code = check_remote_gpu(workers[w]->client()); code != kExitOk) return code;
        std::vector<worker::LoadResult> here;
        const int code =
            load_kernels(workers[w]->client(), refs, {}, false, ProgressLines(what), here);
        if (code != kExitOk) return code;
        if (w == 0) loaded = std::move(here);
    }
    return kExitOk;
}

int check_remote_gpu(worker::WorkerClient& client, const WorkerOptions& options) {
    if (!options.remote) return kExitOk;
    return check_remote_gpu(client);
}

int check_remote_gpu(worker::WorkerClient& client) {
    if (!client.options().remote) return kExitOk;
    const worker::Reply hello = client.connect();
    if (!hello.ok()) return report_failure(hello);
    const profiling::SystemReport& system = client.worker().system;
    if (system.has_gpu()) return kExitOk;
    std::fprintf(stderr, "tclens: no GPU on %s (%s)\n", client.where().c_str(),
                 common::one_line(system.no_gpu_reason).c_str());
    return kExitNeedsResource;
}

int reply_exit_code(const worker::Reply& reply) {
    using Outcome = worker::Reply::Outcome;
    switch (reply.outcome) {
        case Outcome::kResult:
            return kExitOk;
        case Outcome::kCannotStart:
            return kExitNeedsResource;
        case Outcome::kError:
            switch (reply.error.kind) {
                case worker::ErrorKind::kUsage:
                    return kExitUsage;
                case worker::ErrorKind::kNeedsResource:
                    return kExitNeedsResource;
                default:
                    return kExitFailure;
            }
        default:
            return kExitFailure;
    }
}

int report_failure(const worker::Reply& reply) {
    std::fprintf(stderr, "tclens: %s\n", common::one_line(reply.message).c_str());
    return reply_exit_code(reply);
}

ProgressLines::ProgressLines(std::string what)
    : what_(std::move(what)), tty_(isatty(fileno(stderr)) != 0) {}

void ProgressLines::operator()(const worker::Progress& p) const {
    // A compile is worth watching on a terminal only; in a log its line would come before a
    // compile error's, which is then no longer the one line the error is.
    if (p.stage == "load" && !tty_) return;
    std::string line = what_;
    if (p.index >= 0 && p.total > 0) {
        line += " [" + std::to_string(p.index + 1) + "/" + std::to_string(p.total) + "]";
    } else {
        line += ":";
    }
    line += " " + p.text;
    std::fprintf(stderr, "%s%s%s", line.c_str(), tty_ ? "\x1b[K" : "", tty_ ? "\r" : "\n");
}

void ProgressLines::done() const {
    if (tty_) std::fprintf(stderr, "\x1b[K");
}

worker::ProgressHandler terminal_only(const ProgressLines& progress) {
    if (isatty(fileno(stderr)) == 0) return {};
    return [&progress](const worker::Progress& p) { progress(p); };
}

std::string check_kernel_refs(const std::vector<std::string>& refs) {
    for (const std::string& ref : refs) {
        const auto parsed = kernels::user::parse_kernel_ref(ref);
        if (!parsed) return parsed.error();
    }
    return "";
}

int load_kernels(worker::WorkerClient& client, const std::vector<std::string>& refs,
                 const std::vector<kernels::GemmProblem>& problems, bool compile_only,
                 const ProgressLines& progress, std::vector<worker::LoadResult>& loaded) {
    for (const std::string& ref : refs) {
        worker::LoadRequest request;
        request.ref = ref;
        request.compile_only = compile_only;
        request.problems = problems;
        const worker::Reply reply = client.call(request, progress);
        if (!reply.ok()) {
            progress.done();
            return report_failure(reply);
        }
        worker::LoadResult result;
        std::string error;
        if (!worker::load_from_json(reply.result, result, error)) {
            progress.done();
            std::fprintf(stderr, "tclens: the worker's answer to loading %s: %s\n", ref.c_str(),
                         error.c_str());
            return kExitFailure;
        }
        for (const std::string& warning : result.warnings)
            std::fprintf(stderr, "%s\n", warning.c_str());
        loaded.push_back(std::move(result));
    }
    return kExitOk;
}

std::string check_error_map_path(const std::string& path) {
    if (ends_with_ignoring_case(path, ".png") || ends_with_ignoring_case(path, ".svg")) return "";
    return "--error-map '" + path + "': give a path ending in .png or .svg";
}

int print_error_maps(const kernels::BenchReport& report, const std::string& path, std::FILE* out) {
    const viz::ErrorMap* first = nullptr;
    for (const kernels::BenchRow& row : report.rows) {
        const kernels::RunResult& r = row.result;
        if (!r.check.error_map || r.check.passed) continue;
        std::fprintf(out, "%s %s: %s\n", r.kernel_id.c_str(),
                     kernels::problem_text(r.problem).c_str(),
                     viz::error_map_summary(*r.check.error_map).c_str());
        for (const std::string& note : viz::error_map_notes(*r.check.error_map)) {
            std::fprintf(out, "  %s\n", note.c_str());
        }
        if (first == nullptr) first = &*r.check.error_map;
    }
    if (path.empty()) return kExitOk;
    if (first == nullptr) {
        std::fprintf(stderr, "tclens: --error-map: no run failed verification, %s not written\n",
                     path.c_str());
        return kExitOk;
    }
    const viz::ErrorMapView view = viz::error_map_view(*first, {});
    const bool svg = ends_with_ignoring_case(path, ".svg");
    return export_drawing(view.draw, svg ? path : "", svg ? "" : path);
}

}  // namespace tclens::cli
