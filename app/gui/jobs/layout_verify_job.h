#pragma once
// "Verify on GPU" for the Fragments panel: the layout's probe run in the worker (a
// `layout_verify` request: kernels/probes/fragment_probe.h there, never in this process), its
// comparison with the model published for the panel to draw next to the model.

#include <string>

#include "app/gui/jobs/job_runner.h"
#include "kernels/probes/fragment_probe.h"
#include "viz/fragment_layout.h"

namespace tclens::gui {

struct AppContext;

struct LayoutVerification {
    std::string id;      // the layout that was asked for
    std::string device;  // the worker's GPU name; "" when it has none
    // One line when there is no comparison: the worker's refusal (no GPU where it runs, an
    // instruction that GPU lacks, a model no GPU can check) or a worker that is lost.
    std::string error;
    kernels::LayoutComparison comparison;  // matched / total / mismatch lines / wrong slots
};

// Posts the probe for `model` ("Verify ID"); the result replaces context.layout_verification
// (nothing is published when cancelled).
JobHandle request_layout_verification(AppContext& context, const viz::FragmentLayout& model);

}  // namespace tclens::gui
