#pragma once
// The worker's client: starts `tclens worker` (or any command that runs one, e.g.
// `ssh gpu-host tclens worker`), sends it requests and reads their progress and result under a
// time limit. Used by the CLI (`--kernel`, `tclens watch`) and meant for the GUI's job runner.
//
// Whatever happens to the worker, a call returns one Reply whose `message` is one line:
//   - the worker answered a result, or a clean error (kError: its kind says which exit code);
//   - it died before the request's terminal message (kCrashed: a signal, an exit), it said its
//     CUDA context is lost (kError with kind kFault), it stayed silent past the time limit
//     (kTimedOut: killed), or it wrote a line that is not protocol (kGarbage: killed).
// In the last four cases the worker is gone; the next call starts a fresh one, says hello, and
// loads again every kernel that was loaded before (so ids stay valid), then sends its request.
//
// Time limit: while a kernel runs the worker reports progress before each run (one kernel on one
// size, verified and timed); the client waits at most `time_limit_s` for each next message, or
// the longer time the worker announced for a step that runs no user code (a compile, measuring
// peaks, CUPTI set-up: Progress::allow_s).
//
// Not thread-safe: one caller at a time (the GUI's job runner thread).

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/worker/messages.h"
#include "app/worker/remote_target.h"
#include "app/worker/requests.h"
#include "app/worker/results.h"

namespace tclens::common {
class ChildProcess;
}

namespace tclens::worker {

class LineReader;
class StderrTail;

// The environment variable that overrides the default worker command.
inline constexpr const char* kWorkerVariable = "TCLENS_WORKER";
inline constexpr double kDefaultTimeLimitS = 10;
// How long a fresh worker may take to answer hello (CUDA's start, ssh's log-in).
inline constexpr double kStartLimitS = 60;

// The command that starts a worker: $TCLENS_WORKER when set and not empty, else
// `exec '<this program>' worker` (/proc/self/exe, quoted for /bin/sh).
std::string default_worker_command();

// `text` in single quotes for /bin/sh ("it's" -> 'it'\''s').
std::string shell_quote(const std::string& text);

struct ClientOptions {
    std::string command = default_worker_command();
    double time_limit_s = kDefaultTimeLimitS;  // > 0
    // Set: the worker runs there, started through the system's ssh from an argv
    // (ssh_worker_argv, with $TCLENS_SSH_CONFIG; no local shell) and `command` is not used. Its
    // stderr then passes through the client (StderrTail), so that a link that fails is one line
    // (link_faults.h): "cannot reach gpu1: ...", "no tclens on gpu1 ...", "lost the link ...".
    std::optional<RemoteTarget> remote;
};

struct Reply {
    enum class Outcome {
        kResult,
        kError,
        kCrashed,
        kTimedOut,
        kGarbage,
        kCannotStart,
        kCancelled,  // the caller's cancel flag was set: the worker was killed
    };
    Outcome outcome = Outcome::kResult;
    nlohmann::json result;  // kResult
    ErrorReply error;       // kError: the worker's own (kind, message, exits)
    std::string message;    // one line for every outcome but kResult: what happened

    bool ok() const { return outcome == Outcome::kResult; }
    // The worker is gone and the next call starts another one.
    bool worker_lost() const {
        return outcome == Outcome::kCrashed || outcome == Outcome::kTimedOut ||
               outcome == Outcome::kGarbage || outcome == Outcome::kCancelled ||
               (outcome == Outcome::kError && error.exits);
    }
};

// Reads `reply`'s result into `result` with `from_json` (results.h). A result it cannot read
// makes `reply` kGarbage with the message "the worker's <what> result: <why>". Returns reply.ok().
template <typename Result>
bool read_result(Reply& reply, const std::string& what,
                 bool (*from_json)(const nlohmann::json&, Result&, std::string&), Result& result) {
    std::string error;
    if (reply.ok() && !from_json(reply.result, result, error)) {
        reply.outcome = Reply::Outcome::kGarbage;
        reply.message = "the worker's " + what + " result: " + error;
    }
    return reply.ok();
}

using ProgressHandler = std::function<void(const Progress& progress)>;
// Gets each "update" object of a streaming request (live_updates.h), in order. Returns "" when
// it could read it, else why not: the worker is then killed as one that is not protocol.
using UpdateHandler = std::function<std::string(const nlohmann::json& update)>;
// Polled between the messages of a streaming request (at least every LineReader::kStopCheck):
// true asks the worker to stop it.
using StopPoll = std::function<bool()>;

class WorkerClient {
  public:
    explicit WorkerClient(ClientOptions options = {});
    // Asks the worker to shut down, waits a moment, then kills it.
    ~WorkerClient();
    WorkerClient(const WorkerClient&) = delete;
    WorkerClient& operator=(const WorkerClient&) = delete;

    // Sends `body` (starting a worker first when none runs) and returns its outcome. Setting
    // *cancel (from any thread or a signal handler) kills the worker within
    // LineReader::kStopCheck and returns kCancelled.
    Reply call(const RequestBody& body, const ProgressHandler& progress = {},
               const std::atomic<bool>* cancel = nullptr);

    // A streaming request (live_profile): as call(), and each update goes to `on_update`. Once
    // `stop_wanted` says so the client sends {"id": N, "type": "stop"} (once) and goes on reading
    // until the request's result; the time limit holds all along (an update restarts it, with
    // the allowance of the last progress). `cancel` kills the worker, as in call().
    Reply stream(const RequestBody& body, const UpdateHandler& on_update,
                 const StopPoll& stop_wanted, const ProgressHandler& progress = {},
                 const std::atomic<bool>* cancel = nullptr);

    // Starts a worker when none runs and returns its hello's outcome (a kResult holding the hello
    // result, or the one line of why no worker answers). Every call() does this first.
    Reply connect(const std::atomic<bool>* cancel = nullptr);

    // The hello result of the worker that runs now (empty before the first call).
    const HelloResult& worker() const { return hello_; }
    // Where the worker runs, for people: the --remote host, else the host its hello named (""
    // before the first hello).
    std::string where() const;
    // Workers started so far (1 after the first call; each restart adds one).
    int starts() const { return starts_; }
    const ClientOptions& options() const { return options_; }

    // Ends the worker now (shutdown request, then kill after a moment); the next call starts
    // another.
    void stop();

  private:
    Reply start(const std::atomic<bool>* cancel);
    // What a streaming request adds to an exchange; none for the others.
    struct Streaming {
        const UpdateHandler* on_update = nullptr;
        const StopPoll* stop_wanted = nullptr;
    };
    Reply exchange(const RequestBody& body, const ProgressHandler& progress, double first_limit_s,
                   const std::atomic<bool>* cancel, const Streaming& streaming);
    Reply lose_worker(Reply::Outcome outcome, const std::string& what);
    // The one line of a link that ended with `wait_status` (link_faults.h), "" when not remote or
    // the end says nothing about the link.
    std::string link_fault(int wait_status, const std::string& during);
    // The child is gone with `wait_status`: when that is a link fault, it is kept (link_fault_)
    // and the worker lost with it as the message; else nothing happens.
    std::optional<Reply> lose_to_link_fault(int wait_status, const std::string& during);
    void end_child();  // forgets the child (after it exited or was killed) and its pipes

    ClientOptions options_;
    std::unique_ptr<common::ChildProcess> child_;
    std::unique_ptr<LineReader> reader_;
    std::unique_ptr<StderrTail> stderr_tail_;  // remote only
    bool starting_ = false;                    // inside start(): the hello and replayed loads
    std::string link_fault_;                   // the link's one line when exchange() lost it
    HelloResult hello_;
    std::int64_t next_id_ = 1;
    int starts_ = 0;
    std::string last_exit_;           // how the last worker that was lost ended, in words
    std::vector<LoadRequest> loads_;  // replayed on a restart, one per loaded id
    std::vector<std::string> load_ids_;
};

}  // namespace tclens::worker
