#include "app/worker/strict_fields.h"

#include <algorithm>
#include <cmath>

#include "app/worker/messages.h"
#include "common/one_line.h"
#include "common/text.h"
#include "kernels/problem_text.h"

namespace tclens::worker {

std::string shown_value(const nlohmann::json& value) {
    return common::one_line_excerpt(
        value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), 40);
}

StrictFields::StrictFields(const nlohmann::json& object, std::string what)
    : object_(object), what_(std::move(what)) {
    if (!object_.is_object()) fail("must be a JSON object, got " + shown_value(object_));
}

void StrictFields::fail(const std::string& message) {
    // Messages quote the request's own texts (e.g. problem_error's 'size'): one line whatever
    // they hold (found by tests/fuzz/fuzz_worker_request: a size with "\n" in it).
    if (error_.empty()) error_ = common::one_line(what_ + ": " + message);
}

const nlohmann::json* StrictFields::find(const char* key, bool required) {
    known_.emplace_back(key);
    if (!ok()) return nullptr;
    const auto it = object_.find(key);
    if (it == object_.end()) {
        if (required) fail(std::string("missing field '") + key + "'");
        return nullptr;
    }
    return &*it;
}

void StrictFields::bad(const char* key, const std::string& expected, const nlohmann::json& got) {
    fail(std::string("field '") + key + "' must be " + expected + ", got " + shown_value(got));
}

void StrictFields::text(const char* key, std::string& out, bool required, std::size_t max_bytes,
                        bool may_be_empty) {
    const nlohmann::json* value = find(key, required);
    if (value == nullptr) return;
    const std::string expected = std::string(may_be_empty ? "a text" : "a non-empty text") +
                                 " of at most " + std::to_string(max_bytes) + " bytes";
    if (!value->is_string()) return bad(key, expected, *value);
    const std::string& text = value->get_ref<const std::string&>();
    if ((text.empty() && !may_be_empty) || text.size() > max_bytes)
        return bad(key, expected, *value);
    out = text;
}

void StrictFields::flag(const char* key, bool& out, bool required) {
    const nlohmann::json* value = find(key, required);
    if (value == nullptr) return;
    if (!value->is_boolean()) return bad(key, "true or false", *value);
    out = value->get<bool>();
}

void StrictFields::whole(const char* key, std::int64_t& out, bool required, std::int64_t min,
                         std::int64_t max) {
    const nlohmann::json* value = find(key, required);
    if (value == nullptr) return;
    const std::string expected =
        "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
    if (value->is_number_unsigned()) {
        const std::uint64_t number = value->get<std::uint64_t>();
        if (max < 0 || number > static_cast<std::uint64_t>(max)) return bad(key, expected, *value);
        if (static_cast<std::int64_t>(number) < min) return bad(key, expected, *value);
        out = static_cast<std::int64_t>(number);
        return;
    }
    if (!value->is_number_integer()) return bad(key, expected, *value);
    const std::int64_t number = value->get<std::int64_t>();
    if (number < min || number > max) return bad(key, expected, *value);
    out = number;
}

void StrictFields::whole(const char* key, int& out, bool required, int min, int max) {
    std::int64_t wide = out;
    whole(key, wide, required, min, max);
    out = static_cast<int>(wide);
}

void StrictFields::whole(const char* key, std::uint64_t& out, bool required, std::uint64_t max) {
    const nlohmann::json* value = find(key, required);
    if (value == nullptr) return;
    const std::string expected = "a whole number from 0 to " + std::to_string(max);
    if (value->is_number_unsigned()) {
        if (value->get<std::uint64_t>() > max) return bad(key, expected, *value);
        out = value->get<std::uint64_t>();
        return;
    }
    if (!value->is_number_integer() || value->get<std::int64_t>() < 0)
        return bad(key, expected, *value);
    if (static_cast<std::uint64_t>(value->get<std::int64_t>()) > max)
        return bad(key, expected, *value);
    out = static_cast<std::uint64_t>(value->get<std::int64_t>());
}

void StrictFields::number(const char* key, double& out, bool required, double min, double max) {
    const nlohmann::json* value = find(key, required);
    if (value == nullptr) return;
    char expected[96];
    std::snprintf(expected, sizeof expected, "a number from %g to %g", min, max);
    if (!value->is_number()) return bad(key, expected, *value);
    const double number = value->get<double>();
    if (!std::isfinite(number) || number < min || number > max) return bad(key, expected, *value);
    out = number;
}

void StrictFields::texts(const char* key, std::vector<std::string>& out, bool required,
                         std::size_t min_items, std::size_t max_items, std::size_t max_bytes,
                         bool items_may_be_empty) {
    const nlohmann::json* value = find(key, required);
    if (value == nullptr) return;
    const std::string expected = "an array of " + std::to_string(min_items) + " to " +
                                 std::to_string(max_items) +
                                 (items_may_be_empty ? " texts" : " non-empty texts") +
                                 " of at most " + std::to_string(max_bytes) + " bytes";
    if (!value->is_array() || value->size() < min_items || value->size() > max_items)
        return bad(key, expected, *value);
    std::vector<std::string> read;
    for (const nlohmann::json& item : *value) {
        if (!item.is_string()) return bad(key, expected, item);
        const std::string& text = item.get_ref<const std::string&>();
        if ((text.empty() && !items_may_be_empty) || text.size() > max_bytes)
            return bad(key, expected, item);
        read.push_back(text);
    }
    out = std::move(read);
}

void StrictFields::problems(const char* key, std::vector<kernels::GemmProblem>& out, bool required,
                            std::size_t max_items) {
    const nlohmann::json* value = find(key, required);
    if (value == nullptr) return;
    const std::string expected =
        "an array of 1 to " + std::to_string(max_items) + " \"MxNxK\" texts";
    if (!value->is_array() || value->empty() || value->size() > max_items)
        return bad(key, expected, *value);
    std::vector<kernels::GemmProblem> read;
    for (const nlohmann::json& item : *value) {
        if (!item.is_string()) return bad(key, expected, item);
        const auto problem = kernels::parse_problem(item.get_ref<const std::string&>());
        if (!problem) {
            return fail(std::string("field '") + key +
                        "': " + kernels::problem_error(item.get_ref<const std::string&>()));
        }
        read.push_back(*problem);
    }
    out = std::move(read);
}

void StrictFields::problem(const char* key, kernels::GemmProblem& out, bool required) {
    const nlohmann::json* value = find(key, required);
    if (value == nullptr) return;
    if (!value->is_string()) return bad(key, "an \"MxNxK\" text", *value);
    const auto problem = kernels::parse_problem(value->get_ref<const std::string&>());
    if (!problem) {
        return fail(std::string("field '") + key +
                    "': " + kernels::problem_error(value->get_ref<const std::string&>()));
    }
    out = *problem;
}

const nlohmann::json* StrictFields::object(const char* key, bool required, bool null_ok) {
    const nlohmann::json* value = find(key, required);
    if (value == nullptr) return nullptr;
    if (value->is_null() && null_ok) return nullptr;
    if (!value->is_object()) {
        bad(key, null_ok ? "an object or null" : "an object", *value);
        return nullptr;
    }
    return value;
}

void StrictFields::known(const char* key) { known_.emplace_back(key); }

void StrictFields::finish() {
    if (!ok()) return;
    for (const auto& [key, value] : object_.items()) {
        if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
        const std::string valid = common::join(known_, ", ");
        std::string shown_key =
            nlohmann::json(key).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        if (shown_key.size() > 42) shown_key = shown_key.substr(0, 40) + "...";
        fail("unknown field " + shown_key + " (valid: " + valid + ")");
        return;
    }
}

}  // namespace tclens::worker
