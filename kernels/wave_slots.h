#pragma once
// A wave of CTAs, counted and in words: one count and one wording for the reasons of rung 14's
// rules (dispatch_rules.cpp) and the sweep's loss model (sweep_summary.cpp).

#include <cstdint>
#include <string>

namespace tclens::kernels {

// The CTAs one wave holds on `sms` SMs with `ctas_per_sm` on each: 264 for 2 on 132.
inline std::int64_t wave_slots(int sms, int ctas_per_sm) { return std::int64_t{sms} * ctas_per_sm; }

// The CTAs one wave holds on `sms` SMs with `ctas_per_sm` on each: "132 SMs" for one an SM,
// "264 CTAs (2 per SM on 132 SMs)" for more.
std::string wave_slots_text(int sms, int ctas_per_sm);

}  // namespace tclens::kernels
