// The generated census source: entries in listing order with counts in OpClass order, strings
// escaped as C++ literals, and an empty census that carries its reason. (That it compiles is
// checked by every build: the build compiles its own.)

#include "kernels/sass_census/census_source.h"

#include <gtest/gtest.h>

namespace tclens::kernels {
namespace {

TEST(CensusSource, WritesOneEntryPerFunction) {
    FunctionMix f{"sm_90a", "void k<\"q\\\">()", {}};
    f.counts[static_cast<size_t>(OpClass::kHgmma)] = 2;
    f.counts[static_cast<size_t>(OpClass::kTotal)] = 11;
    const std::string source = census_source({f}, "cuobjdump -sass lib.a", "");
    EXPECT_NE(source.find(
                  "{\"sm_90a\", \"void k<\\\"q\\\\\\\">()\", {0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 11}},"),
              std::string::npos)
        << source;
    EXPECT_NE(source.find("kEntries, 1, \"cuobjdump -sass lib.a\", \"\"}"), std::string::npos)
        << source;
    EXPECT_NE(source.find("const Census& built_in_census()"), std::string::npos);
}

TEST(CensusSource, EmptyCensusSaysWhy) {
    const std::string source = census_source({}, "", "no cuobjdump\n");
    EXPECT_EQ(source.find("kEntries"), std::string::npos) << source;
    EXPECT_NE(source.find("nullptr, 0, \"\", \"no cuobjdump\\012\"}"), std::string::npos) << source;
}

}  // namespace
}  // namespace tclens::kernels
