// Tests for app/gui/jobs/bank_measure_job.*: the job publishes one entry per posted report, with
// the model's wavefronts and either the GPU's or a one-line reason. Where there is no GPU the
// reason is the profiler's "no GPU" error; where there is one, ldmatrix must match the model
// (docs/bank-model.md) and cp.async must say why it cannot be measured.

#include "app/gui/jobs/bank_measure_job.h"

#include <gtest/gtest.h>

#include <chrono>

#include "app/gui/jobs/app_context.h"

namespace tclens::gui {
namespace {

viz::BankReport modelled_report(const char* swizzle, const char* pattern, viz::Tile tile) {
    return *viz::bank_requests(*viz::parse_swizzle(swizzle), *viz::parse_pattern(pattern), tile);
}

TEST(BankMeasureJob, PublishesOneEntryPerReportWithTheModelAndAnAnswerOrAReason) {
    AppContext context;
    const viz::BankReport none = modelled_report("none", "ldmatrix.x4", {16, 128});
    const viz::BankReport xored = modelled_report("xor", "ldmatrix.x4", {16, 128});
    const viz::BankReport copy = modelled_report("none", "cp.async.16", {32, 128});
    request_bank_measurement(context, {none, xored, copy});
    ASSERT_TRUE(context.jobs.wait_idle(std::chrono::seconds(120)));
    EXPECT_EQ(context.jobs.status().last_error, "");
    const auto published = context.bank_measurements.latest();
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
