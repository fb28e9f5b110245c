// `tclens watch` without a GPU: its usage errors; a save that does not compile is one version
// with the compiler's file:line line; a new save is a new version (change detection), kept with
// --keep; --json prints one object per version; Ctrl+C ends it cleanly; a kernel that compiles
// but needs a GPU to load ends it with exit 3. Verified, timed and profiled versions are GPU
// tests (tests/gpu/app/user_kernels_test.cpp).

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "profiling/device_query.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"
#include "tests/support/user_kernel_files.h"

namespace tclens {
namespace {

namespace fs = std::filesystem;
using test::run_command;

using test::kTclens;

TEST(WatchCommand, BadArgumentsAreOneLineUsageErrors) {
    for (const auto& [args, named] : std::vector<std::pair<std::string, std::string>>{
             {"", "FILE"},
             {"/nonexistent/k.cu", "cannot read /nonexistent/k.cu"},
             {"k.py", "not a CUDA file"},
             {"k.cu --mnk 0x1x1", "'0x1x1'"},
             {"k.cu --runs 0", "--runs"},
             {"k.cu --poll-ms 1", "--poll-ms"},
             {"k.cu --time-limit 0", "--time-limit"}}) {
        const auto result = run_command(kTclens + " watch " + args);
        EXPECT_EQ(result.exit_code, 2) << args << "\n" << result.err;
        EXPECT_TRUE(test::is_one_line(result.err)) << args << "\n" << result.err;
        EXPECT_NE(result.err.find(named), std::string::npos) << args << "\n" << result.err;
    }
}

TEST(WatchCommand, ACompileErrorIsAVersionWithTheCompilersLine) {
    const std::string path = test::write_kernel_file("watched.cu", test::kCompileErrorKernel);
    const auto result = run_command(kTclens + " watch " + path + " --mnk 64x64x64 --stop-after 1");
    EXPECT_EQ(result.exit_code, 1) << result.err;  // the last version did not verify
    EXPECT_EQ(result.out.find("\nv1  "), result.out.find('\n')) << result.out;  // after the banner
    EXPECT_NE(result.out.find("watched.cu:3: error: identifier \"undefined_thing\""),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("versions:\n  v1  "), std::string::npos) << result.out;
}

TEST(WatchCommand, EachChangedSaveIsANewVersionAndKeepWritesThemAll) {
    const std::string path = test::write_kernel_file("edited.cu", test::kCompileErrorKernel);
    const std::string keep = test::temp_path("versions");
    fs::remove_all(keep);
    test::BackgroundCommand watch(kTclens + " watch " + path +
                                  " --mnk 64x64x64 --stop-after 2 --poll-ms 20 --json --keep " +
                                  keep);
    // Two more saves once v1 is out: the same text again (no new version), then new text. The
    // pause between them gives the watcher polls to see the first on its own; were they taken
    // as one save, v2 would still be the new text.
    ASSERT_TRUE(watch.wait_for_output(
        [](const std::string& out) { return out.find("\"version\":1") != std::string::npos; },
        std::chrono::seconds(120)))
        << "no first version: " << watch.finish(std::chrono::seconds(1)).err;
    std::ofstream(path, std::ios::binary) << test::kCompileErrorKernel;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::ofstream(path, std::ios::binary)
        << "// tclens: grid=(cdiv(N,16), cdiv(M,16)) block=(16,16)\n"
           "__global__ void gemm(int M, int N, int K, const float* A, const float* B, "
           "float* C) {\n\n\n    C[0] = other_undefined_thing;\n}\n";
    const auto result = watch.finish(std::chrono::seconds(120));
    EXPECT_EQ(result.exit_code, 1) << result.err;
    std::vector<nlohmann::json> versions;
    std::size_t start = 0;
    for (std::size_t end; (end = result.out.find('\n', start)) != std::string::npos;
         start = end + 1) {
        versions.push_back(nlohmann::json::parse(result.out.substr(start, end - start)));
    }
    ASSERT_EQ(versions.size(), 2u) << result.out;
    EXPECT_EQ(versions[0]["version"], 1);
    EXPECT_EQ(versions[1]["version"], 2);
    EXPECT_EQ(versions[0]["ok"], false);
    EXPECT_NE(versions[0]["error"].get<std::string>().find("edited.cu:3:"), std::string::npos);
    EXPECT_NE(versions[1]["error"].get<std::string>().find("edited.cu:5:"), std::string::npos)
        << versions[1];
    EXPECT_NE(versions[1]["error"].get<std::string>().find("other_undefined_thing"),
              std::string::npos);
    for (const char* file : {"v1.cu", "v1.json", "v2.cu", "v2.json"})
        EXPECT_TRUE(fs::exists(fs::path(keep) / file)) << file;
    std::ifstream kept(fs::path(keep) / "v1.cu");
    const std::string kept_text((std::istreambuf_iterator<char>(kept)),
                                std::istreambuf_iterator<char>());
    EXPECT_EQ(kept_text, test::kCompileErrorKernel);
    fs::remove_all(keep);
}

TEST(WatchCommand, CtrlCEndsItCleanlyWithTheVersionsListed) {
    const std::string path = test::write_kernel_file("interrupted.cu", test::kCompileErrorKernel);
    const std::string out = test::temp_path("watch.out");
    // SIGINT, as Ctrl+C in a terminal sends it, once v1 is on screen; the script exits with
    // watch's own exit code.
    const auto result = run_command("(" + kTclens + " watch " + path + " --mnk 64x64x64 >" + out +
                                        " & pid=$!; while ! grep -q '^v1' " + out +
                                        "; do sleep 0.1; done; "
                                        "kill -INT $pid; wait $pid; code=$?; cat " +
                                        out + "; rm -f " + out + "; exit $code)",
                                    std::chrono::seconds(120));
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("versions:\n  v1  "), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("interrupted.cu:3: error:"), std::string::npos) << result.out;
}

TEST(WatchCommand, AKernelThatNeedsAGpuToLoadEndsItWithExit3) {
    if (profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
    const std::string path = test::write_kernel_file("good.cu", test::kDirectiveKernel);
    const auto result = run_command(kTclens + " watch " + path + " --mnk 64x64x64");
    EXPECT_EQ(result.exit_code, 3) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("needs an NVIDIA GPU"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace tclens
