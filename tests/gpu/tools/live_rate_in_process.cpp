// The in-process reference of the live update rate (scripts/live_rate.sh): profiles one kernel
// again and again with profiling::KernelProfiler inside this process, as the GUI's Profile panel
// "Live" did before it went through the worker (one RangeProfiler session set up once, every
// profile dropping names the chip rejects), and prints the rate in the words of
// `tclens profile --live-updates N`, so the two compare line for line:
//   live_rate_in_process KERNEL MxNxK N [timeline]
//   200 updates in 3.210 s: 62.0 updates/s
// timed from the first update (CUPTI's set-up is done) to the last. With `timeline`, an update is
// a batch of PM samples (the "timeline" set, 1 ms interval), and the samples' rate follows.
// Exit 0, or 1 with one line on stderr.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "kernels/problem_text.h"
#include "profiling/kernel_profile.h"
#include "profiling/metric_catalogue.h"
#include "profiling/range_profiler.h"

namespace {

using Clock = std::chrono::steady_clock;

int fail(const std::string& line) {
    std::fprintf(stderr, "live_rate_in_process: %s\n", line.c_str());
    return 1;
}

struct Rate {
    std::uint64_t updates = 0;
    std::uint64_t samples = 0;
    Clock::time_point first;
    Clock::time_point last;

    void count(std::size_t new_samples) {
        last = Clock::now();
        if (updates++ == 0) first = last;
        samples += new_samples;
    }
    void print(bool timeline) const {
        const double seconds = std::chrono::duration<double>(last - first).count();
        const double intervals = updates > 1 ? double(updates - 1) : 0.0;
        std::printf("%llu updates in %.3f s: %.1f updates/s\n",
                    static_cast<unsigned long long>(updates), seconds,
                    seconds > 0 ? intervals / seconds : 0.0);
        if (timeline) {
            std::printf("%llu PM samples: %.0f samples/s\n",
                        static_cast<unsigned long long>(samples),
                        seconds > 0 ? double(samples) / seconds : 0.0);
        }
    }
};

}  // namespace

int main(int argc, char** argv) {
    using namespace tclens;
    if (argc < 4 || argc > 5 || (argc == 5 && std::string(argv[4]) != "timeline"))
        return fail("usage: live_rate_in_process KERNEL MxNxK N [timeline]");
    const auto problem = kernels::parse_problem(argv[2]);
    if (!problem) return fail(kernels::problem_error(argv[2]));
    const long long wanted = std::atoll(argv[3]);
    if (wanted < 1)
        return fail(std::string("N must be a whole number >= 1, got '") + argv[3] + "'");
    const bool timeline = argc == 5;

    profiling::KernelProfiler profiler(0, std::make_shared<profiling::RangeProfiler>(0));
    if (const profiling::ProfilerError prepared = profiler.prepare(argv[1], *problem);
        !prepared.ok()) {
        return fail(prepared.message);
    }
    Rate rate;
    if (timeline) {
        profiling::TimelineOptions options;
        options.duration_ms = 0;  // until the progress says stop
        const profiling::KernelTimeline result =
            profiler.timeline(options, [&](const profiling::PmSnapshot& newest) {
                if (!newest.samples.empty()) rate.count(newest.samples.size());
                return rate.updates < static_cast<std::uint64_t>(wanted);
            });
        if (!result.ok()) return fail(result.error.message);
    } else {
        const std::vector<std::string> names = profiling::metric_set("default");
        profiling::ProfileOptions options;
        options.drop_unavailable = true;
        while (rate.updates < static_cast<std::uint64_t>(wanted)) {
            const profiling::KernelProfile profile = profiler.profile(names, options);
            if (!profile.ok()) return fail(profile.error.message);
            rate.count(0);
        }
    }
    rate.print(timeline);
    return 0;
}
