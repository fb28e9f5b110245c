#pragma once
// Reading the JSON documents tclens writes (profiles, timelines, bench rows, device reports,
// recordings): keys of one object read into plain fields, the first problem kept as one line
// ("missing key 'passes'", "key 'value' has the wrong type"), every later read skipped.
//
// JSON has no NaN or infinity: nlohmann::json writes them as null. A null read into a floating
// point field therefore gives NaN; `nullable` reads keys whose null means "unknown" (0 or "").

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/gemm.h"

namespace tclens::profiling {

class JsonReader {
  public:
    explicit JsonReader(std::string& error) : error_(error) {}

    // object[key] into `out`; the key must be there.
    template <typename T>
    void operator()(const nlohmann::json& object, const char* key, T& out) {
        if (!error_.empty()) return;
        if (!object.is_object() || !object.contains(key)) {
            error_ = std::string("missing key '") + key + "'";
            return;
        }
        read(object.at(key), key, out);
    }

    // object[key] into `out`, leaving `out` as it is when the value is null.
    template <typename T>
    void nullable(const nlohmann::json& object, const char* key, T& out) {
        if (!error_.empty()) return;
        if (!object.is_object() || !object.contains(key)) {
            error_ = std::string("missing key '") + key + "'";
            return;
        }
        if (!object.at(key).is_null()) read(object.at(key), key, out);
    }

    // object[key] into `out` when the key is there and not null (a key later writers added:
    // documents from before it read as `out` left as it is).
    template <typename T>
    void optional(const nlohmann::json& object, const char* key, T& out) {
        if (!error_.empty()) return;
        if (object.is_object() && object.contains(key) && !object.at(key).is_null()) {
            read(object.at(key), key, out);
        }
    }

    // An array under `key`, each element read by `each(element)`.
    template <typename Each>
    void array(const nlohmann::json& object, const char* key, Each each) {
        if (!error_.empty()) return;
        if (!object.is_object() || !object.contains(key) || !object.at(key).is_array()) {
            error_ = std::string("missing array '") + key + "'";
            return;
        }
        for (const nlohmann::json& element : object.at(key)) {
            if (!error_.empty()) return;
            each(element);
        }
    }

    // An array under `key` of documents, each read by `from_json(element, value, error)` (the
    // *_from_json functions) and appended to `out`; a bad element fails with its place
    // ("results[2]: missing key 'tflops'").
    template <typename T, typename FromJson>
    void list(const nlohmann::json& object, const char* key, std::vector<T>& out,
              FromJson from_json) {
        array(object, key, [&](const nlohmann::json& element) {
            T value;
            std::string element_error;
            if (!from_json(element, value, element_error)) {
                fail(std::string(key) + "[" + std::to_string(out.size()) + "]: " + element_error);
                return;
            }
            out.push_back(std::move(value));
        });
    }

    bool ok() const { return error_.empty(); }
    void fail(std::string message) {
        if (error_.empty()) error_ = std::move(message);
    }

  private:
    template <typename T>
    void read(const nlohmann::json& value, const char* key, T& out) {
        if constexpr (std::is_floating_point_v<T>) {
            if (value.is_null()) {
                out = std::numeric_limits<T>::quiet_NaN();
                return;
            }
        }
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
            // get<T>() would cast 1e300 or 2^40 into an int (undefined behaviour, found by
            // tests/fuzz/fuzz_recording_loader): only whole numbers in T's range are read.
            if (!whole_number_fits<T>(value)) {
                error_ = std::string("key '") + key +
                         "' has the wrong type: expected a whole number from " +
                         std::to_string(std::numeric_limits<T>::min()) + " to " +
                         std::to_string(std::numeric_limits<T>::max());
                return;
            }
        }
        try {
            out = value.get<T>();
        } catch (const nlohmann::json::exception&) {
            error_ = std::string("key '") + key + "' has the wrong type";
        }
    }

    template <typename T>
    static bool whole_number_fits(const nlohmann::json& value) {
        if (value.is_number_unsigned()) {
            return value.get<std::uint64_t>() <=
                   static_cast<std::uint64_t>(std::numeric_limits<T>::max());
        }
        if (!value.is_number_integer()) return false;
        const std::int64_t number = value.get<std::int64_t>();
        if constexpr (std::is_signed_v<T>) {
            return number >= std::numeric_limits<T>::min() &&
                   number <= std::numeric_limits<T>::max();
        } else {
            return number >= 0 &&
                   static_cast<std::uint64_t>(number) <= std::numeric_limits<T>::max();
        }
    }

    std::string& error_;
};

// "f32", "tf32", "f16", "bf16", "e4m3" (kernels::precision_name) -> the precision; false for
// any other.
inline bool parse_precision(const std::string& name, kernels::Precision& precision) {
    for (const kernels::Precision p :
         {kernels::Precision::kF32, kernels::Precision::kTF32, kernels::Precision::kF16,
          kernels::Precision::kBF16, kernels::Precision::kE4M3}) {
        if (name == kernels::precision_name(p)) {
            precision = p;
            return true;
        }
    }
    return false;
}

}  // namespace tclens::profiling
