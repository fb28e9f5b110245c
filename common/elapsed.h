#pragma once
// Wall time since a moment, for the timings the tools report about themselves.
#include <chrono>

namespace tclens::common {

// Milliseconds from `start` to now (steady clock).
inline double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

}  // namespace tclens::common
