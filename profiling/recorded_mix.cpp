#include "profiling/recorded_mix.h"

#include <algorithm>
#include <optional>

#include "profiling/json_reader.h"

namespace tclens::profiling {

nlohmann::json to_json(const kernels::InstructionMix& mix) {
    nlohmann::json counts = nlohmann::json::object();
    for (int i = 0; i < kernels::kOpClassCount; ++i) {
        const auto op = static_cast<kernels::OpClass>(i);
        counts[kernels::op_class_key(op)] = mix[op];
    }
    return {{"arch", mix.arch}, {"functions", mix.functions}, {"counts", counts}};
}

nlohmann::json to_json(const RecordedInstructionMix& recorded) {
    nlohmann::json json = to_json(recorded.mix);
    json["kernel_id"] = recorded.kernel_id;
    json["sm"] = recorded.sm;
    return json;
}

bool recorded_mix_from_json(const nlohmann::json& json, RecordedInstructionMix& recorded,
                            std::string& error) {
    error.clear();
    JsonReader read(error);
    RecordedInstructionMix out;
    read(json, "kernel_id", out.kernel_id);
    read(json, "sm", out.sm);
    read(json, "arch", out.mix.arch);
    read(json, "functions", out.mix.functions);
    if (read.ok() && (!json.contains("counts") || !json.at("counts").is_object())) {
        read.fail("missing object 'counts'");
    }
    for (int i = 0; read.ok() && i < kernels::kOpClassCount; ++i) {
        const auto op = static_cast<kernels::OpClass>(i);
        std::string count_error;
        JsonReader read_count(count_error);
        read_count(json.at("counts"), kernels::op_class_key(op), out.mix.counts[size_t(i)]);
        if (!count_error.empty()) read.fail("counts: " + count_error);
    }
    if (read.ok() && out.kernel_id.empty()) read.fail("key 'kernel_id' is empty");
    if (!read.ok()) return false;
    recorded = std::move(out);
    return true;
}

std::vector<RecordedInstructionMix> mixes_from_sources(const std::vector<SourceProfile>& sources,
                                                       int sm) {
    std::vector<RecordedInstructionMix> mixes;
    for (const SourceProfile& source : sources) {
        if (find_mix(mixes, source.kernel_id)) continue;
        if (const std::optional<kernels::InstructionMix> mix = instruction_mix_of(source)) {
            mixes.push_back({source.kernel_id, sm, *mix});
        }
    }
    return mixes;
}

void add_missing_mixes(std::vector<RecordedInstructionMix>& mixes,
                       const std::vector<RecordedInstructionMix>& from) {
    for (const RecordedInstructionMix& mix : from) {
        if (!find_mix(mixes, mix.kernel_id)) mixes.push_back(mix);
    }
}

const RecordedInstructionMix* find_mix(const std::vector<RecordedInstructionMix>& mixes,
                                       const std::string& kernel_id) {
    const auto it = std::find_if(mixes.begin(), mixes.end(), [&](const RecordedInstructionMix& m) {
        return m.kernel_id == kernel_id;
    });
    return it == mixes.end() ? nullptr : &*it;
}

}  // namespace tclens::profiling
