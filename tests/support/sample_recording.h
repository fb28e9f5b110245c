#pragma once
// A small recording built from structs, for tests that need one without a GPU: every field of
// every part set to something other than its default. The numbers are made up (the device is
// called "tclens test GPU"); real recordings come from `tclens record` (assets/recordings/).
// Header-only: include it from tests that link tclens_profiling.

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "profiling/metric_catalogue.h"
#include "profiling/recording.h"
#include "profiling/source/source_join.h"

namespace tclens::test {

inline kernels::BenchRow sample_bench_row(const std::string& kernel, int rung,
                                          kernels::Precision precision,
                                          const std::string& reference_id, double tflops) {
    kernels::BenchRow row;
    kernels::RunResult& r = row.result;
    r.kernel_id = kernel;
    r.precision = precision;
    r.problem = {4096, 4096, 4096};
    r.check.passed = true;
    r.check.rel_rms_error = 2.5e-6;
    r.check.bound = 1e-2;
    r.check.reference = "cublas.sgemm";
    r.check.reference_rel_rms = 1.25e-7;
    r.input_sets = 4;
    r.timed_runs = 30;
    r.median_ms = 2.0 * 4096.0 * 4096.0 * 4096.0 / (tflops * 1e9);
    r.min_ms = r.median_ms * 0.99;
    r.max_ms = r.median_ms * 1.02;
    r.tflops = tflops;
    row.rung = rung;
    row.reference_id = reference_id;
    row.pct_of_reference = reference_id.empty() ? 0 : 100.0 * tflops / 740.0;
    row.pct_of_peak = 100.0 * tflops / 900.0;
    return row;
}

// A source profile of a made-up mma_cp_async.f16 run, joined (join_source_profile) from made-up
// collector results: a K loop of copies, ldmatrix (the B one conflicted), mma and a barrier, with
// line info into a four-line-per-step source file whose text comes along.
inline profiling::SourceProfile sample_source_profile() {
    using profiling::SassInstruction;
    const std::string function = "_ZN6tclens7kernels17mma_cp_async_gemmI6__halfEEvPKT_S5_Pfiii";
    const std::string file = "/src/kernels/08_mma_cp_async.cu";
    const std::string ptx = "/src/kernels/ptx.cuh";
    const std::string stall = "smsp__pcsamp_warps_issue_stalled_";
    const std::string w = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared";
    const std::string c = "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared";
    const auto sass = [](std::uint64_t pc, const std::string& text,
                         std::vector<profiling::SourceLocation> frames) {
        SassInstruction i;
        i.pc = pc;
        i.text = text;
        i.opcode = text.substr(0, text.find(' '));
        i.frames = std::move(frames);
        return i;
    };
    profiling::SassFunction listed;
    listed.name = function;
    listed.instructions = {
        sass(0x00, "LDC R1, c[0x0][0x28]", {{file, 2}}),
        sass(0x10, "S2R R0, SR_TID.X", {{file, 3}}),
        sass(0x20, "LDGSTS.E.BYPASS.128 [R7], desc[UR4][R2.64]", {{ptx, 2}, {file, 5}}),
        sass(0x30, "LDGSTS.E.BYPASS.128 [R9+0x4000], desc[UR4][R4.64]", {{ptx, 2}, {file, 6}}),
        sass(0x40, "DEPBAR.LE SB0, 0x2", {{file, 7}}),
        sass(0x50, "BAR.SYNC.DEFER_BLOCKING 0x0", {{file, 8}}),
        sass(0x60, "LDSM.16.M88.4 R12, [R20+UR4]", {{ptx, 4}, {file, 10}}),
        sass(0x70, "LDSM.16.MT88.4 R24, [R22+UR5]", {{ptx, 6}, {file, 11}}),
        sass(0x80, "HMMA.16816.F32 R28, R12, R24, R28", {{file, 12}}),
        sass(0x90, "HMMA.16816.F32 R32, R12, R26, R32", {{file, 12}}),
        sass(0xa0, "@P0 BRA 0x20", {{file, 13}}),
        sass(0xb0, "STG.E desc[UR4][R2.64], R28", {{file, 15}}),
        sass(0xc0, "EXIT", {{file, 16}}),
    };
    profiling::PcSamplingResult sampling;
    sampling.reasons = {
        stall + "long_scoreboard",           stall + "barrier", stall + "short_scoreboard",
        stall + "math_pipe_throttle",        stall + "wait",    stall + "selected",
        stall + "long_scoreboard_not_issued"};
    sampling.records = {
        {function, 0x20, {40, 0, 0, 0, 2, 3, 30}},   {function, 0x40, {310, 0, 0, 0, 0, 5, 300}},
        {function, 0x50, {0, 260, 0, 0, 0, 4, 0}},   {function, 0x60, {0, 0, 60, 0, 10, 8, 0}},
        {function, 0x70, {0, 0, 140, 0, 6, 8, 0}},   {function, 0x80, {0, 0, 90, 120, 40, 30, 0}},
        {function, 0x90, {0, 0, 0, 150, 60, 30, 0}}, {function, 0xb0, {25, 0, 0, 0, 0, 2, 20}}};
    profiling::SassMetricsResult counters;
    counters.metrics = {"smsp__sass_inst_executed", w, c, "smsp__sass_sectors_mem_global"};
    const std::uint64_t loop = 64 * 1024;  // K steps x warps
    counters.records = {{function, 0x00, {1024, 0, 0, 0}},
                        {function, 0x10, {1024, 0, 0, 0}},
                        {function, 0x20, {loop, 4 * loop, 0, 4 * loop}},
                        {function, 0x30, {loop, 4 * loop, 0, 4 * loop}},
                        {function, 0x40, {loop, 0, 0, 0}},
                        {function, 0x50, {loop, 0, 0, 0}},
                        {function, 0x60, {loop, 4 * loop, 0, 0}},
                        {function, 0x70, {loop, 8 * loop, 4 * loop, 0}},
                        {function, 0x80, {loop, 0, 0, 0}},
                        {function, 0x90, {loop, 0, 0, 0}},
                        {function, 0xa0, {loop, 0, 0, 0}},
                        {function, 0xb0, {1024, 0, 0, 4096}},
                        {function, 0xc0, {1024, 0, 0, 0}}};
    std::map<std::string, double> totals = {
        {"smsp__inst_executed.sum", 9.0 * loop + 4 * 1024},
        {"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", 20.0 * loop},
        {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 12.0 * loop},
        {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 0},
        {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", 4.0 * loop},
        {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 4.0 * loop},
        {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 0}};
    const std::string text =
        "// rung 8 (made up for tests)\n"
        "__global__ void mma_cp_async_gemm(const half* a, const half* b, float* c) {\n"
        "    const int tid = threadIdx.x;\n"
        "    for (int kt = 0; kt < k_tiles; ++kt) {\n"
        "        ptx::cp_async_16(stage + a_dst_, a_src);\n"
        "        ptx::cp_async_16(stage + b_dst_, b_src);\n"
        "        ptx::cp_async_wait<2>();\n"
        "        __syncthreads();\n"
        "        // fragments of the next k16 step\n"
        "        ptx::ldmatrix_x4(f.a[0], stage + a_row);\n"
        "        ptx::ldmatrix_x4_trans(f.b[0], stage + b_row);\n"
        "        mma_m16n8k16(acc[0][0], f.a[0], f.b[0]);\n"
        "    }\n"
        "    // epilogue\n"
        "    c[tid] = acc[0][0][0];\n"
        "}\n";
    profiling::SourceInputs inputs;
    inputs.kernel_id = "mma_cp_async.f16";
    inputs.sampling = &sampling;
    inputs.counters = &counters;
    inputs.chosen = profiling::choose_source_counters(counters.metrics);
    inputs.listing = {listed};
    inputs.range_totals = &totals;
    inputs.read_source = [file, text](const std::string& path, std::string& out) {
        if (path != file) return false;
        out = text;
        return true;
    };
    profiling::SourceProfile profile;
    profile.kernel_id = "mma_cp_async.f16";
    profile.precision = kernels::Precision::kF16;
    profile.problem = {4096, 4096, 4096};
    profile.device = "tclens test GPU";
    profile.chip = "GH100";
    profile.check.passed = true;
    profile.check.rel_rms_error = 3.5e-4;
    profile.check.bound = 2e-3;
    profile.check.reference = "cublas.f16";
    profile.sass_how = "nvdisasm -c -gi tclens.8.sm_90a.cubin (made up)";
    profile.period_log2 = 11;
    profile.prepare_ms = 420;
    profile.sampling_ms = 180;
    profile.counters_ms = 240;
    profile.totals_ms = 130;
    profile.disassembly_ms = 350;
    profile.total_ms = 1320;
    profiling::join_source_profile(inputs, profile);
    return profile;
}

inline profiling::Recording sample_recording() {
    profiling::Recording r;
    r.tclens_version = "0.1.0";
    r.created_utc = "2026-11-22T10:00:00Z";
    r.command = "tclens record sample.json --kernels wmma.f16,wgmma_tma.f16,mma_tf32_puzzle";

    r.system.runtime_version = 13000;
    r.system.driver_cuda_version = 13000;
    r.system.driver_version = "580.159.04";
    r.system.no_gpu_reason = "";
    profiling::DeviceFacts d;
    d.index = 0;
    d.name = "tclens test GPU";
    d.pci_bus_id = "00000000:19:00.0";
    d.cc_major = 9;
    d.cc_minor = 0;
    d.sm_count = 132;
    d.sm_clock_khz = 1980000;
    d.mem_clock_khz = 2619000;
    d.mem_bus_width_bits = 5120;
    d.global_mem_bytes = 85'045'870'592ull;
    d.l2_bytes = 52'428'800;
    d.persisting_l2_max_bytes = 32'505'856;
    d.smem_per_block = 49152;
    d.smem_per_block_optin = 232448;
    d.smem_per_sm = 233472;
    d.reserved_smem_per_block = 1024;
    d.regs_per_block = 65536;
    d.regs_per_sm = 65536;
    d.warp_size = 32;
    d.max_threads_per_block = 1024;
    d.max_threads_per_sm = 2048;
    d.max_blocks_per_sm = 32;
    d.async_engines = 3;
    d.ecc_enabled = true;
    d.cluster_launch = true;
    r.system.devices.push_back(d);

    r.peaks = {{kernels::Precision::kF32, "fma.rn.f32", 60.5},
               {kernels::Precision::kTF32, "wgmma.m64n256k8.f32.tf32.tf32", 450.25},
               {kernels::Precision::kF16, "wgmma.m64n256k16.f32.f16.f16", 900.0},
               {kernels::Precision::kBF16, "wgmma.m64n256k16.f32.bf16.bf16", 905.5}};
    r.peak_error = "";
    r.dram_bandwidth = {3.01e12, "copy of 2 x 1.6 GB buffers (read + write), median of 11"};

    r.bench.push_back(
        sample_bench_row("wmma.f16", 4, kernels::Precision::kF16, "cublas.f16", 292.0));
    kernels::BenchRow skipped =
        sample_bench_row("wgmma_tma.f16", 9, kernels::Precision::kF16, "cublas.f16", 1);
    skipped.result = {};
    skipped.result.kernel_id = "wgmma_tma.f16";
    skipped.result.precision = kernels::Precision::kF16;
    skipped.result.problem = {4096, 4096, 4096};
    skipped.result.skipped = "needs sm_90a (this GPU is sm_80)";
    skipped.result.check.bound = 1e-2;
    skipped.pct_of_reference = 0;
    skipped.pct_of_peak = 0;
    r.bench.push_back(skipped);
    kernels::BenchRow broken =
        sample_bench_row("mma_tf32_puzzle", 5, kernels::Precision::kTF32, "cublas.tf32", 1);
    broken.result.check.passed = false;
    broken.result.check.rel_rms_error = 0.31;
    broken.result.check.nan_count = 12;
    broken.result.check.wrong_elements = 40;
    broken.result.timed_runs = 0;
    broken.result.median_ms = broken.result.min_ms = broken.result.max_ms = 0;
    broken.result.tflops = 0;
    broken.pct_of_reference = broken.pct_of_peak = 0;
    broken.speedup_vs_sgemm = 0;
    r.bench.push_back(broken);
    r.bench.push_back(sample_bench_row("cublas.f16", 0, kernels::Precision::kF16, "", 740.0));

    profiling::KernelProfile p;
    p.kernel_id = "wmma.f16";
    p.precision = kernels::Precision::kF16;
    p.problem = {4096, 4096, 4096};
    p.device = d.name;
    p.chip = "GH100";
    p.check.passed = true;
    p.check.rel_rms_error = 2.5e-6;
    p.check.bound = 1e-2;
    p.check.reference = "cublas.sgemm";
    p.passes = 3;
    p.l2_flushed = true;
    p.prepare_ms = 640.5;
    p.profile_ms = 95.25;
    double value = 10;
    for (const std::string& name : profiling::metric_set("default")) {
        const profiling::MetricInfo* info = profiling::find_metric(name);
        p.metrics.push_back({name, info->label, info->unit, info->is_percent() ? 47.5 : value});
        value *= 3;
    }
    p.unavailable = {{"sm__inst_executed_pipe_tensor_op_gmma.sum", "not on this chip"}};
    profiling::KernelLaunch launch;
    launch.name = "wmma_gemm<__half>";
    launch.grid[0] = 32;
    launch.grid[1] = 32;
    launch.grid[2] = 1;
    launch.block[0] = 256;
    launch.block[1] = 1;
    launch.block[2] = 1;
    launch.registers_per_thread = 128;
    launch.static_shared_bytes = 32768;
    launch.dynamic_shared_bytes = 0;
    launch.local_bytes_per_thread = 0;
    launch.shared_carveout_bytes = 233472;
    launch.duration_ns = 470000;
    p.launches = {launch};
    p.occupancy.blocks_per_sm = 2;
    p.occupancy.limiter = "registers";
    p.occupancy.limit_registers = 2;
    p.occupancy.limit_shared_mem = 7;
    p.occupancy.limit_warps = 8;
    p.occupancy.limit_blocks = 32;
    p.occupancy.theoretical_pct = 25;
    p.launch_error = "";
    r.profiles.push_back(p);

    profiling::KernelTimeline t;
    t.kernel_id = "wmma.f16";
    t.precision = kernels::Precision::kF16;
    t.problem = {4096, 4096, 4096};
    t.device = d.name;
    t.chip = "GH100";
    t.check = p.check;
    t.metrics = profiling::metric_set("timeline");
    t.trigger = profiling::PmTrigger::kGpuTime;
    t.interval_ns = 1'000'000;
    t.measured_interval_ns = 1'000'250;
    t.lost = 1;
    t.dropped = 0;
    t.launches = 640;
    t.kernel_ms_alone = 0.47;
    t.kernel_ms_sampled = 0.4712;
    t.prepare_ms = 702;
    t.run_ms = 301.5;
    for (std::uint64_t i = 0; i < 300; ++i) {
        profiling::PmSample s;
        s.sequence = i;
        s.start_ns = 9'000'000'000ull + i * 1'000'000;
        s.end_ns = s.start_ns + 1'000'000;
        const double wave = std::sin(double(i) / 15.0);
        s.values.assign(t.metrics.size(), 0.0);
        for (std::size_t m = 0; m < s.values.size(); ++m) {
            s.values[m] = 40.0 + 10.0 * double(m) + 20.0 * wave;
        }
        t.samples.push_back(s);
    }
    r.timelines.push_back(t);

    // A made-up instruction mix of wmma.f16 (not read from any binary).
    profiling::RecordedInstructionMix mix;
    mix.kernel_id = "wmma.f16";
    mix.sm = 90;
    mix.mix.arch = "sm_90a";
    mix.mix.functions = 1;
    mix.mix.counts = {16, 0, 0, 2, 1, 24, 0, 32, 0, 4, 410};
    r.instruction_mixes.push_back(mix);
    // A made-up warp trace of rung 10: a producer warp loads while a consumer warp multiplies.
    viz::WarpTrace trace;
    trace.kernel = "wgmma_ws.bf16";
    trace.m = trace.n = trace.k = 4096;
    trace.blocks_launched = 512;
    trace.blocks_traced = 1;
    trace.warps_per_block = 12;
    trace.wgmma_per_phase = 4;
    trace.kernel_ms = 0.21;
    trace.untraced_ms = 0.2;
    trace.phases = {{0, 0, 5, viz::TracePhase::kLoadIssue, 0, 0, 64, 120},
                    {0, 4, 5, viz::TracePhase::kFullWait, 0, 0, 400, 700},
                    {0, 4, 5, viz::TracePhase::kWgmma, 0, 400, 700, 560}};
    r.traces.push_back(trace);
    r.sources.push_back(sample_source_profile());
    return r;
}

}  // namespace tclens::test
