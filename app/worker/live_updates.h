#pragma once
// What a live_profile request streams (docs/worker-protocol.md): the "update" object of each of
// its update messages, and its result, both ways. The worker writes them with to_json; the client
// reads them strictly (unknown keys refused), profiles through profiling/profile_json.h, so a
// live profile that went through the worker is the document `tclens profile --json` prints.
//
// An update is one of:
//   {"kernel": 0, "profile": profile JSON}             metrics mode: kernel 0 was profiled again
//   {"kernel": 1, "kind": "usage", "error": "line"}    metrics mode: kernel 1 cannot be profiled
//                                                      (not verified, cannot run the size); the
//                                                      other kernels go on
//   {"metrics": [names], "samples": [{"start_ns", "end_ns", "values": [numbers or null]}]}
//                                                      timeline mode: the PM samples decoded
//                                                      since the previous update, oldest first
// The result: {"updates": N, "stopped": bool, "timeline": timeline JSON or null}: the updates
// sent (profiles, or sample batches), whether a stop ended the stream, and in timeline mode the
// whole timeline (its samples and the sampling overhead).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/worker/messages.h"
#include "profiling/profile_result.h"

namespace tclens::worker {

struct LiveUpdate {
    enum class Kind { kProfile, kKernelError, kSamples };
    Kind kind = Kind::kProfile;
    int kernel = 0;                    // kProfile, kKernelError: its index in the request's kernels
    profiling::KernelProfile profile;  // kProfile (never a failed one)
    ErrorKind error_kind = ErrorKind::kFailed;  // kKernelError
    std::string error;                          // kKernelError: one line
    std::vector<std::string> metrics;           // kSamples: the names the values follow
    std::vector<profiling::PmSample> samples;   // kSamples (a value that is not finite: null)
};

struct LiveProfileResult {
    std::uint64_t updates = 0;
    bool stopped = false;  // the client's stop ended it (else max_updates or the duration)
    std::optional<profiling::KernelTimeline> timeline;  // timeline mode
};

nlohmann::json to_json(const LiveUpdate& update);
nlohmann::json to_json(const LiveProfileResult& result);

// Strict readers; false with one line in `error` when `json` is not such an object.
bool live_update_from_json(const nlohmann::json& json, LiveUpdate& update, std::string& error);
bool live_result_from_json(const nlohmann::json& json, LiveProfileResult& result,
                           std::string& error);

}  // namespace tclens::worker
