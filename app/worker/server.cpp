#include "app/worker/server.h"

#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <new>

#include "app/worker/chunked_result.h"
#include "app/worker/line_io.h"
#include "kernels/fault_injection.h"
#include "tclens_version.h"

namespace tclens::worker {
namespace {

bool runs_kernels(const RequestBody& body) {
    return std::holds_alternative<BenchRequest>(body) ||
           std::holds_alternative<WorkerProfileRequest>(body) ||
           std::holds_alternative<ExerciseRequest>(body) ||
           std::holds_alternative<WorkerSourceRequest>(body) ||
           std::holds_alternative<TraceRequest>(body) ||
           std::holds_alternative<BankMeasureRequest>(body) ||
           std::holds_alternative<LayoutVerifyRequest>(body) ||
           std::holds_alternative<LiveProfileRequest>(body) ||
           std::holds_alternative<ClockSkewRequest>(body);
}

// Acts out an injected worker-* fault (kernels/fault_injection.h) on a request that runs
// kernels. Returns only for worker-fault, after answering.
void strike(kernels::Fault fault, int out_fd, Replier& reply) {
    switch (fault) {
        case kernels::Fault::kWorkerCrash:
            std::abort();
        case kernels::Fault::kWorkerHang:
            for (;;) pause();
        case kernels::Fault::kWorkerGarbage:
            write_line(out_fd, "this line is not protocol (injected: " +
                                   kernels::fault_setting(fault) + ")");
            for (;;) pause();  // the client kills a worker that wrote garbage
        case kernels::Fault::kWorkerFault:
            reply.error(ErrorKind::kFault,
                        "a kernel faulted: unspecified launch failure; the CUDA context is lost "
                        "(injected: " +
                            kernels::fault_setting(fault) + ")",
                        true);
            return;
        default:
            return;
    }
}

}  // namespace

void Replier::send(const Message& message) {
    // A client that went away cannot be told anything; the next read ends the loop.
    if (!write_line(out_fd_, encode_message(message))) client_gone_ = true;
}

void Replier::progress(const Progress& progress) {
    if (answered_) return;
    Message m;
    m.id = id_;
    m.type = Message::Type::kProgress;
    m.progress = progress;
    send(m);
}

void Replier::update(const nlohmann::json& update) {
    if (answered_) return;
    Message m;
    m.id = id_;
    m.type = Message::Type::kUpdate;
    m.update = update;
    send(m);
}

bool Replier::stop_asked() {
    if (stop_asked_ || answered_ || client_gone_) return true;
    if (input_ == nullptr) return false;
    std::string line;
    for (;;) {
        const LineReader::Status status = input_->read_line(line, Clock::now());
        if (status == LineReader::Status::kTimeout) return false;  // nothing more has come
        if (status == LineReader::Status::kEnd || status == LineReader::Status::kError) {
            client_gone_ = true;  // its input ended: nobody reads what we would send
            return true;
        }
        if (status == LineReader::Status::kLine && line.empty()) continue;
        const DecodedRequest decoded = status == LineReader::Status::kLine
                                           ? decode_request(line)
                                           : DecodedRequest{std::nullopt, 0, "a line too long"};
        if (decoded.request && decoded.id == id_ &&
            std::holds_alternative<StopRequest>(decoded.request->body)) {
            stop_asked_ = true;
            return true;
        }
        error(ErrorKind::kProtocol,
              "while request " + std::to_string(id_) + " streams, only {\"id\":" +
                  std::to_string(id_) + ",\"type\":\"stop\"} may be sent; got " +
                  (decoded.request ? std::string("a ") + request_type(decoded.request->body) +
                                         " request with id " + std::to_string(decoded.id)
                                   : decoded.error));
        return true;
    }
}

void Replier::result(const nlohmann::json& result) {
    if (answered_) return;
    for (const Message& m : result_messages(id_, result)) send(m);
    answered_ = true;
}

void Replier::error(ErrorKind kind, const std::string& message, bool exits) {
    if (answered_) return;
    Message m;
    m.id = id_;
    m.type = Message::Type::kError;
    m.error = {kind, message, exits || kind == ErrorKind::kFault};
    send(m);
    answered_ = true;
    exits_ = m.error.exits;
}

std::string protocol_refusal(int client_protocol) {
    if (client_protocol == kProtocolVersion) return "";
    return "this worker (tclens " + std::string(TCLENS_VERSION) + ") speaks protocol " +
           std::to_string(kProtocolVersion) + ", the client " + std::to_string(client_protocol) +
           ": run the same tclens version on both sides";
}

HelloResult this_worker_hello() {
    HelloResult result;
    result.protocol = kProtocolVersion;
    result.tclens_version = TCLENS_VERSION;
    result.pid = getpid();
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    result.host = host;
    return result;
}

int serve(int in_fd, int out_fd, RequestHandler& handler) {
    LineReader reader(in_fd, kMaxRequestBytes);
    for (;;) {
        std::string line;
        const LineReader::Status status = reader.read_line(line);
        if (status == LineReader::Status::kEnd || status == LineReader::Status::kError)
            return kWorkerExitOk;
        if (status == LineReader::Status::kTooLong) {
            Replier(out_fd, 0).error(ErrorKind::kProtocol, "request: a line longer than " +
                                                               std::to_string(kMaxRequestBytes) +
                                                               " bytes was skipped");
            continue;
        }
        if (line.empty()) continue;  // a blank line is no request
        const DecodedRequest decoded = decode_request(line);
        if (!decoded.request) {
            Replier(out_fd, decoded.id).error(ErrorKind::kProtocol, decoded.error);
            continue;
        }
        const Request& request = *decoded.request;
        if (std::holds_alternative<StopRequest>(request.body)) continue;  // its stream ended
        Replier reply(out_fd, request.id, &reader);
        const kernels::Fault fault = kernels::injected_fault();
        if (kernels::is_worker_fault(fault) && runs_kernels(request.body))
            strike(fault, out_fd, reply);
        if (!reply.answered()) {
            try {
                handler.handle(request, reply);
            } catch (const std::bad_alloc&) {
                reply.error(ErrorKind::kFailed,
                            std::string("out of host memory during the ") +
                                request_type(request.body) + " request",
                            true);
            } catch (const std::exception& e) {
                reply.error(ErrorKind::kFailed, std::string("the ") + request_type(request.body) +
                                                    " request failed: " + e.what());
            }
        }
        if (!reply.answered()) {
            reply.error(ErrorKind::kFailed, std::string("the worker gave the ") +
                                                request_type(request.body) +
                                                " request no answer (a bug in tclens)");
        }
        if (reply.exits()) return kWorkerExitLost;
        if (std::holds_alternative<ShutdownRequest>(request.body)) return kWorkerExitOk;
    }
}

}  // namespace tclens::worker
