// Tests for app/worker/results.*: each request's result round-trips (what the worker writes, the
// client reads back equal), including what bench rows leave out (times, guard-zone findings,
// the error map) and a source profile's lines of the user's file, and a result that does not fit
// is refused in one line.

#include "app/worker/results.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tclens::worker {
namespace {

kernels::BenchRow row(const std::string& id, kernels::Precision precision, bool passed) {
    kernels::BenchRow r;
    r.result.kernel_id = id;
    r.result.precision = precision;
    r.result.problem = {256, 128, 64};
    r.result.check.passed = passed;
    r.result.check.rel_rms_error = passed ? 1e-6 : 0.5;
    r.result.check.bound = 1e-2;
    r.result.check.reference = "cpu.fp64";
    r.result.input_sets = 4;
    if (passed) {
        r.result.timed_runs = 30;
        r.result.median_ms = 0.25;
        r.result.min_ms = 0.2;
        r.result.max_ms = 0.3;
        r.result.tflops = 0.0168;
    }
    r.result.verify_ms = 12.5;
    r.result.time_ms = passed ? 8.25 : 0;
    return r;
}

viz::ErrorMap small_map() {
    viz::ErrorMap map;
    map.rows = 256;
    map.cols = 128;
    map.cell_rows = 16;
    map.cell_cols = 8;
    map.granularity = "16x8 tile";
    map.grid_rows = 16;
    map.grid_cols = 16;
    map.cells.assign(256, viz::ErrorCell{128, 0, 0});
    map.cells[3] = {128, 4, 1};
    map.wrong = 4;
    map.nan = 1;
    map.tolerance = 0.04;
    map.first_wrong = viz::WrongElement{0, 25, 1.5, std::nan("")};
    return map;
}

TEST(WorkerResults, HelloRoundTripsWithTheSystemReport) {
    HelloResult hello;
    hello.protocol = 1;
    hello.tclens_version = "0.1.0";
    hello.pid = 4242;
    hello.host = "gpu-host";
    hello.system.runtime_version = 13000;
    hello.system.no_gpu_reason = "no CUDA-capable device is detected";
    HelloResult back;
    std::string error;
    ASSERT_TRUE(hello_from_json(to_json(hello), back, error)) << error;
    EXPECT_EQ(back.pid, 4242);
    EXPECT_EQ(back.host, "gpu-host");
    EXPECT_EQ(back.system.runtime_version, 13000);
    EXPECT_EQ(back.system.no_gpu_reason, hello.system.no_gpu_reason);
    EXPECT_FALSE(back.system.has_gpu());
}

// The mixes of the worker's build round-trip; a hello without them (an earlier tclens, a client
// build's worker) reads as none sent, and writing it out leaves the keys out again.
TEST(WorkerResults, HelloCarriesTheWorkersInstructionMixesOrNone) {
    HelloResult hello;
    hello.protocol = 2;
    hello.tclens_version = "0.1.0";
    hello.pid = 4242;
    kernels::InstructionMix mix;
    mix.arch = "sm_90a";
    mix.functions = 2;
    mix.counts[std::size_t(kernels::OpClass::kHmma)] = 64;
    hello.mixes = WorkerMixes{{{"wmma.f16", 90, mix}}, ""};
    HelloResult back;
    std::string error;
    ASSERT_TRUE(hello_from_json(to_json(hello), back, error)) << error;
    ASSERT_TRUE(back.mixes.has_value());
    ASSERT_EQ(back.mixes->mixes.size(), 1u);
    EXPECT_EQ(back.mixes->mixes[0].kernel_id, "wmma.f16");
    EXPECT_EQ(back.mixes->mixes[0].sm, 90);
    EXPECT_EQ(back.mixes->mixes[0].mix.functions, 2);
    EXPECT_EQ(back.mixes->mixes[0].mix[kernels::OpClass::kHmma], 64);
    EXPECT_EQ(back.mixes->missing, "");

    hello.mixes = WorkerMixes{{}, "this build had no cuobjdump"};
    ASSERT_TRUE(hello_from_json(to_json(hello), back, error)) << error;
    ASSERT_TRUE(back.mixes.has_value());
    EXPECT_TRUE(back.mixes->mixes.empty());
    EXPECT_EQ(back.mixes->missing, "this build had no cuobjdump");

    nlohmann::json older = to_json(hello);
    older.erase("instruction_mixes");
    older.erase("instruction_mixes_missing");
    ASSERT_TRUE(hello_from_json(older, back, error)) << error;
    EXPECT_FALSE(back.mixes.has_value());
    EXPECT_FALSE(to_json(back).contains("instruction_mixes"));
    EXPECT_FALSE(to_json(back).contains("instruction_mixes_missing"));
}

TEST(WorkerResults, AHelloWithABadMixIsRefusedNamingIt) {
    HelloResult hello;
    hello.protocol = 2;
    hello.tclens_version = "0.1.0";
    hello.pid = 4242;
    hello.mixes = WorkerMixes{{{"wmma.f16", 90, {}}}, ""};
    nlohmann::json json = to_json(hello);
    json["instruction_mixes"][0]["counts"].erase("hmma");
    HelloResult back;
    std::string error;
    EXPECT_FALSE(hello_from_json(json, back, error));
    EXPECT_NE(error.find("instruction_mixes"), std::string::npos) << error;
    EXPECT_NE(error.find("hmma"), std::string::npos) << error;
    json["instruction_mixes"] = "wmma.f16";
    EXPECT_FALSE(hello_from_json(json, back, error));
    EXPECT_NE(error.find("field 'instruction_mixes' must be an array"), std::string::npos) << error;
}

TEST(WorkerResults, LoadRoundTripsAndReadsTheDescriptorsId) {
    LoadResult load;
    load.descriptor = {{"id", "yours.matmul"},
                       {"precision", "bf16"},
                       {"reference_id", "cublas.bf16"},
                       {"title", "yours: launch (host launcher)"}};
    load.form = "host launcher";
    load.path = "examples/matmul.cu";
    load.function = "launch";
    load.compile_ms = 9000;
    load.load_ms = 40;
    load.loaded = true;
    load.can_run = {{{64, 64, 64}, "", "grid (1,1,1) x block (32,1,1)"},
                    {{7, 7, 7}, "M must be a multiple of 16", ""}};
    load.warnings = {"matmul.cu:3: warning: unused variable"};
    LoadResult back;
    std::string error;
    ASSERT_TRUE(load_from_json(to_json(load), back, error)) << error;
    EXPECT_EQ(back.id, "yours.matmul");
    EXPECT_EQ(back.precision, kernels::Precision::kBF16);
    EXPECT_EQ(back.reference_id, "cublas.bf16");
    EXPECT_EQ(back.descriptor, load.descriptor);
    EXPECT_EQ(back.form, load.form);
    EXPECT_DOUBLE_EQ(back.compile_ms, 9000);
    EXPECT_TRUE(back.loaded);
    ASSERT_EQ(back.can_run.size(), 2u);
    EXPECT_EQ(back.can_run[1].problem.m, 7);
    EXPECT_EQ(back.can_run[1].reason, "M must be a multiple of 16");
    EXPECT_EQ(back.can_run[0].plan, "grid (1,1,1) x block (32,1,1)");
    EXPECT_EQ(back.warnings, load.warnings);
}

TEST(WorkerResults, LoadCarriesTheCubinsInstructionMixOrWhyNot) {
    LoadResult load;
    load.descriptor = {
        {"id", "yours.matmul"}, {"precision", "bf16"}, {"reference_id", "cublas.bf16"}};
    load.form = "directive kernel";
    load.path = "examples/directive_gemm.cu";
    load.function = "gemm";
    load.loaded = true;
    kernels::InstructionMix mix;
    mix.arch = "sm_90a";
    mix.functions = 1;
    mix.counts[std::size_t(kernels::OpClass::kHmma)] = 64;
    mix.counts[std::size_t(kernels::OpClass::kTotal)] = 900;
    load.instruction_mix = profiling::RecordedInstructionMix{"yours.matmul", 90, mix};
    LoadResult back;
    std::string error;
    ASSERT_TRUE(load_from_json(to_json(load), back, error)) << error;
    ASSERT_TRUE(back.instruction_mix);
    EXPECT_EQ(back.instruction_mix->kernel_id, "yours.matmul");
    EXPECT_EQ(back.instruction_mix->sm, 90);
    EXPECT_EQ(back.instruction_mix->mix.arch, "sm_90a");
    EXPECT_EQ(back.instruction_mix->mix[kernels::OpClass::kHmma], 64);
    EXPECT_EQ(back.instruction_mix->mix[kernels::OpClass::kTotal], 900);
    EXPECT_EQ(back.instruction_mix_missing, "");

    load.instruction_mix.reset();
    load.instruction_mix_missing = "no cuobjdump or nvdisasm (looked in /x)";
    ASSERT_TRUE(load_from_json(to_json(load), back, error)) << error;
    EXPECT_FALSE(back.instruction_mix);
    EXPECT_EQ(back.instruction_mix_missing, load.instruction_mix_missing);

    // A worker of an earlier tclens sends neither key.
    nlohmann::json older = to_json(load);
    older.erase("instruction_mix");
    older.erase("instruction_mix_missing");
    ASSERT_TRUE(load_from_json(older, back, error)) << error;
    EXPECT_FALSE(back.instruction_mix);
    EXPECT_EQ(back.instruction_mix_missing, "the worker sent no instruction mix");

    nlohmann::json bad = to_json(load);
    bad["instruction_mix"] = {{"kernel_id", "yours.matmul"}, {"sm", 90}};
    EXPECT_FALSE(load_from_json(bad, back, error));
    EXPECT_EQ(error.rfind("load result: field 'instruction_mix': ", 0), 0u) << error;
}

TEST(WorkerResults, BenchRoundTripsTimesGuardZonesAndTheErrorMap) {
    BenchResult bench;
    bench.report.rows = {row("yours.bad", kernels::Precision::kF16, false),
                         row("cublas.f16", kernels::Precision::kF16, true)};
    bench.report.rows[0].result.check.out_of_bounds = "wrote outside C: 4 bytes after its end";
    bench.report.rows[0].result.check.error_map = small_map();
    bench.report.rows[0].reference_id = "cublas.f16";
    bench.report.peak_error = "not measured";
    for (const kernels::BenchRow& r : bench.report.rows) {
        bench.times.push_back(
            {r.result.kernel_id, r.result.problem, r.result.verify_ms, r.result.time_ms});
    }
    BenchResult back;
    std::string error;
    ASSERT_TRUE(bench_from_json(to_json(bench), back, error)) << error;
    ASSERT_EQ(back.report.rows.size(), 2u);
    ASSERT_EQ(back.times.size(), 2u);
    EXPECT_DOUBLE_EQ(back.times[0].verify_ms, 12.5);
    EXPECT_DOUBLE_EQ(back.times[1].time_ms, 8.25);
    const kernels::Verification& check = back.report.rows[0].result.check;
    EXPECT_EQ(check.out_of_bounds, "wrote outside C: 4 bytes after its end");
    ASSERT_TRUE(check.error_map.has_value());
    EXPECT_EQ(check.error_map->wrong, 4);
    EXPECT_EQ(check.error_map->cell(0, 3).nan, 1);
    ASSERT_TRUE(check.error_map->first_wrong.has_value());
    EXPECT_TRUE(std::isnan(check.error_map->first_wrong->got));
    EXPECT_FALSE(back.report.rows[1].result.check.error_map.has_value());
    EXPECT_DOUBLE_EQ(back.report.rows[1].result.tflops, 0.0168);
    EXPECT_EQ(back.report.rows[0].reference_id, "cublas.f16");
    EXPECT_EQ(back.report.peak_error, "not measured");
}

// A refused row's line crosses the pipe (the worker's runner caught a gamed timing); a row of
// an earlier worker, without the key, reads as not refused.
TEST(WorkerResults, ARefusedRowKeepsItsLineAndAnEarlierRowReadsAsNotRefused) {
    BenchResult bench;
    bench.report.rows = {row("yours.gamed", kernels::Precision::kF32, true)};
    bench.report.rows[0].result.refuse("the launcher returned before its work ran");
    bench.times.push_back({"yours.gamed", bench.report.rows[0].result.problem, 1, 1});
    nlohmann::json json = to_json(bench);
    BenchResult back;
    std::string error;
    ASSERT_TRUE(bench_from_json(json, back, error)) << error;
    EXPECT_EQ(back.report.rows[0].result.refused, "the launcher returned before its work ran");
    EXPECT_FALSE(back.report.rows[0].result.counts());
    json["report"]["results"][0].erase("refused");
    ASSERT_TRUE(bench_from_json(json, back, error)) << error;
    EXPECT_EQ(back.report.rows[0].result.refused, "");
}

TEST(WorkerResults, ABenchResultWhoseRunsDoNotMatchItsRowsIsRefused) {
    BenchResult bench;
    bench.report.rows = {row("a", kernels::Precision::kF32, true)};
    bench.times = {{"a", {256, 128, 64}, 1, 1}};
    nlohmann::json json = to_json(bench);
    json["runs"].push_back(json["runs"][0]);
    BenchResult back;
    std::string error;
    EXPECT_FALSE(bench_from_json(json, back, error));
    EXPECT_NE(error.find("2 entries for 1 report rows"), std::string::npos) << error;

    json = to_json(bench);
    json["runs"][0]["kernel"] = "b";
    EXPECT_FALSE(bench_from_json(json, back, error));
    EXPECT_NE(error.find("its row a"), std::string::npos) << error;

    json = to_json(bench);
    json["runs"][0]["error_map"] = {{"rows", 1}};
    EXPECT_FALSE(bench_from_json(json, back, error));
    EXPECT_NE(error.find("'error_map'"), std::string::npos) << error;

    json = to_json(bench);
    json["extra"] = 1;
    EXPECT_FALSE(bench_from_json(json, back, error));
    EXPECT_NE(error.find("unknown field \"extra\""), std::string::npos) << error;
}

TEST(WorkerResults, ProfileResultHoldsExactlyOneOfProfileAndTimeline) {
    ProfileResult result;
    result.profile.emplace();
    result.profile->kernel_id = "yours.x";
    result.profile->metrics = {{"gpu__time_duration.sum", "Duration", "ns", 1234}};
    ProfileResult back;
    std::string error;
    ASSERT_TRUE(profile_from_json(to_json(result), back, error)) << error;
    ASSERT_TRUE(back.profile.has_value());
    EXPECT_FALSE(back.timeline.has_value());
    EXPECT_EQ(back.profile->kernel_id, "yours.x");
    EXPECT_DOUBLE_EQ(back.profile->metrics.at(0).value, 1234);

    ProfileResult timeline;
    timeline.timeline.emplace();
    timeline.timeline->kernel_id = "yours.x";
    timeline.timeline->samples = {{0, 100, 200, {1.0, 2.0}}};
    timeline.timeline->metrics = {"a", "b"};
    ASSERT_TRUE(profile_from_json(to_json(timeline), back, error)) << error;
    EXPECT_FALSE(back.profile.has_value());
    ASSERT_TRUE(back.timeline.has_value());
    EXPECT_EQ(back.timeline->samples.size(), 1u);

    EXPECT_FALSE(profile_from_json(nlohmann::json::object(), back, error));
    EXPECT_NE(error.find("exactly one of 'profile' and 'timeline'"), std::string::npos) << error;
}

TEST(WorkerResults, TraceRoundTripsTheWarpTraceAndItsTimes) {
    TraceResult result;
    viz::WarpTrace& trace = result.trace;
    trace.kernel = "yours.traced_wmma";
    trace.m = 128;
    trace.n = 128;
    trace.k = 64;
    trace.blocks_launched = 4;
    trace.blocks_traced = 2;
    trace.warps_per_block = 4;
    trace.wgmma_per_phase = 1;
    trace.kernel_ms = 0.012;
    trace.untraced_ms = 0.010;
    trace.phases = {{0, 0, 5, viz::TracePhase::kLoadIssue, 0, 0, 100, 180},
                    {0, 0, 5, viz::TracePhase::kMmaSync, 0, 150, 400, 450},
                    {1, 3, 7, viz::TracePhase::kStore, -1, 20, 90, 120}};
    const nlohmann::json json = to_json(result);
    ASSERT_TRUE(json.contains("trace"));
    EXPECT_EQ(json.size(), 1u);
    TraceResult back;
    std::string error;
    ASSERT_TRUE(trace_from_json(json, back, error)) << error;
    EXPECT_EQ(back.trace.kernel, "yours.traced_wmma");
    EXPECT_EQ(back.trace.blocks_traced, 2);
    EXPECT_EQ(back.trace.warps_per_block, 4);
    EXPECT_DOUBLE_EQ(back.trace.kernel_ms, 0.012);
    EXPECT_DOUBLE_EQ(back.trace.untraced_ms, 0.010);
    ASSERT_EQ(back.trace.phases.size(), 3u);
    EXPECT_EQ(back.trace.phases[1].phase, viz::TracePhase::kMmaSync);
    EXPECT_EQ(back.trace.phases[2].k_tile, -1);
}

TEST(WorkerResults, ATraceResultThatDoesNotFitIsOneLine) {
    TraceResult back;
    std::string error;
    EXPECT_FALSE(trace_from_json(nlohmann::json::object(), back, error));
    EXPECT_NE(error.find("trace result"), std::string::npos) << error;
    EXPECT_NE(error.find("'trace'"), std::string::npos) << error;
    TraceResult result;
    result.trace.kernel = "k";
    result.trace.m = result.trace.n = result.trace.k = 64;
    result.trace.blocks_launched = result.trace.blocks_traced = result.trace.warps_per_block = 1;
    ASSERT_TRUE(trace_from_json(to_json(result), back, error)) << error;
    nlohmann::json extra = to_json(result);
    extra["overhead"] = 1;
    EXPECT_FALSE(trace_from_json(extra, back, error));
    EXPECT_NE(error.find("\"overhead\""), std::string::npos) << error;
    nlohmann::json bad = to_json(result);
    bad["trace"]["warps_per_block"] = "many";
    EXPECT_FALSE(trace_from_json(bad, back, error));
    EXPECT_NE(error.find("field 'trace': "), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(WorkerResults, ExerciseRoundTripsEveryElement) {
    ExerciseResult result;
    result.summary = "1 of 64 A elements wrong";
    result.report.layout_id = "mma.m16n8k8.tf32";
    result.report.function = "mma_16x8x8_kernel";
    result.report.wrong = 1;
    kernels::user::ExerciseOperand a;
    a.operand = viz::Operand::A;
    a.rows = 16;
    a.cols = 8;
    a.wrong = 1;
    a.elements = {{0, 1, 4, 0, 0, false, 0, 2, "went to (0, 2)"},
                  {0, 2, 8, 0, 0, true, -1, -1, ""}};
    result.report.operands = {a};
    ExerciseResult back;
    std::string error;
    ASSERT_TRUE(exercise_from_json(to_json(result), back, error)) << error;
    EXPECT_EQ(back.summary, result.summary);
    EXPECT_EQ(back.report.layout_id, "mma.m16n8k8.tf32");
    ASSERT_EQ(back.report.operands.size(), 1u);
    EXPECT_EQ(back.report.operands[0].operand, viz::Operand::A);
    ASSERT_EQ(back.report.operands[0].elements.size(), 2u);
    const kernels::user::ExerciseElement& wrong = back.report.operands[0].elements[0];
    EXPECT_FALSE(wrong.correct);
    EXPECT_EQ(wrong.went_col, 2);
    EXPECT_EQ(wrong.lane, 4);
    EXPECT_EQ(wrong.outcome, "went to (0, 2)");

    nlohmann::json json = to_json(result);
    json["operands"][0]["operand"] = "Q";  // E is the sparse metadata: valid
    EXPECT_FALSE(exercise_from_json(json, back, error));
    EXPECT_NE(error.find("A, B, C, D or E, got Q"), std::string::npos) << error;
}

// A source profile of a kernel of yours: an HMMA at line 68 of the user's file, sampled and
// counted, and the file's text as compiled.
profiling::SourceProfile user_source_profile() {
    profiling::SourceProfile profile;
    profile.kernel_id = "yours.matmul_tensor";
    profile.precision = kernels::Precision::kTF32;
    profile.problem = {2048, 2048, 2048};
    profile.device = "NVIDIA H200";
    profile.chip = "GH100";
    profile.check.passed = true;
    profile.check.reference = "cublas.tf32";
    profile.sass_how = "nvdisasm -c -gi tclens_shim.cubin";
    profile.period_log2 = 12;
    profile.functions = {"_ZN13matmul_tensor20matmul_tensor_kernelEiiiPKfS1_Pf"};
    profiling::InstructionProfile hmma;
    hmma.function = profile.functions.front();
    hmma.pc = 0x4a0;
    hmma.sass = "HMMA.1684.F32.TF32 R24, R4, R20, R24";
    hmma.opcode = "HMMA.1684.F32.TF32";
    hmma.frames = {{"/home/me/examples/matmul_tensor.cu", 68}};
    hmma.samples = 40;
    hmma.stalls = {{"math_pipe_throttle", 30}, {"wait", 10}};
    hmma.counted = true;
    hmma.executed = 65536;
    profile.instructions = {hmma};
    profiling::SourceFile file;
    file.path = "/home/me/examples/matmul_tensor.cu";
    file.text = std::string(67, '\n') + "        asm volatile(\"mma.sync ...\");\n";
    profile.files = {file};
    profiling::aggregate_source_profile(profile);
    return profile;
}

TEST(WorkerResults, SourceRoundTripsTheLinesOfTheUsersFile) {
    SourceResult result;
    result.profile = user_source_profile();
    SourceResult back;
    std::string error;
    ASSERT_TRUE(source_from_json(to_json(result), back, error)) << error;
    const profiling::SourceProfile& profile = back.profile;
    EXPECT_TRUE(profile.ok());
    EXPECT_EQ(profile.kernel_id, "yours.matmul_tensor");
    EXPECT_EQ(profile.total_samples(), 40u);
    ASSERT_EQ(profile.instructions.size(), 1u);
    EXPECT_EQ(profile.instructions[0].opcode, "HMMA.1684.F32.TF32");
    ASSERT_EQ(profile.instructions[0].frames.size(), 1u);
    EXPECT_EQ(profile.instructions[0].frames[0].line, 68);
    ASSERT_EQ(profile.files.size(), 1u);
    EXPECT_EQ(profile.files[0].path, "/home/me/examples/matmul_tensor.cu");
    EXPECT_EQ(profiling::line_of(profile.files[0].text, 68),
              "        asm volatile(\"mma.sync ...\");");
    ASSERT_EQ(profile.files[0].lines.size(), 1u);  // recomputed from the instructions
    EXPECT_EQ(profile.files[0].lines[0].line, 68);
    EXPECT_EQ(profile.files[0].lines[0].samples, 40u);
}

TEST(WorkerResults, ASourceResultThatIsNotAProfileIsRefusedInOneLine) {
    SourceResult back;
    std::string error;
    EXPECT_FALSE(source_from_json(nlohmann::json::object(), back, error));
    EXPECT_NE(error.find("source result"), std::string::npos) << error;
    EXPECT_NE(error.find("'source'"), std::string::npos) << error;

    nlohmann::json extra = to_json(SourceResult{user_source_profile()});
    extra["profile"] = nlohmann::json::object();
    EXPECT_FALSE(source_from_json(extra, back, error));
    EXPECT_NE(error.find("unknown field \"profile\""), std::string::npos) << error;

    nlohmann::json no_files = to_json(SourceResult{user_source_profile()});
    no_files["source"].erase("files");
    EXPECT_FALSE(source_from_json(no_files, back, error));
    EXPECT_NE(error.find("field 'source': "), std::string::npos) << error;
    EXPECT_NE(error.find("files"), std::string::npos) << error;

    SourceResult failed{user_source_profile()};
    failed.profile.error = profiling::profiler_error(profiling::ProfilerProblem::kFailed,
                                                     "yours.matmul_tensor failed verification");
    EXPECT_FALSE(source_from_json(to_json(failed), back, error));
    EXPECT_NE(error.find("failed profile (yours.matmul_tensor failed verification)"),
              std::string::npos)
        << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(WorkerResults, BankMeasureRoundTripsEveryNumber) {
    BankMeasureResult result;
    result.device = "NVIDIA H200";
    profiling::BankMeasurement& m = result.measurement;
    m.wavefronts_per_request = 4.0000001;
    m.iterations = 256;
    m.requests = 1;
    m.wavefront_metric = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
    m.instruction_metric = "";  // CUPTI rejected it on this chip
    m.baseline_wavefronts = 12;
    m.run_wavefronts = 1036.5;
    m.instructions_per_iteration = -1;
    m.passes = 2;
    BankMeasureResult back;
    std::string error;
    ASSERT_TRUE(bank_measure_from_json(to_json(result), back, error)) << error;
    EXPECT_EQ(back.device, "NVIDIA H200");
    EXPECT_TRUE(back.measurement.error.ok());
    EXPECT_EQ(back.measurement.wavefronts_per_request, m.wavefronts_per_request);
    EXPECT_EQ(back.measurement.iterations, 256);
    EXPECT_EQ(back.measurement.requests, 1);
    EXPECT_EQ(back.measurement.wavefront_metric, m.wavefront_metric);
    EXPECT_EQ(back.measurement.instruction_metric, "");
    EXPECT_EQ(back.measurement.baseline_wavefronts, 12);
    EXPECT_EQ(back.measurement.run_wavefronts, 1036.5);
    EXPECT_EQ(back.measurement.instructions_per_iteration, -1);
    EXPECT_EQ(back.measurement.passes, 2u);
}

TEST(WorkerResults, ABankMeasureResultThatDoesNotFitIsOneLine) {
    BankMeasureResult result;
    result.device = "gpu";
    result.measurement.iterations = 1;
    nlohmann::json bad = to_json(result);
    bad["iterations"] = 0;
    BankMeasureResult back;
    std::string error;
    EXPECT_FALSE(bank_measure_from_json(bad, back, error));
    EXPECT_NE(error.find("bank_measure result"), std::string::npos) << error;
    EXPECT_NE(error.find("'iterations'"), std::string::npos) << error;
    nlohmann::json extra = to_json(result);
    extra["measured"] = 1;
    EXPECT_FALSE(bank_measure_from_json(extra, back, error));
    EXPECT_NE(error.find("measured"), std::string::npos) << error;
    nlohmann::json missing = to_json(result);
    missing.erase("run_wavefronts");
    EXPECT_FALSE(bank_measure_from_json(missing, back, error));
    EXPECT_NE(error.find("'run_wavefronts'"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(WorkerResults, LayoutVerifyRoundTripsTheComparison) {
    LayoutVerifyResult result;
    result.layout = "mma.m16n8k8.tf32";
    result.device = "NVIDIA H200";
    result.comparison.matched = 126;
    result.comparison.total = 128;
    result.comparison.mismatches = {"A lane 5 a2: model (1,5) measured (1,4)",
                                    "B byte 130: model (4,5) measured (3,5)"};
    result.comparison.wrong = {{viz::Operand::A, 21}};
    LayoutVerifyResult back;
    std::string error;
    ASSERT_TRUE(layout_verify_from_json(to_json(result), back, error)) << error;
    EXPECT_EQ(back.layout, result.layout);
    EXPECT_EQ(back.device, result.device);
    EXPECT_EQ(back.comparison.matched, 126);
    EXPECT_EQ(back.comparison.total, 128);
    EXPECT_EQ(back.comparison.mismatches, result.comparison.mismatches);
    ASSERT_EQ(back.comparison.wrong.size(), 1u);
    EXPECT_EQ(back.comparison.wrong[0].operand, viz::Operand::A);
    EXPECT_EQ(back.comparison.wrong[0].element, 21);
    // An earlier worker's result has no "wrong": read as no slot to mark.
    nlohmann::json earlier = to_json(result);
    earlier.erase("wrong");
    ASSERT_TRUE(layout_verify_from_json(earlier, back, error)) << error;
    EXPECT_TRUE(back.comparison.wrong.empty());
    nlohmann::json bad = to_json(result);
    bad["wrong"][0]["operand"] = "Q";
    EXPECT_FALSE(layout_verify_from_json(bad, back, error));
    EXPECT_NE(error.find("'operand'"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(WorkerResults, ClockSkewRoundTripsTheSummary) {
    ClockSkewResult result;
    result.device = "NVIDIA H200";
    result.summary = {101, 132, 132, 32, 64, 160, 120, 32};
    ClockSkewResult back;
    std::string error;
    ASSERT_TRUE(clock_skew_from_json(to_json(result), back, error)) << error;
    EXPECT_EQ(back.device, "NVIDIA H200");
    EXPECT_EQ(kernels::clock_skew_text(back.summary), kernels::clock_skew_text(result.summary));
    nlohmann::json bad = to_json(result);
    bad["median_spread_ns"] = -5;
    EXPECT_FALSE(clock_skew_from_json(bad, back, error));
    EXPECT_NE(error.find("clock_skew result"), std::string::npos) << error;
    EXPECT_NE(error.find("'median_spread_ns'"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    nlohmann::json extra = to_json(result);
    extra["spread"] = 1;
    EXPECT_FALSE(clock_skew_from_json(extra, back, error));
    EXPECT_NE(error.find("\"spread\""), std::string::npos) << error;
}

TEST(WorkerResults, ALayoutVerifyResultThatDoesNotFitIsOneLine) {
    LayoutVerifyResult result{"ldmatrix.x4", "gpu", {}};
    result.comparison.matched = result.comparison.total = 512;
    LayoutVerifyResult back;
    std::string error;
    ASSERT_TRUE(layout_verify_from_json(to_json(result), back, error)) << error;
    nlohmann::json bad = to_json(result);
    bad["matched"] = 513;
    EXPECT_FALSE(layout_verify_from_json(bad, back, error));
    EXPECT_NE(error.find("layout_verify result"), std::string::npos) << error;
    EXPECT_NE(error.find("'matched'"), std::string::npos) << error;
    EXPECT_NE(error.find("513"), std::string::npos) << error;
    bad = to_json(result);
    bad["mismatches"] = "none";
    EXPECT_FALSE(layout_verify_from_json(bad, back, error));
    EXPECT_NE(error.find("'mismatches'"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

}  // namespace
}  // namespace tclens::worker
