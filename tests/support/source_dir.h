#pragma once
// The checkout the tests run from: TCLENS_SOURCE_DIR, which tests/CMakeLists.txt gives the test
// binaries that read its files (examples/, tests/data/).
#include <string>

namespace tclens::test {

inline const std::string kSource = TCLENS_SOURCE_DIR;

}  // namespace tclens::test
