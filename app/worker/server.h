#pragma once
// The worker's side of the protocol (docs/worker-protocol.md): reads requests line by line,
// hands each valid one to a RequestHandler and makes sure it gets exactly one terminal message.
//   - a line that is not a valid request gets an error of kind "protocol" naming the field (id
//     0 when the id itself could not be read), and the worker goes on;
//   - a handler that throws gets an error of kind "failed" with the exception's text; out of
//     host memory (std::bad_alloc) also ends the worker ("exits": true), whose state is then
//     unknown;
//   - an error with "exits" (a lost CUDA context) ends the loop after it is written;
//   - a stop outside a streaming request (it crossed the request's result) is ignored.
// Fault injection (kernels/fault_injection.h, worker-*) strikes here, before the handler, on
// requests that run kernels (bench, profile, exercise, source, live_profile, ...).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/worker/messages.h"
#include "app/worker/requests.h"
#include "app/worker/results.h"

namespace tclens::worker {

class LineReader;

// Writes the messages of one request to the worker's protocol output and, for a streaming
// request, looks at its input between updates for the client's stop.
class Replier {
  public:
    // `input`: the protocol input, read by stop_asked() (nullptr: no stop can come).
    Replier(int out_fd, std::int64_t id, LineReader* input = nullptr)
        : out_fd_(out_fd), id_(id), input_(input) {}

    void progress(const Progress& progress);
    // One update of a streaming request (live_updates.h), before its terminal message.
    void update(const nlohmann::json& update);
    void result(const nlohmann::json& result);
    // `exits`: the worker ends after this message (always so for kFault).
    void error(ErrorKind kind, const std::string& message, bool exits = false);

    // A terminal message (result or error) was written.
    bool answered() const { return answered_; }
    // The terminal message said the worker exits.
    bool exits() const { return exits_; }
    // A message could not be written: the client went away (work for it can stop).
    bool client_gone() const { return client_gone_; }

    // A streaming request's look between updates, without waiting: true once the client sent
    // {"id": <this id>, "type": "stop"}, its input ended (it went away) or a message could not
    // be written. Any other line while a request streams breaks the protocol: it is answered
    // here, as this request's terminal error of kind "protocol", and true returned.
    bool stop_asked();

  private:
    void send(const Message& message);

    int out_fd_;
    std::int64_t id_;
    LineReader* input_;
    bool stop_asked_ = false;
    bool answered_ = false;
    bool exits_ = false;
    bool client_gone_ = false;
};

class RequestHandler {
  public:
    virtual ~RequestHandler() = default;
    // Answers `request` through `reply`: progress as it goes, then one result or error.
    virtual void handle(const Request& request, Replier& reply) = 0;
};

// The answer to a hello of `client_protocol`: "" when it is this worker's protocol, else the
// refusal (kind "protocol"): "this worker (tclens 0.1.0) speaks protocol 2, the client 1: run
// the same tclens version on both sides".
std::string protocol_refusal(int client_protocol);

// A hello result of this process: protocol, tclens version, pid and host name; `system` is left
// for the caller (the device query, or a client build's "no GPU" reason).
HelloResult this_worker_hello();

// Exit codes of `tclens worker`.
inline constexpr int kWorkerExitOk = 0;    // shutdown request, or its input ended
inline constexpr int kWorkerExitLost = 1;  // it ended after an error with "exits" (lost context)

// Serves requests from `in_fd` until a shutdown request, the end of the input or an error that
// exits; returns the exit code.
int serve(int in_fd, int out_fd, RequestHandler& handler);

}  // namespace tclens::worker
