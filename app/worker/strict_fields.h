#pragma once
// Strict reading of one JSON object of the worker protocol (docs/worker-protocol.md): every key
// must be one the message type knows, every value of the expected type and range. The first
// problem is kept as one line naming the message and the field, e.g.
//   "bench request: field 'runs' must be a whole number from 1 to 1000, got \"abc\""
//   "bench request: unknown field 'run' (valid: id, type, kernels, problems, ...)"
// and every later read is skipped, so a caller reads all its fields and checks ok() once.
//
// Unlike profiling/json_reader.h (which reads our own files and ignores extra keys), nothing
// here is lenient: a message from another program that misspells a field must not silently
// fall back to a default.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kernels/gemm.h"

namespace tclens::worker {

class StrictFields {
  public:
    // `what` names the message in errors ("bench request", "progress message").
    StrictFields(const nlohmann::json& object, std::string what);

    // Each reads object[key] into `out` and marks the key as known. Required ones fail when the
    // key is missing; optional ones leave `out` as it is.
    void text(const char* key, std::string& out, bool required, std::size_t max_bytes,
              bool may_be_empty = false);
    void flag(const char* key, bool& out, bool required);
    void whole(const char* key, std::int64_t& out, bool required, std::int64_t min,
               std::int64_t max);
    void whole(const char* key, int& out, bool required, int min, int max);
    void whole(const char* key, std::uint64_t& out, bool required, std::uint64_t max);
    void number(const char* key, double& out, bool required, double min, double max);
    // An array of min_items..max_items texts, each 1..max_bytes long (or empty when allowed).
    void texts(const char* key, std::vector<std::string>& out, bool required, std::size_t min_items,
               std::size_t max_items, std::size_t max_bytes, bool items_may_be_empty = false);
    // An array of 1..max_items "MxNxK" texts (kernels/problem_text.h).
    void problems(const char* key, std::vector<kernels::GemmProblem>& out, bool required,
                  std::size_t max_items);
    // One "MxNxK" text.
    void problem(const char* key, kernels::GemmProblem& out, bool required);
    // A nested object (or null when `null_ok`): returns it, or nullptr when missing, null or bad.
    const nlohmann::json* object(const char* key, bool required, bool null_ok);
    // Marks `key` as known without reading it (the caller reads it another way).
    void known(const char* key);

    // Fails on the first key no read named. Call after every read.
    void finish();

    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    void fail(const std::string& message);

  private:
    const nlohmann::json* find(const char* key, bool required);
    void bad(const char* key, const std::string& expected, const nlohmann::json& got);

    const nlohmann::json& object_;
    std::string what_;
    std::vector<std::string> known_;
    std::string error_;
};

// A reader's refusal in one statement: sets `error` to `message` and returns false
// (`if (!f.ok()) return refuse(error, f.error());`).
inline bool refuse(std::string& error, const std::string& message) {
    error = message;
    return false;
}

// A JSON value shown in an error: its compact text, cut to ~40 characters.
std::string shown_value(const nlohmann::json& value);

}  // namespace tclens::worker
