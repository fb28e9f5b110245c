#pragma once
// The instruction mix a recording carries for each of its kernels: the static SASS counts
// (kernels/sass_census/instruction_counts.h) that the build of the tclens that recorded read
// with cuobjdump (built_in_mixes.h),
// for the cubin the recording's GPU loads. A laptop whose build had no cuobjdump (or targets
// another GPU) shows the same Instruction mix for the recording as the machine that made it.
//
// JSON of one entry (Recording's "instruction_mixes", schema_version 2 on; also the body of
// `tclens kernels --json`'s "instruction_mix"):
//   {"kernel_id": "mma_cp_async.bf16", "sm": 90, "arch": "sm_90a", "functions": 1,
//    "counts": {"hmma": 64, "hgmma": 0, ..., "total": 1234}}   (keys: kernels::op_class_key)

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernels/sass_census/instruction_counts.h"
#include "profiling/source/source_profile.h"

namespace tclens::profiling {

struct RecordedInstructionMix {
    std::string kernel_id;
    int sm = 0;  // compute capability the cubin was picked for (major * 10 + minor)
    kernels::InstructionMix mix;
};

// {"arch", "functions", "counts"} of `mix`.
nlohmann::json to_json(const kernels::InstructionMix& mix);
nlohmann::json to_json(const RecordedInstructionMix& recorded);
// False, with `error` one line naming the first bad key ("counts: missing key 'hgmma'").
bool recorded_mix_from_json(const nlohmann::json& json, RecordedInstructionMix& recorded,
                            std::string& error);

// The mixes of the source profiles that hold SASS text (source_profile.h, instruction_mix_of),
// each kernel once, for a GPU of compute capability `sm`: how a version 2 recording, which kept
// the SASS only in its source profiles, gets its mixes; and what `tclens record` adds for the
// kernels this build's census lacks.
std::vector<RecordedInstructionMix> mixes_from_sources(const std::vector<SourceProfile>& sources,
                                                       int sm);

// Appends to `mixes` those of `from` whose kernel has none in `mixes` yet.
void add_missing_mixes(std::vector<RecordedInstructionMix>& mixes,
                       const std::vector<RecordedInstructionMix>& from);

// The entry of `mixes` for `kernel_id`, or nullptr.
const RecordedInstructionMix* find_mix(const std::vector<RecordedInstructionMix>& mixes,
                                       const std::string& kernel_id);

}  // namespace tclens::profiling
