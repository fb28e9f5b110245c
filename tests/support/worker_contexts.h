#pragma once
// App contexts for tests of the GUI's jobs (tests/unit/app/gui/jobs/) whose worker is not this
// test binary (the GUI's default worker is its own program, `tclens worker`): the real one, or
// the scripted stand-in (tests/data/scripted_worker.sh), which answers canned results
// (scripted_gpu.h writes them) and plays a worker that crashes, hangs, writes garbage or faults, on
// a machine without a GPU.

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "app/gui/jobs/app_context.h"
#include "tests/support/run_command.h"
#include "tests/support/source_dir.h"
#include "tests/support/tclens_binary.h"

namespace tclens::test {

// The GUI's context with the tclens binary as its worker.
struct WorkerContext : gui::AppContext {
    WorkerContext() { worker_options.command = kTclens + " worker"; }
};

// The GUI's context with the scripted worker, run with `variables` set: "SCRIPTED_TRACE=F"
// (canned results), "SCRIPTED_WORKER=crash". It logs the type of every request it gets
// (SCRIPTED_LOG) to a file of the running test's own.
struct ScriptedWorkerContext : gui::AppContext {
    explicit ScriptedWorkerContext(const std::string& variables)
        : log(temp_path(std::string("scripted_") +
                        testing::UnitTest::GetInstance()->current_test_info()->name() + ".log")) {
        std::remove(log.c_str());
        worker_options.command = variables + " SCRIPTED_LOG=" + log + " exec sh " + kSource +
                                 "/tests/data/scripted_worker.sh";
        worker_options.time_limit_s = 2;  // a hang is found in seconds
    }

    // The requests sent so far, one type a line: "hello\nbank_measure\n".
    std::string requests() const {
        std::ifstream file(log);
        return std::string(std::istreambuf_iterator<char>(file), {});
    }

    std::string log;
};

}  // namespace tclens::test
