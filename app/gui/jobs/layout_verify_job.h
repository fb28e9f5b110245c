#pragma once
// "Verify on GPU" for the Fragments panel: runs the layout probe on the job runner and
// publishes the measured map next to the model.

#include <string>

#include "app/gui/jobs/job_runner.h"
#include "kernels/probes/fragment_probe.h"
#include "viz/fragment_layout.h"

namespace tclens::gui {

struct AppContext;

struct LayoutVerification {
    std::string id;                        // the layout that was measured
    std::string device;                    // GPU name
    kernels::LayoutProbeResult measured;   // operands parallel to the model's elements
    kernels::LayoutComparison comparison;  // matched / total / mismatch lines
};

// Posts the probe for `model` ("Verify ID"); the result appears in context.layout_verification.
JobHandle request_layout_verification(AppContext& context, const viz::FragmentLayout& model);

}  // namespace tclens::gui
