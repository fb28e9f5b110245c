#pragma once
// The tclens binary the end-to-end tests run: TCLENS_BINARY, which tests/CMakeLists.txt gives the
// test binaries that start it.
#include <string>

namespace tclens::test {

inline const std::string kTclens = TCLENS_BINARY;

}  // namespace tclens::test
