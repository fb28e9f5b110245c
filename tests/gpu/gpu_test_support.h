#pragma once
// GPU tests skip, visibly, where there is no GPU: GTEST_SKIP with "skipped: no GPU", which ctest
// reports as skipped by the test's exit code (tests/support/gtest_main.cpp).

#include <gtest/gtest.h>

#include "profiling/device_query.h"

#define TCLENS_REQUIRE_GPU()                                                                 \
    do {                                                                                     \
        if (!tclens::profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: no GPU"; \
    } while (0)
