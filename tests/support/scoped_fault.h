#pragma once
// Sets TCLENS_INJECT_FAULT (kernels/fault_injection.h) for one test's scope, so a test can see
// how a layer reports a failure that the machine cannot be made to produce.

#include <cstdlib>

#include "kernels/fault_injection.h"

namespace tclens::test {

class ScopedFault {
  public:
    explicit ScopedFault(kernels::Fault fault) {
        setenv(kernels::kFaultVariable, kernels::fault_name(fault), 1);
    }
    ~ScopedFault() { unsetenv(kernels::kFaultVariable); }
    ScopedFault(const ScopedFault&) = delete;
    ScopedFault& operator=(const ScopedFault&) = delete;
};

}  // namespace tclens::test
