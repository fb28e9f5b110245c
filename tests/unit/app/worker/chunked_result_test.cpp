// Large results in bounded lines (app/worker/chunked_result.h): a result longer than a chunk is
// sent as slices of its JSON text, cut where UTF-8 characters begin, and read back the same;
// what does not add up is one line.

#include "app/worker/chunked_result.h"

#include <gtest/gtest.h>

namespace tclens::worker {
namespace {

// 200 rows of text with two- and three-byte UTF-8 characters, about 9 KB of JSON.
nlohmann::json large_result() {
    nlohmann::json rows = nlohmann::json::array();
    for (int i = 0; i < 200; ++i) {
        rows.push_back({{"kernel", "k" + std::to_string(i)}, {"note", "4096³ · ü €"}, {"ms", i}});
    }
    return {{"rows", rows}};
}

TEST(ChunkedResult, ASmallResultIsOneResultMessageAsBefore) {
    const nlohmann::json result = {{"rows", {1, 2, 3}}};
    const std::vector<Message> messages = result_messages(7, result);
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_EQ(messages[0].type, Message::Type::kResult);
    EXPECT_EQ(messages[0].chunks, 0);
    EXPECT_EQ(encode_message(messages[0]), R"({"id":7,"result":{"rows":[1,2,3]},"type":"result"})");
}

TEST(ChunkedResult, ALargeResultGoesInBoundedChunksCutBetweenCharactersAndReadsBackTheSame) {
    const nlohmann::json result = large_result();
    const std::vector<Message> messages = result_messages(7, result, 64);
    ASSERT_GT(messages.size(), 100u);
    ResultChunks chunks;
    for (std::size_t i = 0; i + 1 < messages.size(); ++i) {
        const Message& chunk = messages[i];
        ASSERT_EQ(chunk.type, Message::Type::kChunk);
        EXPECT_LE(chunk.chunk.size(), 64u);
        EXPECT_NE(static_cast<unsigned char>(chunk.chunk.front()) & 0xC0, 0x80) << i;
        // Each goes over the wire as a line and comes back as it was.
        std::string error;
        const std::optional<Message> line = decode_message(encode_message(chunk), error);
        ASSERT_TRUE(line) << error;
        EXPECT_EQ(line->chunk, chunk.chunk);
        EXPECT_EQ(chunks.add(line->chunk), "");
    }
    Message last = messages.back();
    EXPECT_EQ(last.type, Message::Type::kResult);
    EXPECT_EQ(last.chunks, static_cast<int>(messages.size() - 1));
    std::string error;
    const std::optional<Message> counted = decode_message(encode_message(last), error);
    ASSERT_TRUE(counted) << error;
    EXPECT_EQ(counted->chunks, last.chunks);
    EXPECT_EQ(chunks.finish(last), "");
    EXPECT_EQ(last.result, result);
}

TEST(ChunkedResult, WhatDoesNotAddUpIsOneLine) {
    ResultChunks two;
    EXPECT_EQ(two.add(R"({"a":)"), "");
    EXPECT_EQ(two.add("1}"), "");
    Message three;
    three.chunks = 3;
    EXPECT_EQ(two.finish(three), "the result counts 3 chunks, 2 came");

    ResultChunks uncounted;
    EXPECT_EQ(uncounted.add("{}"), "");
    Message whole;
    EXPECT_EQ(uncounted.finish(whole), "1 chunks came before a whole result");

    ResultChunks not_json;
    EXPECT_EQ(not_json.add("[1,2"), "");
    Message one;
    one.chunks = 1;
    EXPECT_EQ(not_json.finish(one), "the result's chunks do not make a JSON object");

    ResultChunks small(8);
    EXPECT_EQ(small.add("12345"), "");
    EXPECT_EQ(small.add("6789"), "its result in chunks runs past 8 bytes");
}

TEST(ChunkedResult, AResultMessageHoldsTheResultOrItsCountNeverBoth) {
    std::string error;
    EXPECT_FALSE(decode_message(R"({"id":3,"type":"result","chunks":2,"result":{}})", error));
    EXPECT_NE(error.find("result"), std::string::npos) << error;
    EXPECT_FALSE(decode_message(R"({"id":3,"type":"result","chunks":0})", error));
    EXPECT_NE(error.find("'chunks'"), std::string::npos) << error;
    EXPECT_FALSE(decode_message(R"({"id":3,"type":"chunk"})", error));
    EXPECT_NE(error.find("'data'"), std::string::npos) << error;
}

}  // namespace
}  // namespace tclens::worker
