// Tests for the client-only configuration (TCLENS_CLIENT_ONLY, CMakeLists.txt): the project
// configures with no CUDA on PATH, never looks for a CUDA compiler or toolkit, and compiles the
// client's libraries (tclens_kernels_model, tclens_user_source and tclens_profiling_model among
// them) and the app's (the CLI, the GUI, the worker's client) with no CUDA source and no CUDA
// include folder. Configure only: scripts/dev.sh test builds it (docs/architecture.md, "Layers").

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

#include "tests/support/run_command.h"

namespace tclens {
namespace {

// $PATH without the folders that hold a CUDA toolkit ("/usr/local/cuda/bin" and the like).
std::string path_without_cuda() {
    std::stringstream entries(std::getenv("PATH") ? std::getenv("PATH") : "");
    std::string kept;
    for (std::string entry; std::getline(entries, entry, ':');) {
        if (entry.find("cuda") != std::string::npos) continue;
        kept += (kept.empty() ? "" : ":") + entry;
    }
    return kept;
}

TEST(ClientOnly, ConfiguresWithoutCudaAndCompilesNoCudaHeaderOrSource) {
    const std::string build = test::temp_path("client_only_configure");
    std::filesystem::remove_all(build);
    const auto result = test::run_command(
        "env -u CUDACXX PATH='" + path_without_cuda() + "' '" + TCLENS_CMAKE_COMMAND + "' -S '" +
        TCLENS_SOURCE_DIR + "' -B '" + build + "' -G '" + TCLENS_CMAKE_GENERATOR +
        "' -DCMAKE_MAKE_PROGRAM='" + TCLENS_MAKE_PROGRAM + "' -DCMAKE_CXX_COMPILER='" +
        TCLENS_CXX_COMPILER + "' -DTCLENS_EXTRA_INCLUDE='" + TCLENS_EXTRA_INCLUDE_DIR +
        "' -DTCLENS_CLIENT_ONLY=ON -DCMAKE_EXPORT_COMPILE_COMMANDS=ON 2>&1");
    ASSERT_EQ(result.exit_code, 0) << result.out;

    const std::string cache = test::read_file(build + "/CMakeCache.txt");
    EXPECT_EQ(cache.find("CMAKE_CUDA_COMPILER:"), std::string::npos);
    EXPECT_EQ(cache.find("CUDAToolkit_"), std::string::npos);

    const std::string commands = test::read_file(build + "/compile_commands.json");
    ASSERT_NE(commands.find("kernels/descriptor_text.cpp"), std::string::npos) << commands;
    ASSERT_NE(commands.find("kernels/run_result.cpp"), std::string::npos) << commands;
    // A user's kernel source, read by the client (a unity batch of kernels/user/).
    ASSERT_NE(commands.find("tclens_user_source.dir"), std::string::npos) << commands;
    // The rungs' descriptors (their launches stay in the .cu files of the same names).
    for (const char* descriptor :
         {"kernels/01_naive_fma.cpp", "kernels/08_mma_cp_async.cpp", "kernels/09_wgmma_tma.cpp",
          "kernels/11_wgmma_persistent.cpp", "kernels/12_wgmma_stream_k.cpp",
          "kernels/13_wgmma_fp8.cpp", "kernels/sixteen_bit_rung.cpp",
          "kernels/cublas_reference.cpp", "kernels/cublaslt_reference.cpp"}) {
        EXPECT_NE(commands.find(descriptor), std::string::npos) << descriptor;
    }
    // The registry and what reads only its descriptors.
    for (const char* reader : {"kernels/registry.cpp", "kernels/tile_map_spec.cpp",
                               "kernels/shared_access.cpp", "kernels/sweep_summary.cpp"}) {
        EXPECT_NE(commands.find(reader), std::string::npos) << reader;
    }
    // The fragment layout probes' plans and comparison (their launches stay in the CUDA layer).
    for (const char* reader :
         {"kernels/probes/fragment_probe.cpp", "kernels/probes/mma_probe_plan.cpp",
          "kernels/probes/wgmma_smem_probe_plan.cpp"}) {
        EXPECT_NE(commands.find(reader), std::string::npos) << reader;
    }
    // The profiling model (result types, their JSON) without its GPU half (CUPTI, the device
    // query). Their files are compiled in batches: each library's folder names it.
    EXPECT_NE(commands.find("tclens_profiling_model.dir"), std::string::npos) << commands;
    EXPECT_EQ(commands.find("tclens_profiling.dir"), std::string::npos) << commands;
    // The SASS reader the model's sass_text uses (not the census table, made from a CUDA build).
    EXPECT_NE(commands.find("kernels/sass_census/sass_line.cpp"), std::string::npos) << commands;
    // The app: the CLI, the GUI and the worker's client, and `tclens worker` of a client build
    // (no_worker_command.cpp); not the worker's server, which runs kernels.
    for (const char* app : {"tclens_cli.dir", "tclens_gui_core.dir", "tclens_worker_client.dir",
                            "tclens_worker_protocol.dir", "tclens_worker_command.dir"}) {
        EXPECT_NE(commands.find(app), std::string::npos) << app;
    }
    EXPECT_EQ(commands.find("tclens_worker_server.dir"), std::string::npos) << commands;
    EXPECT_EQ(commands.find(".cu\""), std::string::npos) << "a CUDA source is compiled";
    EXPECT_EQ(commands.find("cuda"), std::string::npos) << "a CUDA folder is on a compile line";
}

}  // namespace
}  // namespace tclens
