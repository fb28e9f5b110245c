#include "app/worker/gpu_turn_wait.h"

#include <chrono>

namespace tclens::worker {

bool wait_for_gpu_turn(const profiling::SystemReport& system, Replier& reply, GpuTurn& turn,
                       const TurnOptions& options) {
    if (!system.has_gpu()) return true;
    const profiling::DeviceFacts& gpu = system.devices.front();
    const std::string label = gpu.name + ", " + gpu.pci_bus_id;
    std::string said;
    auto said_at = std::chrono::steady_clock::time_point{};
    const std::string error = turn.take(
        gpu.pci_bus_id,
        [&](const TurnPlace& place) {
            // A new place or holder is said at once; the same one again every kWaitReportS.
            TurnPlace still = place;
            still.held_s = 0;
            const std::string what = turn_wait_text(label, still);
            const auto now = std::chrono::steady_clock::now();
            if (what != said || now - said_at >= std::chrono::duration<double>(kWaitReportS)) {
                reply.progress({"wait", turn_wait_text(label, place), -1, -1, 2 * kWaitReportS});
                said = what;
                said_at = now;
            }
            return !reply.client_gone();
        },
        options);
    if (error.empty()) return true;
    reply.error(ErrorKind::kNeedsResource,
                "cannot take a turn on the GPU (" + label + "): " + error +
                    (error == "cancelled" ? "" : "; TCLENS_GPU_TURNS=off on a private machine"));
    return false;
}

}  // namespace tclens::worker
