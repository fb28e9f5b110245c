// `tclens kernels [--mnk MxNxK] [--json] [--kernel path.cu[:NAME][:TYPE] ...]`: the kernel
// registry, rung by rung, with each descriptor; with --mnk, whether each kernel can run that size
// and, if not, why. --json adds each kernel's SASS instruction mix for the first GPU's sm
// (sm_90a without a GPU), as the worker's build read it (worker/worker_mix.h). --kernel adds a row
// for each kernel of yours (docs/your-kernel.md), compiled (not run, so no GPU is needed) in a
// worker process: its id, input type, form and function and, with --mnk, whether its launch
// directive can launch that size.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "app/cli/commands.h"
#include "app/cli/worker_calls.h"
#include "app/exit_codes.h"
#include "app/worker/worker_mix.h"
#include "kernels/descriptor_text.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "profiling/bench_json.h"
#include "profiling/device_info.h"
#include "profiling/recorded_mix.h"

namespace tclens::cli {
namespace {

// "can run", "can run: grid (1,64,1) x block (64,1,1)" or "cannot run: <why>".
std::string can_run_text(const worker::CanRun& c) {
    if (!c.reason.empty()) return "cannot run: " + c.reason;
    return c.plan.empty() ? "can run" : "can run: " + c.plan;
}

void print_table(const std::optional<kernels::GemmProblem>& problem,
                 const std::vector<worker::LoadResult>& yours) {
    std::printf("%-4s %-24s %-9s %-11s %-8s %-8s %-3s %-8s %-4s  %s\n", "rung", "id", "type",
                "block", "warp", "mma", "stg", "swizzle", "thr", "what it adds");
    for (const kernels::KernelDescriptor& k : kernels::all_kernels()) {
        const std::string rung = k.rung > 0 ? std::to_string(k.rung) : "ref";
        const std::string warp = k.thread_tile.m > 0 ? kernels::tile_text(k.thread_tile) + "/t"
                                                     : kernels::tile_text(k.warp_tile);
        std::printf("%-4s %-24s %-9s %-11s %-8s %-8s %-3d %-8s %-4d  %s\n", rung.c_str(),
                    k.id.c_str(), kernels::types_text(k).c_str(),
                    kernels::tile_text(k.block_tile).c_str(), warp.c_str(),
                    kernels::tile_text(k.mma_tile).c_str(), k.stages,
                    k.swizzle.empty() ? "-" : k.swizzle.c_str(), k.threads, k.adds.c_str());
        if (problem) {
            const std::string why = k.can_run(*problem);
            const std::string plan =
                why.empty() && k.launch_plan ? "can run: " + k.launch_plan(*problem) : "can run";
            std::printf("     %s %s\n", kernels::problem_text(*problem).c_str(),
                        why.empty() ? plan.c_str() : ("cannot run: " + why).c_str());
        }
    }
    for (const worker::LoadResult& k : yours) {
        const std::string types = std::string(kernels::precision_name(k.precision)) + "/f32";
        std::printf("%-4s %-24s %-9s  %s: %s, %s, compiled in %.1f s\n", "you", k.id.c_str(),
                    types.c_str(), k.path.c_str(), k.function.c_str(), k.form.c_str(),
                    k.compile_ms / 1e3);
        if (problem && !k.can_run.empty()) {
            std::printf("     %s %s\n", kernels::problem_text(*problem).c_str(),
                        can_run_text(k.can_run.front()).c_str());
        }
    }
    std::printf(
        "\ntype: inputs/accumulator; block: M x N x K tile of a thread block; warp: M x N "
        "tile of a warp (/t: of a thread); stg: shared-memory stages; thr: threads per "
        "block\n");
}

// The hello of `client`'s worker (its GPUs and the instruction mixes of its build: this process
// asks no CUDA). kExitOk with `hello` set, or the one line and exit code of a worker that does
// not answer.
int worker_hello(worker::WorkerClient& client, const worker::HelloResult*& hello) {
    const worker::Reply reply = client.connect();
    if (!reply.ok()) return report_failure(reply);
    hello = &client.worker();
    return kExitOk;
}

// {"sm": 90, "arch": "sm_90a", "functions": 1, "counts": {"hmma": 64, ...}} from the kernel's
// SASS as the worker built it (worker/worker_mix.h), or {"sm": 90, "missing": "cuBLAS: not our
// binary"}.
nlohmann::json instruction_mix_json(const worker::HelloResult& hello, const std::string& id) {
    const int sm = worker::mix_sm(hello.system);
    const worker::KernelMix mix = worker::worker_mix(&hello, id, sm);
    nlohmann::json j = mix.mix ? profiling::to_json(*mix.mix) : nlohmann::json::object();
    j["sm"] = sm;
    if (!mix.mix) j["missing"] = mix.missing;
    return j;
}

}  // namespace

void add_kernels_command(CLI::App& app, int& exit_code) {
    auto* command =
        app.add_subcommand("kernels", "List the kernel ladder and the cuBLAS references");
    auto json = std::make_shared<bool>(false);
    auto mnk = std::make_shared<std::string>();
    auto refs = std::make_shared<std::vector<std::string>>();
    auto worker_options = std::make_shared<WorkerOptions>();
    command->add_flag("--json", *json, "Machine-readable output");
    command->add_option("--mnk", *mnk, "Say for each kernel whether it can run this MxNxK size");
    command->add_option("--kernel", *refs,
                        "Add a kernel of yours, path.cu[:NAME][:TYPE] (docs/your-kernel.md; "
                        "repeatable), compiled in a worker process");
    add_worker_options(*command, *worker_options);
    command->callback([json, mnk, refs, worker_options, &exit_code] {
        std::optional<kernels::GemmProblem> problem;
        if (!mnk->empty()) {
            problem = kernels::parse_problem(*mnk);
            if (!problem) {
                std::fprintf(stderr, "tclens: %s\n", kernels::problem_error(*mnk).c_str());
                exit_code = kExitUsage;
                return;
            }
        }
        std::vector<worker::LoadResult> yours;
        worker::WorkerClient client(client_options(*worker_options));  // started at its first call
        if (!refs->empty()) {
            if (const std::string bad = check_kernel_refs(*refs); !bad.empty()) {
                std::fprintf(stderr, "tclens: %s\n", bad.c_str());
                exit_code = kExitUsage;
                return;
            }
            const ProgressLines progress("kernels");
            std::vector<kernels::GemmProblem> problems;
            if (problem) problems.push_back(*problem);
            exit_code = load_kernels(client, *refs, problems, true, progress, yours);
            progress.done();
            if (exit_code != kExitOk) return;
        }
        if (*json) {
            const worker::HelloResult* hello = nullptr;
            exit_code = worker_hello(client, hello);
            if (exit_code != kExitOk) return;
            nlohmann::json list = nlohmann::json::array();
            for (const kernels::KernelDescriptor& k : kernels::all_kernels()) {
                nlohmann::json entry = profiling::to_json(k);
                entry["instruction_mix"] = instruction_mix_json(*hello, k.id);
                if (problem) {
                    const std::string why = k.can_run(*problem);
                    entry["can_run"] = why.empty();
                    entry["reason"] = why;
                    if (why.empty() && k.launch_plan) entry["plan"] = k.launch_plan(*problem);
                }
                list.push_back(entry);
            }
            for (const worker::LoadResult& k : yours) {
                nlohmann::json entry = k.descriptor;
                entry["form"] = k.form;
                entry["path"] = k.path;
                entry["function"] = k.function;
                entry["compiled"] = true;
                entry["compile_ms"] = k.compile_ms;
                if (problem && !k.can_run.empty()) {
                    const worker::CanRun& c = k.can_run.front();
                    entry["can_run"] = c.reason.empty();
                    entry["reason"] = c.reason;
                    if (!c.plan.empty()) entry["plan"] = c.plan;
                }
                list.push_back(entry);
            }
            std::printf("%s\n", nlohmann::json{{"kernels", list}}.dump(2).c_str());
        } else {
            print_table(problem, yours);
        }
        exit_code = kExitOk;
    });
}

}  // namespace tclens::cli
