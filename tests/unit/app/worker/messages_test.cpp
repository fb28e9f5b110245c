// Tests for app/worker/messages.*: progress, result and error messages round-trip, texts that
// must be one line are made one line, and a malformed message (what a broken or foreign worker
// could write) is refused in one line naming the field.

#include "app/worker/messages.h"

#include <gtest/gtest.h>

namespace tclens::worker {
namespace {

Message round_trip(const Message& message) {
    const std::string line = encode_message(message);
    EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    std::string error;
    const std::optional<Message> back = decode_message(line, error);
    EXPECT_TRUE(back.has_value()) << line << "\n" << error;
    return back.value_or(Message{});
}

TEST(WorkerMessages, ProgressRoundTrips) {
    Message m;
    m.id = 12;
    m.type = Message::Type::kProgress;
    m.progress = {"run", "yours.x 64x64x64", 2, 5, 0.5};
    const Message back = round_trip(m);
    EXPECT_EQ(back.id, 12);
    EXPECT_EQ(back.type, Message::Type::kProgress);
    EXPECT_EQ(back.progress.stage, "run");
    EXPECT_EQ(back.progress.text, "yours.x 64x64x64");
    EXPECT_EQ(back.progress.index, 2);
    EXPECT_EQ(back.progress.total, 5);
    EXPECT_DOUBLE_EQ(back.progress.allow_s, 0.5);
}

TEST(WorkerMessages, ResultRoundTripsItsObject) {
    Message m;
    m.id = 1;
    m.type = Message::Type::kResult;
    m.result = {{"a", 1}, {"b", {1, 2}}};
    EXPECT_EQ(round_trip(m).result, m.result);
    m.result = nullptr;  // a result is always an object
    EXPECT_EQ(round_trip(m).result, nlohmann::json::object());
}

TEST(WorkerMessages, UpdateRoundTripsItsObject) {
    Message m;
    m.id = 6;
    m.type = Message::Type::kUpdate;
    m.update = {{"kernel", 0}, {"profile", {{"x", 1}}}};
    EXPECT_EQ(encode_message(m),
              R"({"id":6,"type":"update","update":{"kernel":0,"profile":{"x":1}}})");
    const Message back = round_trip(m);
    EXPECT_EQ(back.type, Message::Type::kUpdate);
    EXPECT_EQ(back.update, m.update);
}

TEST(WorkerMessages, ErrorKindsReadBackByName) {
    EXPECT_EQ(error_kind_from_name("needs_resource"), ErrorKind::kNeedsResource);
    EXPECT_EQ(error_kind_from_name("usage"), ErrorKind::kUsage);
    EXPECT_FALSE(error_kind_from_name("Usage").has_value());
    EXPECT_EQ(error_kind_names(), "usage, failed, needs_resource, fault, protocol");
}

TEST(WorkerMessages, ErrorsRoundTripEveryKind) {
    for (const ErrorKind kind : {ErrorKind::kUsage, ErrorKind::kFailed, ErrorKind::kNeedsResource,
                                 ErrorKind::kFault, ErrorKind::kProtocol}) {
        Message m;
        m.id = 3;
        m.type = Message::Type::kError;
        m.error = {kind, "it broke", kind == ErrorKind::kFault};
        const Message back = round_trip(m);
        EXPECT_EQ(back.error.kind, kind) << error_kind_name(kind);
        EXPECT_EQ(back.error.message, "it broke");
        EXPECT_EQ(back.error.exits, kind == ErrorKind::kFault);
    }
}

TEST(WorkerMessages, OneLineFieldsLoseTheirControlCharacters) {
    Message m;
    m.type = Message::Type::kError;
    m.error = {ErrorKind::kFailed, "first\nsecond", false};
    EXPECT_EQ(round_trip(m).error.message, "first second");
    // A foreign worker that sends raw control characters in JSON escapes gets them cleaned too.
    std::string error;
    const auto decoded = decode_message(
        R"({"id":1,"type":"error","kind":"failed","message":"a\nb","exits":false})", error);
    ASSERT_TRUE(decoded) << error;
    EXPECT_EQ(decoded->error.message, "a b");
}

TEST(WorkerMessages, MalformedMessagesAreRefusedNamingTheField) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"not json", "not JSON"},
        {"[]", "JSON object"},
        {R"({"type":"result","result":{}})", "missing field 'id'"},
        {R"({"id":-1,"type":"result","result":{}})", "'id'"},
        {R"({"id":1,"type":"done","result":{}})", "unknown type \"done\""},
        {R"({"id":1,"type":"done","result":{}})", "progress, result, error, update"},
        {R"({"id":1,"type":"update"})", "missing field 'update'"},
        {R"({"id":1,"type":"update","update":[]})", "'update'"},
        {R"({"id":1,"type":"update","update":{},"kernel":0})", "unknown field \"kernel\""},
        {R"({"id":1,"type":"result"})", "missing field 'result'"},
        {R"({"id":1,"type":"result","result":[1]})", "'result'"},
        {R"({"id":1,"type":"result","result":{},"more":1})", "unknown field \"more\""},
        {R"({"id":1,"type":"progress","stage":"run","text":"x","index":0,"total":1})", "'allow_s'"},
        {R"({"id":1,"type":"progress","stage":"","text":"x","index":0,"total":1,"allow_s":0})",
         "'stage'"},
        {R"({"id":1,"type":"progress","stage":"run","text":"x","index":-2,"total":1,)"
         R"("allow_s":0})",
         "'index'"},
        {R"({"id":1,"type":"progress","stage":"run","text":"x","index":0,"total":1,)"
         R"("allow_s":-1})",
         "'allow_s'"},
        {R"({"id":1,"type":"error","kind":"oops","message":"m","exits":false})",
         "'kind' must be one of usage, failed, needs_resource, fault, protocol"},
        {R"({"id":1,"type":"error","kind":"failed","message":"","exits":false})", "'message'"},
        {R"({"id":1,"type":"error","kind":"failed","message":"m"})", "'exits'"},
        {R"({"id":1,"type":"error","kind":"fault","message":"m","exits":false})",
         "\"exits\": true"},
    };
    for (const auto& [line, named] : cases) {
        std::string error;
        EXPECT_FALSE(decode_message(line, error).has_value()) << line;
        EXPECT_NE(error.find(named), std::string::npos)
            << line << "\n  error: " << error << "\n  missing: " << named;
        EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
}

}  // namespace
}  // namespace tclens::worker
