#pragma once
// GPU tests skip, visibly, where there is no GPU: ctest matches "skipped: no GPU".

#include <gtest/gtest.h>

#include "profiling/device_info.h"

#define TCLENS_REQUIRE_GPU()                                                                 \
    do {                                                                                     \
        if (!tclens::profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: no GPU"; \
    } while (0)
