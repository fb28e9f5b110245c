// `tclens exercise FILE.cu[:NAME] [--json]`: a one-warp fragment exercise (docs/your-kernel.md,
// form 3; lab 6's mma_16x8x8_kernel) compiled and run in a worker process on self-describing
// inputs (kernels/user/fragment_exercise.h): prints the summary line, then one line per element
// of A, B or C that the kernel's index mapping got wrong, with the lane and register the
// instruction's layout gives it and where it went. Exit 0 when every element goes where the
// layout puts it, 1 when some do not (or the run failed), 2 for bad input (not an exercise, a
// compile error), 3 without a GPU.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "app/cli/commands.h"
#include "app/cli/worker_calls.h"
#include "app/exit_codes.h"

namespace tclens::cli {
namespace {

struct ExerciseOptions {
    std::string ref;
    bool json = false;
    WorkerOptions worker;
};

int run_exercise(const ExerciseOptions& options) {
    if (const std::string bad = check_kernel_refs({options.ref}); !bad.empty()) {
        std::fprintf(stderr, "tclens: %s\n", bad.c_str());
        return kExitUsage;
    }
    worker::WorkerClient client(client_options(options.worker));
    if (const int code = check_remote_gpu(client, options.worker); code != kExitOk) return code;
    const ProgressLines progress("exercise");
    worker::Reply reply = client.call(worker::ExerciseRequest{options.ref}, progress);
    progress.done();
    worker::ExerciseResult result;
    if (!worker::read_result(reply, "exercise", worker::exercise_from_json, result))
        return report_failure(reply);
    if (options.json) {
        std::printf("%s\n", worker::to_json(result).dump(2).c_str());
    } else {
        std::printf("%s: %s\n", result.report.function.c_str(), result.summary.c_str());
        for (const kernels::user::ExerciseOperand& operand : result.report.operands) {
            for (const kernels::user::ExerciseElement& e : operand.elements) {
                if (e.correct) continue;
                std::printf("  %c (%d, %d), lane %d reg %d sub %d: %s\n",
                            viz::operand_letter(operand.operand), e.row, e.col, e.lane, e.reg,
                            e.sub, e.outcome.c_str());
            }
        }
        if (!result.report.product_correct) std::printf("  the product a * b + c is not exact\n");
    }
    return result.report.wrong == 0 && result.report.product_correct ? kExitOk : kExitFailure;
}

}  // namespace

void add_exercise_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "exercise",
        "Run a one-warp fragment exercise of yours (e.g. lab 6's mma_16x8x8_kernel) in a worker "
        "and say which A, B, C elements its index mapping got wrong; needs a GPU");
    auto options = std::make_shared<ExerciseOptions>();
    command->add_option("FILE", options->ref, "path.cu[:NAME] (docs/your-kernel.md)")->required();
    command->add_flag("--json", options->json, "Every element, machine-readable");
    add_worker_options(*command, options->worker);
    command->callback([options, &exit_code] { exit_code = run_exercise(*options); });
}

}  // namespace tclens::cli
