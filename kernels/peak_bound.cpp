#include "kernels/peak_bound.h"

#include <cstdio>

namespace tclens::kernels {

double dense_flops_per_sm_clock(int cc_major, int cc_minor, Precision precision) {
    // fp8: twice f16 on Hopper; 0 (unknown) where this table does not say (sm_80/86 have no
    // FP8 tensor cores).
    struct Rates {
        double ffma, tf32, f16, fp8;
    };
    Rates rates{0, 0, 0, 0};
    if (cc_major == 8 && cc_minor == 0) {
        rates = {128, 1024, 2048, 0};
    } else if (cc_major == 8 && (cc_minor == 6 || cc_minor == 9)) {
        rates = {256, 512, 1024, 0};
    } else if (cc_major == 9 && cc_minor == 0) {
        rates = {256, 2048, 4096, 8192};
    }
    switch (precision) {
        case Precision::kF32:
            return rates.ffma;
        case Precision::kTF32:
            return rates.tf32;
        case Precision::kF16:
        case Precision::kBF16:
            return rates.f16;
        case Precision::kE4M3:
            return rates.fp8;
    }
    return 0;
}

double peak_bound_tflops(int cc_major, int cc_minor, Precision precision, int sm_count,
                         int sm_clock_khz) {
    return dense_flops_per_sm_clock(cc_major, cc_minor, precision) * sm_count *
           (sm_clock_khz * 1e3) * 1e-12;
}

std::string peaks_above_bound(const std::vector<PeakMeasurement>& peaks, const BoundDevice& device,
                              double tolerance) {
    if (peaks.empty()) return "no peaks were measured";
    std::string problems;
    for (const PeakMeasurement& peak : peaks) {
        const std::string name = peak.instruction + " (" + precision_name(peak.precision) + "): ";
        const double rate =
            dense_flops_per_sm_clock(device.cc_major, device.cc_minor, peak.precision);
        char line[200];
        if (rate <= 0) {
            std::snprintf(line, sizeof line, "no dense rate known for compute capability %d.%d",
                          device.cc_major, device.cc_minor);
        } else {
            const double bound = peak_bound_tflops(device.cc_major, device.cc_minor, peak.precision,
                                                   device.sm_count, device.sm_clock_khz);
            if (peak.tflops <= bound * (1.0 + tolerance)) continue;
            std::snprintf(line, sizeof line,
                          "%.1f TFLOP/s measured, above the bound of %.1f (%d SMs x %.0f "
                          "FLOP/clock x %.0f MHz)",
                          peak.tflops, bound, device.sm_count, rate, device.sm_clock_khz / 1e3);
        }
        problems += (problems.empty() ? "" : "; ") + name + line;
    }
    return problems;
}

}  // namespace tclens::kernels
