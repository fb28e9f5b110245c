#pragma once
// What the worker writes on its stdout, one JSON object per line (docs/worker-protocol.md).
// Every request gets zero or more "progress" messages, then exactly one terminal message,
// "result" or "error", all carrying the request's id:
//
//   {"id": 3, "type": "progress", "stage": "run", "text": "yours.matmul 4096x4096x4096",
//    "index": 0, "total": 2, "allow_s": 0}
//   {"id": 3, "type": "result", "result": {...}}           (app/worker/results.h)
//   {"id": 3, "type": "error", "kind": "failed", "message": "one line", "exits": false}
//
// A streaming request (live_profile) also gets "update" messages before its terminal one, each
// one new piece of what it measures (app/worker/live_updates.h says what an update holds):
//   {"id": 3, "type": "update", "update": {...}}
//
// A result longer than kChunkBytes of JSON comes in bounded lines (app/worker/chunked_result.h):
// "chunk" messages, each a slice of the result's JSON text, then a result that counts them:
//   {"id": 3, "type": "chunk", "data": "{\"rows\": [..."}   (as many as it takes)
//   {"id": 3, "type": "result", "chunks": 12}
//
// A request whose stream ends before its terminal message crashed the worker; an "error" is a
// clean refusal or failure, after which the worker goes on unless "exits" says it does not
// (kind "fault": a kernel killed the CUDA context, so the worker exits after the message).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tclens::worker {

// Longest message line the client reads. A result's chunk is at most kChunkBytes of JSON text,
// which escaping as a JSON string can at most double.
inline constexpr std::size_t kChunkBytes = std::size_t{4} << 20;
inline constexpr std::size_t kMaxMessageBytes = 2 * kChunkBytes + 4096;
// Longest result the client assembles from chunks (a whole recording's bench is a few MB).
inline constexpr std::size_t kMaxResultBytes = std::size_t{256} << 20;

// Why a request failed, as the CLI's exit codes see it (app/exit_codes.h).
enum class ErrorKind {
    kUsage,          // a bad value in the request or the user's file: exit 2
    kFailed,         // the work failed (compile error, not verified, CUDA error): exit 1
    kNeedsResource,  // no GPU, no profiling permission, counters busy: exit 3
    kFault,          // a kernel killed the CUDA context; the worker exits: exit 1
    kProtocol,       // the request was not valid protocol (or another version): exit 2
};

// "usage", "failed", "needs_resource", "fault", "protocol".
const char* error_kind_name(ErrorKind kind);
// The kind named `name`, or nullopt.
std::optional<ErrorKind> error_kind_from_name(std::string_view name);
// Every name, for error messages: "usage, failed, needs_resource, fault, protocol".
std::string error_kind_names();

// The stages progress names: "load" (compile and load), "peaks" (measuring the device's peaks),
// "run" (one kernel on one size: verify, then time), "profile" (CUPTI set-up and passes),
// "timeline" (PM sampling).
struct Progress {
    std::string stage;
    std::string text;  // for people, one line
    int index = -1;    // of `total` steps, 0-based; -1 when not counted
    int total = -1;
    double allow_s = 0;  // the worker may stay silent this long before its next message when
                         // longer than the client's time limit (a compile, the peaks, CUPTI
                         // set-up); 0: the time limit holds
};

struct ErrorReply {
    ErrorKind kind = ErrorKind::kFailed;
    std::string message;  // one line
    bool exits = false;   // the worker exits after this message
};

struct Message {
    enum class Type { kProgress, kResult, kError, kUpdate, kChunk };
    std::int64_t id = 0;
    Type type = Type::kResult;
    Progress progress;      // kProgress
    nlohmann::json result;  // kResult: an object (results.h says what each request gets)
    int chunks = 0;         // kResult: how many chunk messages carried `result`; 0: it is here
    std::string chunk;      // kChunk: a slice of the result's JSON text
    ErrorReply error;       // kError
    nlohmann::json update;  // kUpdate: an object (live_updates.h)
};

// One line of JSON, without the '\n'. Texts are made one line (one_line) where the protocol
// says one line.
std::string encode_message(const Message& message);

// Reads one message line strictly (unknown types and fields are refused). On failure returns
// nullopt and sets `error` to one line.
std::optional<Message> decode_message(std::string_view line, std::string& error);

}  // namespace tclens::worker
