#pragma once
// The worker requests on tclens's own GPU work that the CLI and the GUI both make: a bank
// measurement, a layout verification, a source profile, a warp trace, a live profile, the clock
// skew probe. Each builds its request, calls the worker (WorkerClient::call: progress, cancel, a
// worker that dies) and reads the result (read_result). The one home of these requests' building
// and reading on the client's side.
//
// Each returns the reply: ok() with `result` filled, or why not in reply.message, one line (the
// worker's error, a worker lost, a result it could not read: kGarbage).

#include <atomic>
#include <string>

#include "app/worker/client.h"
#include "app/worker/live_updates.h"
#include "viz/bank_model.h"

namespace tclens::worker {

// The `bank_measure` request of `report`'s swizzle, pattern and tile, run `iterations` times.
BankMeasureRequest bank_measure_request(const viz::BankReport& report, int iterations);

Reply measure_bank(WorkerClient& client, const viz::BankReport& report, int iterations,
                   BankMeasureResult& result, const ProgressHandler& progress = {},
                   const std::atomic<bool>* cancel = nullptr);

// The `layout_verify` request of `layout` (a viz::fragment_layout id).
Reply verify_layout(WorkerClient& client, const std::string& layout, LayoutVerifyResult& result,
                    const ProgressHandler& progress = {},
                    const std::atomic<bool>* cancel = nullptr);

Reply take_source_profile(WorkerClient& client, const WorkerSourceRequest& request,
                          SourceResult& result, const ProgressHandler& progress = {},
                          const std::atomic<bool>* cancel = nullptr);

Reply take_trace(WorkerClient& client, const TraceRequest& request, TraceResult& result,
                 const ProgressHandler& progress = {}, const std::atomic<bool>* cancel = nullptr);

// The streaming `live_profile` request: each update, read (live_updates.h), goes to `on_update`;
// once `stop_wanted` says so the worker is asked to stop, and its result fills `result`. An
// update or result it cannot read makes the reply kGarbage (the worker is killed).
Reply profile_live(WorkerClient& client, const LiveProfileRequest& request,
                   const std::function<void(const LiveUpdate&)>& on_update,
                   const StopPoll& stop_wanted, LiveProfileResult& result,
                   const ProgressHandler& progress = {}, const std::atomic<bool>* cancel = nullptr);
// The `clock_skew` request of `rounds` rounds.
Reply measure_clock_skew(WorkerClient& client, int rounds, ClockSkewResult& result,
                         const ProgressHandler& progress = {},
                         const std::atomic<bool>* cancel = nullptr);

}  // namespace tclens::worker
