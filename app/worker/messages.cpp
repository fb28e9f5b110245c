#include "app/worker/messages.h"

#include "app/worker/requests.h"
#include "app/worker/strict_fields.h"
#include "common/one_line.h"
#include "common/text.h"

namespace tclens::worker {
namespace {

constexpr std::size_t kMaxTextBytes = 64 * 1024;  // one progress text or error line

constexpr ErrorKind kKinds[] = {ErrorKind::kUsage, ErrorKind::kFailed, ErrorKind::kNeedsResource,
                                ErrorKind::kFault, ErrorKind::kProtocol};

std::string dump(const nlohmann::json& json) {
    return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

const char* error_kind_name(ErrorKind kind) {
    switch (kind) {
        case ErrorKind::kUsage:
            return "usage";
        case ErrorKind::kFailed:
            return "failed";
        case ErrorKind::kNeedsResource:
            return "needs_resource";
        case ErrorKind::kFault:
            return "fault";
        case ErrorKind::kProtocol:
            return "protocol";
    }
    return "failed";
}

std::optional<ErrorKind> error_kind_from_name(std::string_view name) {
    for (const ErrorKind kind : kKinds) {
        if (name == error_kind_name(kind)) return kind;
    }
    return std::nullopt;
}

std::string error_kind_names() { return common::join(kKinds, ", ", error_kind_name); }

std::string encode_message(const Message& m) {
    nlohmann::json out = {{"id", m.id}};
    switch (m.type) {
        case Message::Type::kProgress:
            out["type"] = "progress";
            out["stage"] = common::one_line(m.progress.stage);
            out["text"] = common::one_line(m.progress.text);
            out["index"] = m.progress.index;
            out["total"] = m.progress.total;
            out["allow_s"] = m.progress.allow_s;
            break;
        case Message::Type::kResult:
            out["type"] = "result";
            if (m.chunks > 0) {
                out["chunks"] = m.chunks;
            } else {
                out["result"] = m.result.is_object() ? m.result : nlohmann::json::object();
            }
            break;
        case Message::Type::kError: {
            out["type"] = "error";
            out["kind"] = error_kind_name(m.error.kind);
            out["message"] = common::one_line(m.error.message);
            out["exits"] = m.error.exits;
            break;
        }
        case Message::Type::kUpdate:
            out["type"] = "update";
            out["update"] = m.update.is_object() ? m.update : nlohmann::json::object();
            break;
        case Message::Type::kChunk:
            out["type"] = "chunk";
            out["data"] = m.chunk;
            break;
    }
    return dump(out);
}

std::optional<Message> decode_message(std::string_view line, std::string& error) {
    error.clear();
    if (line.size() > kMaxMessageBytes) {
        error = "message: a line of " + std::to_string(line.size()) + " bytes is longer than " +
                std::to_string(kMaxMessageBytes);
        return std::nullopt;
    }
    const nlohmann::json json = nlohmann::json::parse(line, nullptr, false);
    if (json.is_discarded()) {
        error = "message: not JSON";
        return std::nullopt;
    }
    Message m;
    std::string type;
    {
        StrictFields envelope(json, "message");
        envelope.whole("id", m.id, true, 0, kMaxRequestId);
        envelope.text("type", type, true, 64);
        if (envelope.ok() && type != "progress" && type != "result" && type != "error" &&
            type != "update" && type != "chunk") {
            envelope.fail("unknown type " + shown_value(type) +
                          " (valid: progress, result, error, update, chunk)");
        }
        if (!envelope.ok()) {
            error = envelope.error();
            return std::nullopt;
        }
    }
    StrictFields f(json, type + " message");
    f.known("id");
    f.known("type");
    if (type == "progress") {
        m.type = Message::Type::kProgress;
        f.text("stage", m.progress.stage, true, 64);
        f.text("text", m.progress.text, true, kMaxTextBytes, true);
        f.whole("index", m.progress.index, true, -1, 1 << 30);
        f.whole("total", m.progress.total, true, -1, 1 << 30);
        f.number("allow_s", m.progress.allow_s, true, 0, 86400);
    } else if (type == "result") {
        m.type = Message::Type::kResult;
        // Either the result itself or the count of the chunks that carried it, not both.
        if (json.contains("chunks")) {
            f.whole("chunks", m.chunks, true, 1, int(kMaxResultBytes));
        } else if (const nlohmann::json* result = f.object("result", true, false)) {
            m.result = *result;
        }
    } else if (type == "chunk") {
        m.type = Message::Type::kChunk;
        f.text("data", m.chunk, true, kChunkBytes);
    } else if (type == "update") {
        m.type = Message::Type::kUpdate;
        if (const nlohmann::json* update = f.object("update", true, false)) m.update = *update;
    } else {
        m.type = Message::Type::kError;
        std::string kind;
        f.text("kind", kind, true, 64);
        const std::optional<ErrorKind> known_kind = error_kind_from_name(kind);
        if (known_kind) m.error.kind = *known_kind;
        if (f.ok() && !known_kind)
            f.fail("field 'kind' must be one of " + error_kind_names() + ", got " +
                   shown_value(kind));
        f.text("message", m.error.message, true, kMaxTextBytes);
        f.flag("exits", m.error.exits, true);
        if (f.ok() && m.error.kind == ErrorKind::kFault && !m.error.exits)
            f.fail("a 'fault' error must say \"exits\": true (the CUDA context is lost)");
    }
    f.finish();
    if (!f.ok()) {
        error = f.error();
        return std::nullopt;
    }
    // A line from another program may hold raw control characters in its texts: the client
    // prints them as one line each.
    m.progress.text = common::one_line(m.progress.text);
    m.error.message = common::one_line(m.error.message);
    return m;
}

}  // namespace tclens::worker
