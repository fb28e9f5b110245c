// A wave of CTAs in words (kernels/wave_slots.h).
#include "kernels/wave_slots.h"

#include "common/text.h"

namespace tclens::kernels {

std::string wave_slots_text(int sms, int ctas_per_sm) {
    if (ctas_per_sm <= 1) return common::count_text(sms, "SM");
    return common::format_text("%lld CTAs (%d per SM on %d SMs)",
                               static_cast<long long>(wave_slots(sms, ctas_per_sm)), ctas_per_sm,
                               sms);
}

}  // namespace tclens::kernels
