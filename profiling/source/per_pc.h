#pragma once
// Internal to profiling/source: what the two per-instruction collectors (pc_sampler,
// sass_metrics) share. CUPTI hands out values record by record; they are gathered by
// instruction, (mangled function, PC offset), and become one result record per instruction.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "profiling/range_profiler.h"

namespace tclens::profiling::detail {

// (function, PC offset) -> one value per stall reason or per metric.
using ValuesByPc = std::map<std::pair<std::string, std::uint64_t>, std::vector<std::uint64_t>>;

// One Record{function, pc, values} per instruction of `by_pc`, in (function, PC) order; the
// values are moved out of `by_pc`.
template <typename Record>
std::vector<Record> records_by_pc(ValuesByPc& by_pc) {
    std::vector<Record> records;
    for (auto& [key, values] : by_pc)
        records.push_back(Record{key.first, key.second, std::move(values)});
    return records;
}

// Runs `workload` and waits for the device: "" when both went well, else why the workload
// failed ("no workload given" for none) or, when it did not, why the wait did.
std::string run_workload(const Workload& workload);

}  // namespace tclens::profiling::detail
