#include "kernels/shape_sweep.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace tclens::kernels {
namespace {

// A double in [0, 1) from the engine's top 53 bits.
double unit(std::mt19937_64& engine) { return double(engine() >> 11) * 0x1.0p-53; }

std::int64_t log_uniform_side(std::mt19937_64& engine) {
    const double low = std::log(double(kSweepMinSide));
    const double high = std::log(double(kSweepMaxSide));
    const auto side = std::int64_t(std::exp(low + unit(engine) * (high - low)));
    return std::clamp(side, kSweepMinSide, kSweepMaxSide);
}

// The nearest multiple of `step` in [step, kSweepMaxSide].
std::int64_t round_to(std::int64_t side, std::int64_t step) {
    return std::clamp((side + step / 2) / step * step, step, kSweepMaxSide);
}

// `side` moved to the nearest value that is a multiple of neither 16 nor 64 (odd, so never a
// multiple of 2), staying in range.
std::int64_t unaligned(std::int64_t side) {
    const std::int64_t odd = side % 2 == 1 ? side : side + 1;
    return odd > kSweepMaxSide ? kSweepMaxSide - 1 : odd;
}

// The smallest prime >= side (below kSweepMaxSide: 16381 is prime).
std::int64_t prime_at_least(std::int64_t side) {
    std::int64_t p = std::max<std::int64_t>(side, 17);
    while (!is_prime(p)) ++p;
    return std::min<std::int64_t>(p, 16381);
}

}  // namespace

bool is_prime(std::int64_t value) {
    if (value < 2) return false;
    for (std::int64_t d = 2; d * d <= value; ++d) {
        if (value % d == 0) return false;
    }
    return true;
}

std::vector<GemmProblem> draw_sweep_shapes(int count, std::uint64_t seed) {
    std::mt19937_64 engine(seed);
    std::vector<GemmProblem> shapes;
    shapes.reserve(std::size_t(std::max(count, 0)));
    for (int i = 0; i < count; ++i) {
        std::int64_t sides[3] = {log_uniform_side(engine), log_uniform_side(engine),
                                 log_uniform_side(engine)};
        const std::uint64_t choice = engine();
        if (i % 3 != 2) {
            const std::int64_t step = choice % 2 == 0 ? 64 : 16;
            for (std::int64_t& side : sides) side = round_to(side, step);
        } else {
            // Which side stays unaligned; the others keep their drawn values.
            std::int64_t& odd = sides[(choice >> 1) % 3];
            odd = i % 30 == 29 ? prime_at_least(odd) : unaligned(odd);
        }
        shapes.push_back({sides[0], sides[1], sides[2]});
    }
    return shapes;
}

}  // namespace tclens::kernels
