#pragma once
// A wave of CTAs in words: one wording for the reasons of rung 14's rules (dispatch_rules.cpp)
// and the sweep's loss model (sweep_summary.cpp).

#include <string>

namespace tclens::kernels {

// The CTAs one wave holds on `sms` SMs with `ctas_per_sm` on each: "132 SMs" for one an SM,
// "264 CTAs (2 per SM on 132 SMs)" for more.
std::string wave_slots_text(int sms, int ctas_per_sm);

}  // namespace tclens::kernels
