#include "app/worker/chunked_result.h"

#include <algorithm>

namespace tclens::worker {
namespace {

// A UTF-8 continuation byte (10xxxxxx): no character begins there.
bool continues_a_character(char byte) { return (static_cast<unsigned char>(byte) & 0xC0) == 0x80; }

}  // namespace

std::vector<Message> result_messages(std::int64_t id, const nlohmann::json& result,
                                     std::size_t chunk_bytes) {
    Message last;
    last.id = id;
    last.type = Message::Type::kResult;
    const std::string text = result.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (text.size() <= chunk_bytes) {
        last.result = result;
        return {last};
    }
    std::vector<Message> messages;
    for (std::size_t begin = 0; begin < text.size();) {
        std::size_t end = std::min(text.size(), begin + chunk_bytes);
        // Back to where a character begins (a chunk of at least 4 bytes always holds one).
        while (end < text.size() && end > begin + 1 && continues_a_character(text[end])) --end;
        Message chunk;
        chunk.id = id;
        chunk.type = Message::Type::kChunk;
        chunk.chunk = text.substr(begin, end - begin);
        messages.push_back(std::move(chunk));
        begin = end;
    }
    last.chunks = static_cast<int>(messages.size());
    messages.push_back(std::move(last));
    return messages;
}

std::string ResultChunks::add(const std::string& chunk) {
    if (text_.size() + chunk.size() > max_bytes_) {
        return "its result in chunks runs past " + std::to_string(max_bytes_) + " bytes";
    }
    text_ += chunk;
    ++count_;
    return "";
}

std::string ResultChunks::finish(Message& message) {
    if (message.chunks == 0) {
        return count_ == 0 ? "" : std::to_string(count_) + " chunks came before a whole result";
    }
    if (message.chunks != count_) {
        return "the result counts " + std::to_string(message.chunks) + " chunks, " +
               std::to_string(count_) + " came";
    }
    nlohmann::json result = nlohmann::json::parse(text_, nullptr, false);
    text_.clear();
    count_ = 0;
    if (!result.is_object()) return "the result's chunks do not make a JSON object";
    message.result = std::move(result);
    return "";
}

}  // namespace tclens::worker
