#include "kernels/stream_k_schedule.h"

#include <cstdio>

namespace tclens::kernels {

StreamKSchedule stream_k_schedule_for(const GemmProblem& problem, int sms) {
    const StreamKModeShape shape = stream_k_shape(stream_k_mode(problem.m));
    const auto tiles_m = (problem.m + shape.block_m - 1) / shape.block_m;
    const auto tiles_n = (problem.n + shape.block_n - 1) / shape.block_n;
    const auto k_iters = (problem.k + 63) / 64;
    return make_stream_k_schedule(static_cast<int>(tiles_m * tiles_n), static_cast<int>(k_iters),
                                  sms);
}

std::string stream_k_plan_text(const GemmProblem& problem, int sms) {
    const StreamKMode mode = stream_k_mode(problem.m);
    const StreamKModeShape shape = stream_k_shape(mode);
    const StreamKSchedule s = stream_k_schedule_for(problem, sms);
    char text[320];
    int used =
        std::snprintf(text, sizeof text, "%s mode, %d x %d tiles: %d tiles = %.2f waves on %d SMs",
                      mode == StreamKMode::kSmallM ? "small-M" : "wide", shape.block_m,
                      shape.block_n, s.tiles, static_cast<double>(s.tiles) / sms, sms);
    if (s.dp_tiles > 0) {
        used += std::snprintf(text + used, sizeof text - used,
                              "; %d tiles data-parallel (%d per CTA)", s.dp_tiles, s.dp_rounds());
    }
    if (s.sk_units() > 0) {
        const std::int64_t low = s.sk_units() / s.ctas;
        const std::int64_t high = (s.sk_units() + s.ctas - 1) / s.ctas;
        std::snprintf(text + used, sizeof text - used,
                      "; %d tiles stream-K (%lld K iterations, %lld%s%s per CTA over %d CTAs)",
                      s.tiles - s.dp_tiles, static_cast<long long>(s.sk_units()),
                      static_cast<long long>(low), high == low ? "" : "-",
                      high == low ? "" : std::to_string(high).c_str(), s.ctas);
    }
    return text;
}

}  // namespace tclens::kernels
