// Tests for profiling/bank_result.h: the model's side of a bank measurement.

#include "profiling/bank_result.h"

#include <gtest/gtest.h>

namespace tclens::profiling {
namespace {

TEST(BankResult, ModelWavefrontsPerRequestIsTheTotalOverTheRequests) {
    viz::BankReport report;
    report.requests.resize(4);
    report.total_wavefronts = 10;
    EXPECT_DOUBLE_EQ(model_wavefronts_per_request(report), 2.5);
}

TEST(BankResult, ModelWavefrontsPerRequestOfNoRequestIsZero) {
    viz::BankReport report;
    report.total_wavefronts = 10;
    EXPECT_DOUBLE_EQ(model_wavefronts_per_request(report), 0);
}

}  // namespace
}  // namespace tclens::profiling
