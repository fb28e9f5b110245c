#include "common/gzip.h"

#include <zlib.h>

#include <algorithm>
#include <climits>

namespace tclens::common {
namespace {

constexpr int kZlibWindowBits = 15;       // the largest window, with a zlib header and trailer
constexpr int kGzipWindowBits = 15 + 16;  // the largest window, with a gzip header and trailer
constexpr std::size_t kChunk = 1 << 20;   // zlib counts in uInt: feed it at most this at a time

Bytef* zlib_bytes(const char* bytes) { return reinterpret_cast<Bytef*>(const_cast<char*>(bytes)); }

// `bytes` deflated at zlib's default level in the wrapping `window_bits` names (kGzipWindowBits,
// kZlibWindowBits), fed and drained a chunk at a time. "" where zlib fails (out of memory).
std::string deflate_bytes(std::string_view bytes, int window_bits) {
    z_stream stream{};
    if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, window_bits, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK) {
        return "";
    }
    std::string out;
    std::size_t consumed = 0;
    int status = Z_OK;
    while (status == Z_OK) {
        const std::size_t in_now = std::min(kChunk, bytes.size() - consumed);
        stream.next_in = zlib_bytes(bytes.data() + consumed);
        stream.avail_in = static_cast<uInt>(in_now);
        const bool last = consumed + in_now == bytes.size();
        const std::size_t before = out.size();
        out.resize(before + kChunk);
        stream.next_out = zlib_bytes(out.data() + before);
        stream.avail_out = static_cast<uInt>(kChunk);
        status = deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH);
        consumed += in_now - stream.avail_in;
        out.resize(out.size() - stream.avail_out);
    }
    deflateEnd(&stream);
    if (status != Z_STREAM_END) out.clear();
    return out;
}

}  // namespace

bool looks_gzipped(std::string_view bytes) {
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string gzip(std::string_view text) { return deflate_bytes(text, kGzipWindowBits); }

std::string zlib_compress(std::string_view bytes) { return deflate_bytes(bytes, kZlibWindowBits); }

bool gunzip(std::string_view bytes, std::size_t max_bytes, std::string& text, std::string& error) {
    text.clear();
    if (!looks_gzipped(bytes)) {
        error = "not gzip";
        return false;
    }
    z_stream stream{};
    if (inflateInit2(&stream, kGzipWindowBits) != Z_OK) {
        error = "zlib could not start";
        return false;
    }
    // The member's trailer says how long its text is (mod 2^32; a hint only, never trusted past
    // max_bytes): one allocation for it, where growing 1 MiB at a time copied the text again at
    // every doubling (the shipped recording's 37 MB; with the PNG written through zlib,
    // viz/png_writer.cpp, a 1920x1080 lecture screenshot of it took 1.17 s against 1.48:
    // farm-bench, median of 10 pairs).
    constexpr std::size_t kHeaderAndTrailer = 18;
    if (bytes.size() >= kHeaderAndTrailer) {
        const auto* end = reinterpret_cast<const unsigned char*>(bytes.data() + bytes.size());
        const std::size_t said = std::size_t{end[-4]} | std::size_t{end[-3]} << 8 |
                                 std::size_t{end[-2]} << 16 | std::size_t{end[-1]} << 24;
        text.reserve(std::min(said + kChunk, max_bytes + 1));  // the loop asks a chunk ahead
    }
    std::size_t consumed = 0;
    int status = Z_OK;
    while (status == Z_OK) {
        const std::size_t in_now = std::min(kChunk, bytes.size() - consumed);
        stream.next_in = zlib_bytes(bytes.data() + consumed);
        stream.avail_in = static_cast<uInt>(in_now);
        const std::size_t before = text.size();
        const std::size_t out_now = std::min(kChunk, max_bytes + 1 - before);
        text.resize(before + out_now);
        stream.next_out = zlib_bytes(text.data() + before);
        stream.avail_out = static_cast<uInt>(out_now);
        status = inflate(&stream, Z_NO_FLUSH);
        consumed += in_now - stream.avail_in;
        text.resize(text.size() - stream.avail_out);
        if (status == Z_BUF_ERROR && in_now == 0 && consumed == bytes.size()) break;
        if (status == Z_BUF_ERROR) status = Z_OK;  // no progress possible this round only
        if (text.size() > max_bytes) break;
    }
    inflateEnd(&stream);
    if (text.size() > max_bytes) {
        error = "it expands to more than " + std::to_string(max_bytes >> 20) + " MiB";
    } else if (status == Z_STREAM_END && consumed != bytes.size()) {
        error = "bytes after the end of the gzip data";
    } else if (status == Z_STREAM_END) {
        error.clear();
        return true;
    } else if (status == Z_OK || status == Z_BUF_ERROR) {
        error = "the gzip data ends early (a truncated file?)";
    } else {
        error = std::string("the gzip data is corrupt: ") +
                (stream.msg != nullptr ? stream.msg : "zlib error " + std::to_string(status));
    }
    text.clear();
    return false;
}

}  // namespace tclens::common
