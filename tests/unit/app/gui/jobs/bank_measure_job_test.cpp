// Tests for app/gui/jobs/bank_measure_job.*: the job sends each case to the worker (a
// `bank_measure` request) and publishes one entry per posted report, with the model's wavefronts
// and either the worker's answer or a one-line reason. With the scripted worker its canned answer
// (a number no GPU gives for that access) is what the panel gets, so nothing is measured in this
// process; a worker that dies is one line. With the real worker and no GPU the reason is the
// worker's "needs an NVIDIA GPU"; with a GPU, ldmatrix must match the model
// (docs/bank-model.md) and cp.async must say why it cannot be measured.

#include "app/gui/jobs/bank_measure_job.h"

#include <gtest/gtest.h>

#include <chrono>

#include "app/gui/jobs/app_context.h"
#include "tests/support/scripted_gpu.h"
#include "tests/support/worker_contexts.h"

namespace tclens::gui {
namespace {

viz::BankReport modelled_report(const char* swizzle, const char* pattern, viz::Tile tile) {
    return *viz::bank_requests(*viz::parse_swizzle(swizzle), *viz::parse_pattern(pattern), tile);
}

std::shared_ptr<const BankMeasurements> measure(AppContext& context,
                                                std::vector<viz::BankReport> reports) {
    request_bank_measurement(context, std::move(reports));
    EXPECT_TRUE(context.jobs.wait_idle(std::chrono::seconds(120)));
    EXPECT_EQ(context.jobs.status().last_error, "");
    return context.bank_measurements.latest();
}

TEST(BankMeasureJob, PublishesOneEntryPerReportWithTheModelAndAnAnswerOrAReason) {
    test::WorkerContext context;
    const viz::BankReport none = modelled_report("none", "ldmatrix.x4", {16, 128});
    const viz::BankReport xored = modelled_report("xor", "ldmatrix.x4", {16, 128});
    const viz::BankReport copy = modelled_report("none", "cp.async.16", {32, 128});
    const auto published = measure(context, {none, xored, copy});
    ASSERT_TRUE(published);
    ASSERT_EQ(published->cases.size(), 3u);

    // ldmatrix.x4 on 16 x 128 bytes: none 8-way in each of 4 phases = 32; xor 4.
    const BankCaseMeasurement* n = published->find(bank_case(none));
    const BankCaseMeasurement* x = published->find(bank_case(xored));
    ASSERT_TRUE(n && x);
    EXPECT_EQ(n->model, 32.0);
    EXPECT_EQ(x->model, 4.0);
    for (const BankCaseMeasurement* entry : {n, x}) {
        if (entry->measured) {
            EXPECT_NEAR(*entry->measured, entry->model, 0.01);
            EXPECT_EQ(entry->error, "");
        } else {
            EXPECT_NE(entry->error, "");
            EXPECT_EQ(entry->error.find('\n'), std::string::npos) << entry->error;
        }
    }
    const BankCaseMeasurement* c = published->find(bank_case(copy));
    ASSERT_TRUE(c);
    EXPECT_FALSE(c->measured);
    EXPECT_NE(c->error, "");
}

// The worker's canned measurement: 12345.5 wavefronts per instruction on "Scripted H999", where
// the model says 32 and 4. No GPU measures that; the panel gets it only from the worker.
TEST(BankMeasureJob, EachCaseIsARequestToTheWorkerAndItsAnswerIsPublished) {
    const std::string answer = test::write_canned(
        "gui_job_bank_measure.json",
        R"({"device":"Scripted H999","wavefronts_per_request":12345.5,"iterations":256,)"
        R"("requests":1,"wavefront_metric":"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",)"
        R"("instruction_metric":"smsp__inst_executed_op_ldsm.sum","baseline_wavefronts":3,)"
        R"("run_wavefronts":8195,"instructions_per_iteration":1,"passes":1})");
    test::ScriptedWorkerContext context("SCRIPTED_BANK_MEASURE=" + answer);
    const viz::BankReport none = modelled_report("none", "ldmatrix.x4", {16, 128});
    const viz::BankReport xored = modelled_report("xor", "ldmatrix.x4", {16, 128});
    const auto published = measure(context, {none, xored});
    ASSERT_TRUE(published);
    EXPECT_EQ(published->device, "Scripted H999");
    ASSERT_EQ(published->cases.size(), 2u);
    EXPECT_EQ(published->cases[0].model, 32.0);
    EXPECT_EQ(published->cases[1].model, 4.0);
    for (const BankCaseMeasurement& entry : published->cases) {
        EXPECT_EQ(entry.error, "");
        ASSERT_TRUE(entry.measured);
        EXPECT_EQ(*entry.measured, 12345.5);
    }
    EXPECT_EQ(context.requests(), "hello\nbank_measure\nbank_measure\n");
}

// A worker that dies on the first case: that case and the ones not asked say so in one line.
TEST(BankMeasureJob, AWorkerThatDiesIsOneLineForEveryCase) {
    test::ScriptedWorkerContext context("SCRIPTED_WORKER=crash");
    const auto published = measure(context, {modelled_report("none", "ldmatrix.x4", {16, 128}),
                                             modelled_report("xor", "ldmatrix.x4", {16, 128})});
    ASSERT_TRUE(published);
    ASSERT_EQ(published->cases.size(), 2u);
    for (const BankCaseMeasurement& entry : published->cases) {
        EXPECT_FALSE(entry.measured);
        EXPECT_NE(entry.error.find("died during the bank_measure request"), std::string::npos)
            << entry.error;
        EXPECT_EQ(entry.error.find('\n'), std::string::npos) << entry.error;
    }
    EXPECT_EQ(context.requests(), "hello\nbank_measure\n");  // the second case was not sent
}

TEST(BankMeasureJob, CasesMatchOnPatternSwizzleAndTile) {
    const viz::BankReport base = modelled_report("xor", "ldmatrix.x4", {16, 128});
    EXPECT_TRUE(bank_case(base) == bank_case(modelled_report("xor", "ldmatrix.x4", {16, 128})));
    EXPECT_FALSE(bank_case(base) == bank_case(modelled_report("none", "ldmatrix.x4", {16, 128})));
    EXPECT_FALSE(bank_case(base) ==
                 bank_case(modelled_report("xor", "ldmatrix.x4.trans", {16, 128})));
    EXPECT_FALSE(bank_case(base) == bank_case(modelled_report("xor", "ldmatrix.x4", {32, 128})));
    BankMeasurements measurements;
    measurements.cases.push_back({bank_case(base), 4.0, 4.0, ""});
    EXPECT_TRUE(measurements.find(bank_case(base)));
    EXPECT_FALSE(measurements.find(bank_case(modelled_report("xor", "ldmatrix.x4", {16, 256}))));
}

}  // namespace
}  // namespace tclens::gui
