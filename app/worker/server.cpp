#include "app/worker/server.h"

#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <new>

#include "app/worker/line_io.h"
#include "kernels/fault_injection.h"

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

void Replier::result(const nlohmann::json& result) {
    if (answered_) return;
    Message m;
    m.id = id_;
    m.type = Message::Type::kResult;
    m.result = result;
    send(m);
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
        Replier reply(out_fd, request.id);
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
