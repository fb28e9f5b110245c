#pragma once
// What the commands that take a user's kernel (`--kernel path.cu[:NAME][:TYPE]` in bench,
// profile, record and kernels, and `tclens watch`) share: the options that say where the worker
// runs and how long a kernel may take, the one line and exit code of a failed call, progress
// lines, loading the kernels, and the error map of a failed verification.
// The kernel itself never runs in the CLI's process: every call goes to a worker
// (app/worker/client.h).

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/worker/bench_spread.h"
#include "app/worker/client.h"
#include "kernels/bench_result.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace tclens::cli {

struct WorkerOptions {
    std::string command;  // --worker CMD; "": worker::default_worker_command()
    // --remote [user@]host[:path] (worker/remote_target.h), parsed as CLI11 reads it; excludes
    // --worker.
    std::optional<worker::RemoteTarget> remote;
    double time_limit_s = worker::kDefaultTimeLimitS;  // --time-limit S

    // The user chose where the worker runs (--worker or --remote): work that could run in this
    // process goes to that worker instead.
    bool chosen() const { return !command.empty() || remote.has_value(); }
};

// Where the workers of a spread run (bench and record, app/worker/bench_spread.h): every --worker
// CMD and every --remote given is one, in the order given (both repeatable; they exclude each
// other, as in WorkerOptions). None: this tclens's own worker.
struct SpreadWorkerOptions {
    std::vector<std::string> commands;          // --worker CMD ...
    std::vector<worker::RemoteTarget> remotes;  // --remote [user@]host[:path] ...
    double time_limit_s = worker::kDefaultTimeLimitS;
};

// The workers a spread starts (bench, record; docs/many-gpus.md): one place per --worker CMD or
// --remote given (none: this tclens's own worker), and `workers` (--workers N) of each: of this
// tclens's worker (here, or on the --remote host) each on a GPU of its own (`worker --gpu i`), or
// N of --worker CMD (a scheduler such as srun places each); `gpu` (--gpu N; -1: not given) pins
// the worker (on each host). "" and `commands` filled, or the usage error, one line.
std::string spread_worker_commands(const SpreadWorkerOptions& given, int workers, int gpu,
                                   std::vector<worker::ClientOptions>& commands);

// Adds --remote to `command`: checked as it is parsed (a hostile value is a one-line usage error
// before anything runs), the parsed target landing in `remote`. For the GUI's command line too.
CLI::Option* add_remote_option(CLI::App& command, std::optional<worker::RemoteTarget>& remote);

// Adds --worker, --remote (checked as it is parsed: a hostile value is a one-line usage error
// before anything runs; with --worker too, one line saying they exclude each other) and
// --time-limit to `command`.
void add_worker_options(CLI::App& command, WorkerOptions& options);
// Adds --worker and --remote, each repeatable (checked as add_worker_options checks them), and
// --time-limit to `command`. A second of either in a command that takes add_worker_options is a
// one-line usage error naming the option.
void add_spread_worker_options(CLI::App& command, SpreadWorkerOptions& options);
worker::ClientOptions client_options(const WorkerOptions& options);

// With --remote: starts the worker (WorkerClient::connect) and checks that it sees a GPU, so that
// a host without one, or one that cannot be reached, is one line before a kernel is compiled.
// kExitOk (also without --remote: a local worker compiles first, so a bad file is still reported
// where there is no GPU), or prints one line and returns its exit code: why no worker answers,
// or "no GPU on <host> (<reason>)" (3).
int check_remote_gpu(worker::WorkerClient& client, const WorkerOptions& options);
// The same for a client of its own options (ClientOptions::remote).
int check_remote_gpu(worker::WorkerClient& client);

// The exit code of a reply that is not a result (app/exit_codes.h): the error's kind (usage 2,
// needs a resource 3, else 1); a worker that crashed, hung or wrote garbage 1; one that cannot
// start 3.
int reply_exit_code(const worker::Reply& reply);
// Prints the reply's one line on stderr ("tclens: <message>") and returns reply_exit_code.
int report_failure(const worker::Reply& reply);

// Progress of worker calls on stderr, "<what> [i/n] <text>" or "<what>: <text>", overwritten in
// place on a terminal. Compiling and loading ("load" progress) shows on a terminal only.
class ProgressLines {
  public:
    explicit ProgressLines(std::string what);
    void operator()(const worker::Progress& progress) const;
    // Clears the last line on a terminal.
    void done() const;

  private:
    std::string what_;
    bool tty_;
};

// `progress` on a terminal only: in a log, a progress line would come before the one line of a
// refusal (no GPU, no permission, busy counters), which is then no longer the one line it is.
worker::ProgressHandler terminal_only(const ProgressLines& progress);

// "" when every ref parses (kernels/user/kernel_ref.h; pure, checked before a worker starts),
// else the first one's error.
std::string check_kernel_refs(const std::vector<std::string>& refs);

// Loads each of `refs` in the worker (`compile_only`: compiles only), asking whether it can run
// each of `problems`. On the first failure prints its line and returns its exit code; else
// fills `loaded` (in order) and returns kExitOk.
int load_kernels(worker::WorkerClient& client, const std::vector<std::string>& refs,
                 const std::vector<kernels::GemmProblem>& problems, bool compile_only,
                 const ProgressLines& progress, std::vector<worker::LoadResult>& loaded);

// Loads each of `refs` on every one of `workers` (each compiles them; over ssh, a host without a
// GPU is one line before anything compiles: check_remote_gpu), `what` naming the progress lines.
// On the first failure prints its line and returns its exit code; else fills `loaded` with the
// first worker's results (in order) and returns kExitOk.
int load_on_every_worker(const std::vector<std::string>& refs,
                         std::vector<std::unique_ptr<worker::ClientSpreadWorker>>& workers,
                         const std::string& what, std::vector<worker::LoadResult>& loaded);

// "" when `path` ends in .png or .svg (any case), else the usage error for --error-map.
std::string check_error_map_path(const std::string& path);

// For every row of `report` that failed verification with an error map: prints on `out`
// "<kernel> <MxNxK>: " and viz::error_map_summary, then the pattern hint when there is one
// (stderr where stdout holds --json or --csv, which must stay one parseable document).
// Writes the first such map to `path` (PNG or SVG by its extension) when `path` is not "".
// Returns kExitOk, or kExitFailure when the file could not be written (one line on stderr).
int print_error_maps(const kernels::BenchReport& report, const std::string& path, std::FILE* out);

}  // namespace tclens::cli
