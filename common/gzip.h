#pragma once
// gzip in memory (RFC 1952, through zlib): recordings are written compressed when their name ends
// in ".gz" and read either way (profiling/recording.h). And zlib's own format for PNG files. A
// shipped recording with its source profiles and warp traces is ~37 MB of JSON and ~3 MB gzipped
// (assets/recordings/h200.json.gz, 2026-12-01).

#include <cstddef>
#include <string>
#include <string_view>

namespace tclens::common {

// True when `bytes` start with gzip's magic number (1f 8b).
bool looks_gzipped(std::string_view bytes);

// `text` as one gzip member (zlib's default level). "" where zlib fails (out of memory).
std::string gzip(std::string_view text);

// `bytes` as one zlib stream (RFC 1950, zlib's default level): a PNG's image data
// (viz/png_writer.cpp). "" where zlib fails (out of memory).
std::string zlib_compress(std::string_view bytes);

// The bytes one gzip member holds. False, with `error` one line ("not gzip", "the gzip data ends
// early (a truncated file?)", "the gzip data is corrupt: <zlib's word>", "it expands to more than
// N MiB", "bytes after the end of the gzip data"), when `bytes` is not exactly one whole member
// or would expand to more than `max_bytes`; `text` is then empty.
bool gunzip(std::string_view bytes, std::size_t max_bytes, std::string& text, std::string& error);

}  // namespace tclens::common
