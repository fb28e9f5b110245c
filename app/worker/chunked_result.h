#pragma once
// Large results in bounded lines (docs/worker-protocol.md, "Messages"): the worker sends a
// result whose JSON text is longer than a chunk as "chunk" messages, each a slice of that text
// cut where a UTF-8 character begins, and then a "result" message that counts them; the client
// joins the slices and reads the whole. A line therefore stays under kMaxMessageBytes however
// large the result (a recording's traces, a long timeline), and the client holds at most
// kMaxResultBytes of one result.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/worker/messages.h"

namespace tclens::worker {

// The messages that carry `result` for request `id`: one result message when its JSON text
// fits in `chunk_bytes`, else chunk messages of at most `chunk_bytes` each and a result message
// with their count (precondition: chunk_bytes >= 4, the longest UTF-8 character). Example: a 10 MiB
// result, 4 MiB chunks -> chunks of 4, 4, 2 MiB, then
// {"type": "result", "chunks": 3}.
std::vector<Message> result_messages(std::int64_t id, const nlohmann::json& result,
                                     std::size_t chunk_bytes = kChunkBytes);

// The client's side of one request: collects its chunks, then reads the result they make.
class ResultChunks {
  public:
    explicit ResultChunks(std::size_t max_bytes = kMaxResultBytes) : max_bytes_(max_bytes) {}
    // "" or one line why not: the chunks would make a result longer than max_bytes.
    std::string add(const std::string& chunk);
    // `message` (a result) gets its result from the chunks when it counts them. "" or one line
    // why not: the count differs from the chunks received, chunks came but the result does not
    // count them, or their text is not a JSON object.
    std::string finish(Message& message);

  private:
    std::size_t max_bytes_;
    std::string text_;
    int count_ = 0;
};

}  // namespace tclens::worker
