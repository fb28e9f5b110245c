// `tclens source --kernel K [--mnk MxNxK] [--json] [--top N] [--seed S]`: which instruction and
// which CUDA line the warps wait on. Verifies the kernel first (like `tclens profile`), then takes
// a source profile (profiling/source/source_collector.h): PC sampling (stall reasons per
// instruction), SASS metrics (executions, shared wavefronts and bank conflicts per instruction),
// the Range Profiler's totals they must add up to, and the kernel's SASS with line info. Prints
// the kernel's top stall reasons with what each means for a GEMM, the hottest instructions and
// lines, the conflicting shared-memory instructions with the bank-lab access that models them,
// and the totals check; --json prints everything (profiling/source/source_profile_json.h).
// Every source profile is taken in a worker (app/worker/, the one path to the GPU): a registry id
// goes there as a `source` request; a kernel of yours, `--kernel path.cu[:NAME][:TYPE]`
// (docs/your-kernel.md), is loaded there first (compiled with line info, so its SASS maps to the
// lines of its own file). Ids and sizes the CLI can check are checked before a worker starts.
// Exit codes: 2 for an unknown kernel or size, 3 without a GPU, permission or free counters (with
// the fix) or a worker that cannot start, 1 when the kernel fails verification, CUPTI fails
// otherwise or the worker crashed, hung or faulted.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/profiler_args.h"
#include "app/cli/usage_error.h"
#include "app/cli/worker_calls.h"
#include "app/exit_codes.h"
#include "app/worker/gpu_calls.h"
#include "common/text.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "kernels/user/kernel_ref.h"
#include "profiling/metric_catalogue.h"
#include "profiling/source/source_profile_json.h"
#include "profiling/source/stall_reasons.h"

namespace tclens::cli {
namespace {

struct SourceOptions {
    std::string kernel;
    std::string size = "4096x4096x4096";
    bool json = false;
    int top = 10;
    std::uint64_t seed = 1;
    WorkerOptions worker;
};

std::string count(double value) { return profiling::format_metric_value(value, ""); }

std::string percent(std::uint64_t part, std::uint64_t whole) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%", whole > 0 ? 100.0 * part / whole : 0.0);
    return text;
}

std::string file_name(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

// "08_mma_cp_async.cu:218" for the instruction's line in the kernel's own file (its outermost
// frame), "" without line info.
std::string kernel_line(const profiling::InstructionProfile& instruction) {
    if (instruction.frames.empty()) return "";
    const profiling::SourceLocation& frame = instruction.frames.back();
    return file_name(frame.file) + ":" + std::to_string(frame.line);
}

std::string clip(const std::string& text, std::size_t width) {
    return text.size() <= width ? text : text.substr(0, width - 3) + "...";
}

void print_notes(const profiling::SourceProfile& profile) {
    const std::pair<const char*, const std::string*> notes[] = {
        {"SASS", &profile.sass_missing},
        {"source lines", &profile.line_info_missing},
        {"PC sampling", &profile.sampling_missing},
        {"per-instruction counts", &profile.counters_missing},
        {"Range Profiler totals", &profile.totals_missing}};
    for (const auto& [what, note] : notes) {
        if (!note->empty()) std::printf("%s: %s\n", what, note->c_str());
    }
}

void print_profile(const profiling::SourceProfile& profile, int top) {
    std::printf("%s %s (%s) on %s (%s)\n", profile.kernel_id.c_str(),
                kernels::problem_text(profile.problem).c_str(),
                kernels::precision_name(profile.precision), profile.device.c_str(),
                profile.chip.c_str());
    std::printf("verified: rel. RMS error %.1e vs %s (bound %.0e)\n", profile.check.rel_rms_error,
                profile.check.reference.c_str(), profile.check.bound);
    if (!profile.sass_how.empty()) {
        std::printf("SASS: %s; %s, %zu instructions, %s\n", profile.sass_how.c_str(),
                    common::count_text(static_cast<long long>(profile.functions.size()), "function")
                        .c_str(),
                    profile.instructions.size(),
                    profile.has_line_info() ? "with CUDA lines" : "without CUDA lines");
    }
    const std::uint64_t samples = profile.total_samples();
    std::printf("PC samples: %s (every 2^%d cycles, %s dropped by the hardware)\n",
                count(samples).c_str(), profile.period_log2,
                count(profile.dropped_samples).c_str());
    std::printf(
        "answered in %.0f ms: prepare %.0f, sampling %.0f, counts %.0f, totals %.0f, SASS %.0f\n",
        profile.total_ms, profile.prepare_ms, profile.sampling_ms, profile.counters_ms,
        profile.totals_ms, profile.disassembly_ms);
    print_notes(profile);

    std::printf("\nWhy the warps wait (share of PC samples):\n");
    int shown = 0;
    for (const profiling::StallShare& share : profile.stalls) {
        if (shown++ >= top) break;
        const profiling::StallReasonInfo info = profiling::stall_reason_or_unknown(share.key);
        std::printf("  %5.1f %%  %-20s %s\n", share.share_pct, info.label.c_str(),
                    info.meaning.c_str());
    }
    if (profile.stalls.empty()) std::printf("  no samples\n");

    std::printf("\nHottest instructions:\n");
    std::printf("  %9s %7s  %-20s %12s %10s %9s %7s  %-40s %s\n", "samples", "share", "top stall",
                "executed", "wavefronts", "conflicts", "pc", "SASS", "line");
    for (const std::size_t i : profiling::hottest_instructions(profile, top)) {
        const profiling::InstructionProfile& instruction = profile.instructions[i];
        std::printf(
            "  %9s %7s  %-20s %12s %10s %9s %#7llx  %-40s %s\n", count(instruction.samples).c_str(),
            percent(instruction.samples, samples).c_str(),
            instruction.stalls.empty() ? "-" : instruction.stalls.front().key.c_str(),
            instruction.counted ? count(instruction.executed).c_str() : "-",
            count(instruction.shared_wavefronts).c_str(),
            count(instruction.shared_conflicts).c_str(),
            static_cast<unsigned long long>(instruction.pc),
            clip(instruction.sass.empty() ? "(no SASS text)" : instruction.sass, 40).c_str(),
            kernel_line(instruction).c_str());
    }

    if (!profile.files.empty()) {
        const profiling::SourceFile& file = profile.files.front();
        std::printf("\nHottest lines of %s:\n", file_name(file.path).c_str());
        std::vector<const profiling::LineProfile*> lines;
        for (const profiling::LineProfile& line : file.lines) lines.push_back(&line);
        std::stable_sort(lines.begin(), lines.end(),
                         [](const auto* a, const auto* b) { return a->samples > b->samples; });
        if (lines.size() > static_cast<std::size_t>(top)) lines.resize(top);
        for (const profiling::LineProfile* line : lines) {
            std::printf("  %6d %9s %7s  %-20s %9s conflicts  %s\n", line->line,
                        count(line->samples).c_str(), percent(line->samples, samples).c_str(),
                        line->stalls.empty() ? "-" : line->stalls.front().key.c_str(),
                        count(line->shared_conflicts).c_str(),
                        clip(profiling::line_of(file.text, line->line), 70).c_str());
        }
    }

    bool conflicts = false;
    for (const profiling::InstructionProfile& instruction : profile.instructions) {
        if (instruction.shared_conflicts == 0) continue;
        if (!conflicts) {
            std::printf(
                "\nShared-memory bank conflicts (tclens banks --pattern KERNEL/ACCESS "
                "shows the modelled access):\n");
            conflicts = true;
        }
        std::printf(
            "  %#7llx  %-32s %s of %s wavefronts beyond the ideal %s  %s\n",
            static_cast<unsigned long long>(instruction.pc), clip(instruction.sass, 32).c_str(),
            count(instruction.shared_conflicts).c_str(),
            count(instruction.shared_wavefronts).c_str(), count(instruction.shared_ideal()).c_str(),
            !instruction.shared_access.empty() ? instruction.shared_access.c_str()
            : instruction.shared_access_candidates.empty()
                ? "(no modelled access)"
                : ("(one of " + std::to_string(instruction.shared_access_candidates.size()) +
                   " accesses)")
                      .c_str());
    }

    std::printf(
        "\nPer-instruction sums vs the Range Profiler's kernel totals (same kernel and "
        "inputs, launched again):\n");
    for (const profiling::TotalsCheck& check : profile.checks) {
        if (!check.available) {
            std::printf("  %-40s not compared: %s\n", check.what.c_str(), check.why_not.c_str());
            continue;
        }
        const double difference = check.instruction_sum - check.range_total;
        std::printf("  %-40s %16s vs %16s  %s\n", check.what.c_str(),
                    count(check.instruction_sum).c_str(), count(check.range_total).c_str(),
                    check.equal() ? "equal" : ("differ by " + count(difference)).c_str());
    }
}

// The id the worker knows the kernel by: a registry id as given, a kernel of yours loaded first
// (its load result's id). On failure prints one line and returns its exit code.
int worker_kernel_id(worker::WorkerClient& client, const SourceOptions& options,
                     const kernels::GemmProblem& problem, const ProgressLines& progress,
                     std::string& id) {
    if (!kernels::user::names_kernel_file(options.kernel)) {
        id = options.kernel;
        return kExitOk;
    }
    std::vector<worker::LoadResult> loaded;
    const int code = load_kernels(client, {options.kernel}, {problem}, false, progress, loaded);
    if (code != kExitOk) return code;
    const worker::LoadResult& kernel = loaded.front();
    if (!kernel.can_run.empty() && !kernel.can_run.front().reason.empty()) {
        progress.done();
        return usage_error(kernel.id + " cannot run " + kernels::problem_text(problem) + ": " +
                           kernel.can_run.front().reason);
    }
    id = kernel.id;
    return kExitOk;
}

int run_source(const SourceOptions& options) {
    if (options.kernel.empty()) return usage_error("give --kernel K (tclens kernels lists them)");
    const bool yours = kernels::user::names_kernel_file(options.kernel);
    const kernels::KernelDescriptor* kernel =
        yours ? nullptr : kernels::find_kernel(options.kernel);
    if (!yours && kernel == nullptr) return usage_error(unknown_kernel_message(options.kernel));
    if (const std::string bad = yours ? check_kernel_refs({options.kernel}) : ""; !bad.empty())
        return usage_error(bad);
    const auto problem = kernels::parse_problem(options.size);
    if (!problem) return usage_error(kernels::problem_error(options.size));
    const std::string cannot = yours ? "" : kernel->can_run(*problem);
    if (!cannot.empty()) {
        return usage_error(kernel->id + " cannot run " + kernels::problem_text(*problem) + ": " +
                           cannot);
    }
    worker::WorkerClient client(client_options(options.worker));
    const ProgressLines progress("source");
    std::string id;
    if (const int code = worker_kernel_id(client, options, *problem, progress, id); code != kExitOk)
        return code;
    worker::WorkerSourceRequest request;
    request.kernel = id;
    request.problem = *problem;
    request.seed = options.seed;
    worker::SourceResult result;
    const worker::Reply reply =
        worker::take_source_profile(client, request, result, terminal_only(progress));
    progress.done();
    if (!reply.ok()) return report_failure(reply);
    if (options.json) {
        nlohmann::json out = profiling::to_json(result.profile);
        out["seed"] = options.seed;
        std::printf("%s\n", out.dump(2).c_str());
    } else {
        print_profile(result.profile, options.top);
    }
    return kExitOk;
}

}  // namespace

void add_source_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "source",
        "Which SASS instruction and CUDA line a verified kernel's warps wait on: PC sampling, "
        "per-instruction counts, bank conflicts; taken in a worker (--worker), for a registry "
        "id or a kernel of yours; needs a GPU and profiling permission");
    auto options = std::make_shared<SourceOptions>();
    command->add_option("--kernel", options->kernel,
                        "Kernel id (see tclens kernels), or a kernel of yours, "
                        "path.cu[:NAME][:TYPE] (docs/your-kernel.md), built with line info");
    command->add_option("--mnk", options->size, "Problem size MxNxK")->capture_default_str();
    command->add_flag("--json", options->json, "Machine-readable output: every instruction");
    command->add_option("--top", options->top, "Stall reasons, instructions and lines shown")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    command->add_option("--seed", options->seed, "Seed of the random inputs");
    add_worker_options(*command, options->worker);
    command->callback([options, &exit_code] { exit_code = run_source(*options); });
}

}  // namespace tclens::cli
