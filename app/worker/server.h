#pragma once
// The worker's side of the protocol (docs/worker-protocol.md): reads requests line by line,
// hands each valid one to a RequestHandler and makes sure it gets exactly one terminal message.
//   - a line that is not a valid request gets an error of kind "protocol" naming the field (id
//     0 when the id itself could not be read), and the worker goes on;
//   - a handler that throws gets an error of kind "failed" with the exception's text; out of
//     host memory (std::bad_alloc) also ends the worker ("exits": true), whose state is then
//     unknown;
//   - an error with "exits" (a lost CUDA context) ends the loop after it is written.
// Fault injection (kernels/fault_injection.h, worker-*) strikes here, before the handler, on
// requests that run kernels (bench, profile, exercise, source).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/worker/messages.h"
#include "app/worker/requests.h"

namespace tclens::worker {

// Writes the messages of one request to the worker's protocol output.
class Replier {
  public:
    Replier(int out_fd, std::int64_t id) : out_fd_(out_fd), id_(id) {}

    void progress(const Progress& progress);
    void result(const nlohmann::json& result);
    // `exits`: the worker ends after this message (always so for kFault).
    void error(ErrorKind kind, const std::string& message, bool exits = false);

    // A terminal message (result or error) was written.
    bool answered() const { return answered_; }
    // The terminal message said the worker exits.
    bool exits() const { return exits_; }
    // A message could not be written: the client went away (work for it can stop).
    bool client_gone() const { return client_gone_; }

  private:
    void send(const Message& message);

    int out_fd_;
    std::int64_t id_;
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

// Exit codes of `tclens worker`.
inline constexpr int kWorkerExitOk = 0;    // shutdown request, or its input ended
inline constexpr int kWorkerExitLost = 1;  // it ended after an error with "exits" (lost context)

// Serves requests from `in_fd` until a shutdown request, the end of the input or an error that
// exits; returns the exit code.
int serve(int in_fd, int out_fd, RequestHandler& handler);

}  // namespace tclens::worker
