#include "app/worker/client.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "app/worker/chunked_result.h"
#include "app/worker/line_io.h"
#include "app/worker/link_faults.h"
#include "app/worker/stderr_tail.h"
#include "common/child_process.h"
#include "common/one_line.h"

namespace tclens::worker {
namespace {

using common::ChildProcess;

// How long a worker that was asked to stop, or said it exits, may take before it is killed.
constexpr std::chrono::milliseconds kExitGrace{3000};

std::chrono::milliseconds seconds(double s) {
    return std::chrono::milliseconds(static_cast<long long>(s * 1000.0));
}

std::string seconds_text(double s) {
    char text[32];
    std::snprintf(text, sizeof text, "%g s", s);
    return text;
}

// "the bench request" plus where it was: ", at run 'yours.x 64x64x64'".
std::string during(const char* type, const Progress* last) {
    std::string text = std::string("the ") + type + " request";
    if (last != nullptr && !last->text.empty())
        text += ", at " + last->stage + " '" + last->text + "'";
    return text;
}

std::string excerpt(const std::string& line) {
    return "'" + common::one_line_excerpt(line, 60) + "'";
}

}  // namespace

std::string shell_quote(const std::string& text) {
    std::string quoted = "'";
    for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::string default_worker_command() {
    if (const char* set = std::getenv(kWorkerVariable); set != nullptr && *set != '\0') return set;
    char path[4096];
    const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
    const std::string self =
        length > 0 ? std::string(path, static_cast<std::size_t>(length)) : std::string("tclens");
    return "exec " + shell_quote(self) + " worker";  // exec: no shell stays between us
}

WorkerClient::WorkerClient(ClientOptions options) : options_(std::move(options)) {}

WorkerClient::~WorkerClient() { stop(); }

void WorkerClient::stop() {
    if (!child_) return;
    if (child_->to_child() >= 0) {
        write_line(child_->to_child(), encode_request({next_id_++, ShutdownRequest{}}));
        child_->close_stdin();
    }
    if (!child_->wait_for(kExitGrace)) child_->kill();
    end_child();
}

void WorkerClient::end_child() {
    if (stderr_tail_) stderr_tail_->finish();  // before the child's stderr pipe closes
    stderr_tail_.reset();
    child_.reset();
    reader_.reset();
}

std::string WorkerClient::link_fault(int wait_status, const std::string& during) {
    if (!options_.remote) return "";
    std::string last;
    if (stderr_tail_) {
        stderr_tail_->finish();
        last = stderr_tail_->last_line();
    }
    return ssh_link_fault(*options_.remote, wait_status, last, starting_ ? "" : during);
}

std::optional<Reply> WorkerClient::lose_to_link_fault(int wait_status, const std::string& during) {
    link_fault_ = link_fault(wait_status, during);
    if (link_fault_.empty()) return std::nullopt;
    return lose_worker(Reply::Outcome::kCrashed, link_fault_);
}

std::string WorkerClient::where() const {
    return options_.remote ? options_.remote->host : hello_.host;
}

Reply WorkerClient::lose_worker(Reply::Outcome outcome, const std::string& what) {
    Reply reply;
    reply.outcome = outcome;
    reply.message = what;
    if (child_) {
        if (outcome == Reply::Outcome::kCrashed) {
            // It closed its stdout: it has exited or is about to.
            if (!child_->wait_for(kExitGrace)) child_->kill();
        } else {
            child_->kill();
        }
        last_exit_ = ChildProcess::status_text(child_->status().value_or(0));
    }
    end_child();
    return reply;
}

Reply WorkerClient::exchange(const RequestBody& body, const ProgressHandler& progress,
                             double first_limit_s, const std::atomic<bool>* cancel,
                             const Streaming& streaming) {
    const std::int64_t id = next_id_++;
    const char* type = request_type(body);
    if (!write_line(child_->to_child(), encode_request({id, body}))) {
        // A child that exited first (ssh refused, at load before this write): as when read.
        const std::optional<int> status = child_->wait_for(kExitGrace);
        if (status) {
            if (std::optional<Reply> fault = lose_to_link_fault(*status, during(type, nullptr)))
                return *fault;
        }
        return lose_worker(Reply::Outcome::kCrashed,
                           std::string("the worker was gone before the ") + type + " request (" +
                               (status ? ChildProcess::status_text(*status) : "stdin closed") +
                               ")");
    }
    const double limit = std::max(options_.time_limit_s, first_limit_s);
    Clock::time_point deadline = Clock::now() + seconds(limit);
    double waited_s = limit;
    std::optional<Progress> last;
    bool stop_sent = false;
    ResultChunks chunks;
    // A message that decoded but does not fit the request (`why`): the worker is not protocol.
    const auto not_protocol = [&](const std::string& why) {
        return lose_worker(Reply::Outcome::kGarbage,
                           "the worker wrote a line that is not protocol during " +
                               during(type, last ? &*last : nullptr) + " (" + why + "); killed it");
    };
    for (;;) {
        std::string line;
        // While a stream may still be stopped, wake at least every kStopCheck to ask.
        const bool watch_stop = streaming.stop_wanted != nullptr && !stop_sent;
        const Clock::time_point wake =
            watch_stop ? std::min(deadline, Clock::now() + LineReader::kStopCheck) : deadline;
        const LineReader::Status status = reader_->read_line(line, wake, cancel);
        if (watch_stop && (*streaming.stop_wanted)()) {
            stop_sent = true;
            write_line(child_->to_child(), encode_request({id, StopRequest{}}));
        }
        if (status == LineReader::Status::kTimeout && Clock::now() < deadline) continue;
        if (status == LineReader::Status::kStopped) {
            return lose_worker(Reply::Outcome::kCancelled,
                               std::string("cancelled during the ") + type + " request");
        }
        if (status == LineReader::Status::kTimeout) {
            return lose_worker(Reply::Outcome::kTimedOut,
                               "the worker gave no answer for " + seconds_text(waited_s) +
                                   " during " + during(type, last ? &*last : nullptr) +
                                   " (time limit " + seconds_text(options_.time_limit_s) +
                                   ", --time-limit S); killed it");
        }
        if (status == LineReader::Status::kEnd || status == LineReader::Status::kError) {
            const std::optional<int> exit = child_->wait_for(kExitGrace);
            if (exit) {
                if (std::optional<Reply> fault =
                        lose_to_link_fault(*exit, during(type, last ? &*last : nullptr)))
                    return *fault;
            }
            std::string how =
                exit ? ChildProcess::status_text(*exit) : "closed its output and hung: killed";
            // Nobody here sent that SIGKILL: the system's out-of-memory killer is the usual one.
            if (exit && WIFSIGNALED(*exit) && WTERMSIG(*exit) == SIGKILL)
                how += ", perhaps by the system for want of memory";
            return lose_worker(Reply::Outcome::kCrashed, "the worker died during " +
                                                             during(type, last ? &*last : nullptr) +
                                                             " (" + how + ")");
        }
        if (status == LineReader::Status::kTooLong) {
            return lose_worker(Reply::Outcome::kGarbage,
                               "the worker wrote a line longer than " +
                                   std::to_string(kMaxMessageBytes) + " bytes during " +
                                   during(type, last ? &*last : nullptr) + "; killed it");
        }
        std::string error;
        std::optional<Message> message = decode_message(line, error);
        if (message && message->id != id) {
            error = "answered request " + std::to_string(message->id) + " while " +
                    std::to_string(id) + " was asked";
            message.reset();
        }
        if (!message) {
            return lose_worker(Reply::Outcome::kGarbage,
                               "the worker wrote a line that is not protocol during " +
                                   during(type, last ? &*last : nullptr) + " (" + error +
                                   "): " + excerpt(line) + "; killed it");
        }
        switch (message->type) {
            case Message::Type::kProgress:
                last = message->progress;
                if (progress) progress(message->progress);
                waited_s = std::max(options_.time_limit_s, message->progress.allow_s);
                deadline = Clock::now() + seconds(waited_s);
                break;
            case Message::Type::kUpdate: {
                const std::string bad =
                    streaming.on_update != nullptr
                        ? (*streaming.on_update)(message->update)
                        : std::string("an update for a request that streams nothing");
                if (!bad.empty()) return not_protocol(bad);
                deadline = Clock::now() + seconds(waited_s);
                break;
            }
            case Message::Type::kChunk:  // a piece of a large result on its way
                if (const std::string bad = chunks.add(message->chunk); !bad.empty())
                    return not_protocol(bad);
                deadline = Clock::now() + seconds(waited_s);
                break;
            case Message::Type::kResult: {
                if (const std::string bad = chunks.finish(*message); !bad.empty())
                    return not_protocol(bad);
                Reply reply;
                reply.result = std::move(message->result);
                return reply;
            }
            case Message::Type::kError: {
                Reply reply;
                reply.outcome = Reply::Outcome::kError;
                reply.error = std::move(message->error);
                reply.message = reply.error.message;
                if (reply.error.exits) {
                    if (!child_->wait_for(kExitGrace)) child_->kill();
                    end_child();
                }
                return reply;
            }
        }
    }
}

Reply WorkerClient::start(const std::atomic<bool>* cancel) {
    const RemoteTarget* remote = options_.remote ? &*options_.remote : nullptr;
    const std::string cannot = remote != nullptr
                                   ? "cannot start the worker on " + remote->host + ": "
                                   : "cannot start the worker `" + options_.command + "`: ";
    std::string error;
    common::ChildOptions child_options;
    child_options.stdin_pipe = true;  // requests
    // Its messages are the user's; through ssh they pass the tail first (StderrTail).
    child_options.stderr_to =
        remote != nullptr ? common::ChildStderr::kPipe : common::ChildStderr::kInherit;
    child_options.own_process_group = true;  // the shell, ssh, nvcc: we decide when they end
    const char* ssh_config = std::getenv(kSshConfigVariable);
    child_ = ChildProcess::start(
        remote != nullptr ? ssh_worker_argv(*remote, ssh_config != nullptr ? ssh_config : "")
                          : std::vector<std::string>{"/bin/sh", "-c", options_.command},
        child_options, error);
    if (!child_) {
        Reply reply;
        reply.outcome = Reply::Outcome::kCannotStart;
        reply.message = cannot + error;
        return reply;
    }
    ++starts_;
    if (remote != nullptr) stderr_tail_ = std::make_unique<StderrTail>(child_->err_from_child());
    reader_ = std::make_unique<LineReader>(child_->from_child(), kMaxMessageBytes);
    starting_ = true;
    link_fault_.clear();
    Reply hello = exchange(HelloRequest{}, {}, kStartLimitS, cancel, Streaming{});
    starting_ = false;
    HelloResult result;
    const std::string where = remote != nullptr ? "on " + remote->host : "";
    std::string line;  // a line that says it all, without `cannot` before it
    if (hello.ok() && !hello_from_json(hello.result, result, error)) {
        hello = lose_worker(Reply::Outcome::kGarbage,
                            "its hello result is not protocol (" + error + ")");
    } else if (hello.ok() && result.protocol != kProtocolVersion) {
        line = protocol_mismatch(where, result.protocol, kProtocolVersion);
        hello = lose_worker(Reply::Outcome::kGarbage, line);
    } else if (hello.outcome == Reply::Outcome::kError &&
               hello.error.kind == ErrorKind::kProtocol) {
        if (const std::optional<int> theirs = protocol_in_refusal(hello.message))
            line = protocol_mismatch(where, *theirs, kProtocolVersion);
    } else if (!link_fault_.empty()) {
        line = link_fault_;
    }
    if (!hello.ok()) {
        if (child_) lose_worker(Reply::Outcome::kCannotStart, "");
        if (hello.outcome == Reply::Outcome::kCancelled) return hello;
        if (!line.empty()) {
            hello.message = line;
        } else {
            hello.message = cannot + (hello.outcome == Reply::Outcome::kCrashed
                                          ? "it " + last_exit_ + " before answering hello"
                                          : hello.message);
        }
        hello.outcome = Reply::Outcome::kCannotStart;
        return hello;
    }
    if (stderr_tail_) stderr_tail_->pass_on();
    hello_ = result;
    for (const LoadRequest& load : loads_) {
        Reply again = exchange(load, {}, 0, cancel, Streaming{});
        if (!again.ok()) {
            again.message = "loading " + load.ref + " again after a restart: " + again.message;
            if (child_) lose_worker(again.outcome, "");
            return again;
        }
    }
    return hello;
}

Reply WorkerClient::connect(const std::atomic<bool>* cancel) {
    if (child_) {
        Reply running;
        running.result = to_json(hello_);
        return running;
    }
    return start(cancel);
}

Reply WorkerClient::call(const RequestBody& body, const ProgressHandler& progress,
                         const std::atomic<bool>* cancel) {
    return stream(body, {}, {}, progress, cancel);
}

Reply WorkerClient::stream(const RequestBody& body, const UpdateHandler& on_update,
                           const StopPoll& stop_wanted, const ProgressHandler& progress,
                           const std::atomic<bool>* cancel) {
    if (Reply started = connect(cancel); !started.ok()) return started;
    Streaming streaming;
    if (on_update) streaming.on_update = &on_update;
    if (stop_wanted) streaming.stop_wanted = &stop_wanted;
    Reply reply = exchange(body, progress, 0, cancel, streaming);
    // "needs an NVIDIA GPU (no NVIDIA driver found ...)" says which machine lacks one.
    if (reply.outcome == Reply::Outcome::kError && reply.error.kind == ErrorKind::kNeedsResource &&
        !hello_.system.has_gpu()) {
        reply.message = "no GPU on " + where() + ": " + reply.message;
    }
    const auto* load = std::get_if<LoadRequest>(&body);
    if (reply.ok() && load != nullptr && !load->compile_only) {
        LoadResult result;
        std::string error;
        if (load_from_json(reply.result, result, error) && result.loaded) {
            const auto same = std::find(load_ids_.begin(), load_ids_.end(), result.id);
            if (same == load_ids_.end()) {
                load_ids_.push_back(result.id);
                loads_.push_back(*load);
            } else {
                loads_[static_cast<std::size_t>(same - load_ids_.begin())] = *load;
            }
        }
    }
    return reply;
}

}  // namespace tclens::worker
