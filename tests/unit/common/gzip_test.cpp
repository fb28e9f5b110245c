// common/gzip.h: what gzip() packs, gunzip() gives back byte for byte, also across zlib's 1 MiB
// feeding chunks, and what `gzip -dc` reads; a truncated, corrupt, trailing or too large member
// is one line and no text, and so is one whose trailer lies about its length; zlib_compress()
// writes what zlib's own uncompress() reads.
#include "common/gzip.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include "tests/support/run_command.h"

namespace tclens::common {
namespace {

// 3 MiB of JSON-like text with some randomness, so that it spans several chunks both ways.
std::string sample_text() {
    std::mt19937 random(7);
    std::string text;
    while (text.size() < (3u << 20)) {
        text += "{\"pc\": " + std::to_string(random() % 100000) + ", \"opcode\": \"HMMA\"},\n";
    }
    return text;
}

TEST(Gzip, WhatItPacksComesBackWhole) {
    const std::string text = sample_text();
    const std::string packed = gzip(text);
    EXPECT_TRUE(looks_gzipped(packed));
    EXPECT_LT(packed.size(), text.size() / 3);
    std::string back, error;
    ASSERT_TRUE(gunzip(packed, text.size(), back, error)) << error;
    EXPECT_EQ(error, "");
    EXPECT_TRUE(back == text);
    ASSERT_TRUE(gunzip(gzip(""), 10, back, error)) << error;
    EXPECT_EQ(back, "");
}

TEST(Gzip, TheSystemsGzipReadsIt) {
    const std::string text = sample_text().substr(0, 100000);
    const std::string path = test::temp_path("gzip_test.gz");
    std::ofstream(path, std::ios::binary) << gzip(text);
    const test::CommandResult result = test::run_command("gzip -dc '" + path + "'");
    std::remove(path.c_str());
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(result.out == text);
}

TEST(Gzip, ABadMemberIsOneLineAndNoText) {
    const std::string text = sample_text();
    const std::string packed = gzip(text);
    std::string back = "old", error;
    EXPECT_FALSE(gunzip("{\"json\": 1}", 100, back, error));
    EXPECT_EQ(error, "not gzip");
    EXPECT_EQ(back, "");
    EXPECT_FALSE(gunzip(packed.substr(0, packed.size() / 2), text.size(), back, error));
    EXPECT_EQ(error, "the gzip data ends early (a truncated file?)");
    EXPECT_EQ(back, "");
    std::string corrupt = packed;
    for (std::size_t i = 20; i < 60; ++i) corrupt[i] = static_cast<char>(~corrupt[i]);
    EXPECT_FALSE(gunzip(corrupt, text.size(), back, error));
    EXPECT_EQ(error.rfind("the gzip data is corrupt: ", 0), 0u) << error;
    EXPECT_EQ(back, "");
    EXPECT_FALSE(gunzip(packed + "tail", text.size(), back, error));
    EXPECT_EQ(error, "bytes after the end of the gzip data");
    EXPECT_FALSE(gunzip(packed, (1u << 20), back, error));
    EXPECT_EQ(error, "it expands to more than 1 MiB");
    EXPECT_EQ(back, "");
    EXPECT_FALSE(looks_gzipped("\x1f"));
}

TEST(Gzip, ATrailerThatLiesAboutTheLengthIsCorruptData) {
    const std::string text = sample_text();
    for (const unsigned char said : {0x01, 0xff}) {  // its top byte: 16 MiB or 4 GiB more
        std::string packed = gzip(text);
        packed.back() = static_cast<char>(said);
        std::string back = "old", error;
        EXPECT_FALSE(gunzip(packed, text.size(), back, error));
        EXPECT_EQ(error.rfind("the gzip data is corrupt: ", 0), 0u) << error;
        EXPECT_EQ(back, "");
    }
}

TEST(Gzip, ZlibCompressWritesWhatZlibReads) {
    const std::string text = sample_text();
    const std::string packed = zlib_compress(text);
    ASSERT_FALSE(packed.empty());
    EXPECT_EQ(static_cast<unsigned char>(packed[0]), 0x78);  // a zlib stream, 32 KiB window
    EXPECT_LT(packed.size(), text.size() / 3);
    std::string back(text.size(), '\0');
    uLongf back_size = back.size();
    ASSERT_EQ(uncompress(reinterpret_cast<Bytef*>(back.data()), &back_size,
                         reinterpret_cast<const Bytef*>(packed.data()), packed.size()),
              Z_OK);
    EXPECT_EQ(back_size, text.size());
    EXPECT_TRUE(back == text);
    EXPECT_FALSE(zlib_compress("").empty());
}

}  // namespace
}  // namespace tclens::common
