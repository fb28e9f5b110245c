#pragma once
// The worker's side of GPU turns (gpu_turns.h): before a request's work that times or profiles
// on its GPU (bench, profile, source, trace; never compile or load), the session takes the turn
// on that GPU, device 0 of what CUDA_VISIBLE_DEVICES shows it, keyed by its PCI bus id. While it
// waits it sends "wait" progress (docs/worker-protocol.md) at least every kWaitReportS, so the
// client's time limit never ends a worker that waits its turn.
#include <string>

#include "app/worker/gpu_turns.h"
#include "app/worker/server.h"
#include "profiling/device_info.h"

namespace tclens::worker {

// How often a waiting worker says where it stands, at most (and more often when its place or
// the holder changes); the allowance each of its messages gives is twice that.
inline constexpr double kWaitReportS = 2;

// Takes `turn` on `system`'s first GPU; without a GPU there is nothing to take (nothing is
// timed) and it returns true at once. False after it replied an error: the turns folder cannot
// be used (kind needs_resource), or the client went away while it waited.
bool wait_for_gpu_turn(const profiling::SystemReport& system, Replier& reply, GpuTurn& turn,
                       const TurnOptions& options = {});

}  // namespace tclens::worker
