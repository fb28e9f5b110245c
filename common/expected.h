#pragma once
// A value or one line of error text, never both: how tclens's parsers and models say "this input
// cannot be used, and why" without exceptions (parse_swizzle, parse_pattern, bank_requests,
// tile_map_spec, ...). Every layer uses it, so it lives below them all.

#include <optional>
#include <string>
#include <utility>

namespace tclens::common {

// Expected<int>::success(3) holds 3; Expected<int>::failure("x must be positive") holds that
// line. value(), operator* and operator-> are only valid when ok(); error() is "" when ok().
template <typename T>
class Expected {
  public:
    static Expected success(T value) {
        Expected result;
        result.value_ = std::move(value);
        return result;
    }
    static Expected failure(std::string error) {
        Expected result;
        result.error_ = std::move(error);
        return result;
    }
    bool ok() const { return value_.has_value(); }
    explicit operator bool() const { return ok(); }
    const T& value() const { return *value_; }
    const T& operator*() const { return *value_; }
    const T* operator->() const { return &*value_; }
    const std::string& error() const { return error_; }

  private:
    Expected() = default;
    std::optional<T> value_;
    std::string error_;
};

}  // namespace tclens::common
