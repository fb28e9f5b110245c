// libFuzzer harness for the client's side of the worker protocol (app/worker/messages.h and
// results.h, live_updates.h): decode_message on one line, as the client reads it from a worker's
// stdout, every result reader on a result's object and the live update reader on an update's
// (a worker that is broken or not ours may send anything).
//
// Input: the line (any bytes).
// Invariants:
//   - a refused line gets one error line;
//   - an accepted message's texts that must be one line are one line, and its encoding decodes
//     to a message that encodes to the same text;
//   - a whole result sent in chunks of 7 bytes (app/worker/chunked_result.h) reads back the same,
//     and a chunk read as a one-chunk result gives a JSON object or one line why not;
//   - each result reader (hello, load, bench, profile, exercise, trace, live_profile) and the
//     live update reader either read the object or say why in one line, and what they read
//     written out reads back the same.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "app/worker/chunked_result.h"
#include "app/worker/live_updates.h"
#include "app/worker/messages.h"
#include "app/worker/results.h"
#include "tests/fuzz/fuzz_support.h"

namespace tclens::fuzz {
namespace {

// Reads `json` with `from_json`; when it reads, writing the value out and reading it again must
// give the same JSON.
template <typename Result, typename FromJson>
void check_reader(const nlohmann::json& json, FromJson from_json) {
    Result result;
    std::string error;
    if (!from_json(json, result, error)) {
        TCLENS_FUZZ_CHECK(!error.empty() && error.find('\n') == std::string::npos, error);
        return;
    }
    const nlohmann::json written = worker::to_json(result);
    Result again;
    TCLENS_FUZZ_CHECK(from_json(written, again, error), written.dump() + " -> " + error);
    TCLENS_FUZZ_CHECK(worker::to_json(again) == written, written.dump());
}

}  // namespace
}  // namespace tclens::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tclens;
    using namespace tclens::worker;
    const std::string_view line(reinterpret_cast<const char*>(data), size);
    std::string error;
    const std::optional<Message> message = decode_message(line, error);
    if (!message) {
        TCLENS_FUZZ_CHECK(!error.empty() && error.find('\n') == std::string::npos, error);
        return 0;
    }
    TCLENS_FUZZ_CHECK(message->progress.text.find('\n') == std::string::npos, "progress text");
    TCLENS_FUZZ_CHECK(message->error.message.find('\n') == std::string::npos, "error message");
    const std::string encoded = encode_message(*message);
    const std::optional<Message> again = decode_message(encoded, error);
    TCLENS_FUZZ_CHECK(again.has_value(), encoded + " -> " + error);
    TCLENS_FUZZ_CHECK(encode_message(*again) == encoded, encoded);
    if (message->type == Message::Type::kResult) {
        fuzz::check_reader<HelloResult>(message->result, hello_from_json);
        fuzz::check_reader<LoadResult>(message->result, load_from_json);
        fuzz::check_reader<BenchResult>(message->result, bench_from_json);
        fuzz::check_reader<ProfileResult>(message->result, profile_from_json);
        fuzz::check_reader<ExerciseResult>(message->result, exercise_from_json);
        fuzz::check_reader<TraceResult>(message->result, trace_from_json);
        fuzz::check_reader<LiveProfileResult>(message->result, live_result_from_json);
        fuzz::check_reader<ClockSkewResult>(message->result, clock_skew_from_json);
    }
    if (message->type == Message::Type::kResult && message->chunks == 0) {
        ResultChunks chunks;
        Message last;
        for (const Message& part : result_messages(message->id, message->result, 7)) {
            if (part.type == Message::Type::kChunk) {
                TCLENS_FUZZ_CHECK(chunks.add(part.chunk).empty(), part.chunk);
            } else {
                last = part;
            }
        }
        const std::string why = chunks.finish(last);
        TCLENS_FUZZ_CHECK(why.empty(), why);
        TCLENS_FUZZ_CHECK(last.result == message->result, message->result.dump());
    }
    if (message->type == Message::Type::kChunk) {
        ResultChunks chunks;
        TCLENS_FUZZ_CHECK(chunks.add(message->chunk).empty(), "one chunk");
        Message counted;
        counted.chunks = 1;
        const std::string why = chunks.finish(counted);
        TCLENS_FUZZ_CHECK(
            why.empty() ? counted.result.is_object() : why.find('\n') == std::string::npos, why);
    }
    if (message->type == Message::Type::kUpdate)
        fuzz::check_reader<LiveUpdate>(message->update, live_update_from_json);
    return 0;
}
