// Tests for kernels/driver_entry_point.h: what counts as found, and a symbol no driver exports
// (with or without a GPU here: either the lookup fails or the driver says it has no such symbol).
#include "kernels/driver_entry_point.h"

#include <gtest/gtest.h>

namespace tclens::kernels {
namespace {

TEST(DriverEntryPoint, FoundNeedsASuccessfulLookupTheSymbolAndAFunction) {
    static int target = 0;
    DriverEntryPoint entry;
    entry.function = &target;
    entry.query = cudaDriverEntryPointSuccess;
    EXPECT_TRUE(entry.found());
    entry.status = cudaErrorInitializationError;
    EXPECT_FALSE(entry.found());
    entry.status = cudaSuccess;
    entry.query = cudaDriverEntryPointVersionNotSufficent;
    EXPECT_FALSE(entry.found());
    entry.query = cudaDriverEntryPointSuccess;
    entry.function = nullptr;
    EXPECT_FALSE(entry.found());
}

TEST(DriverEntryPoint, ASymbolNoDriverExportsIsNotFound) {
    const DriverEntryPoint entry = find_driver_entry_point("cuTclensNoSuchFunction");
    EXPECT_FALSE(entry.found());
    EXPECT_EQ(entry.function, nullptr);
}

}  // namespace
}  // namespace tclens::kernels
