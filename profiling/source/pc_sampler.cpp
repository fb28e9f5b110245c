#include "profiling/source/pc_sampler.h"

#include <cupti.h>
#include <cupti_pcsampling.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <utility>

#include "common/elapsed.h"
#include "profiling/cupti_call.h"
#include "profiling/open_once.h"
#include "profiling/source/per_pc.h"

namespace tclens::profiling {
namespace {

using detail::from_cuda;
using detail::from_cupti;

// Records one GetData call may hand back; more are fetched by calling again.
constexpr std::size_t kPcsPerBuffer = 8192;
// A drain that never ends is a CUPTI bug; stop after this many GetData calls.
constexpr int kMaxDrainRounds = 100000;

// PC sampling structs carry `size` (not structSize) and their own size macros.
template <typename Params>
Params pc_params(std::size_t size) {
    Params params{};
    params.size = size;
    return params;
}

// CUpti_PCSamplingData with room for kPcsPerBuffer records of `reasons` reasons each; the
// pointers in `data` point into the vectors, so it must not be copied.
struct SamplingBuffer {
    CUpti_PCSamplingData data{};
    std::vector<CUpti_PCSamplingPCData> pcs;
    std::vector<CUpti_PCSamplingStallReason> reasons;

    void allocate(std::size_t reason_count) {
        pcs.assign(kPcsPerBuffer, CUpti_PCSamplingPCData{});
        reasons.assign(kPcsPerBuffer * std::max<std::size_t>(reason_count, 1),
                       CUpti_PCSamplingStallReason{});
        for (std::size_t i = 0; i < pcs.size(); ++i) {
            pcs[i].size = sizeof(CUpti_PCSamplingPCData);
            pcs[i].stallReason = reasons.data() + i * std::max<std::size_t>(reason_count, 1);
        }
        data = CUpti_PCSamplingData{};
        data.size = sizeof(CUpti_PCSamplingData);
        data.collectNumPcs = pcs.size();
        data.pPcData = pcs.data();
    }
    // Forgets what was read, so a later read cannot count it twice.
    void clear_counts() {
        data.totalNumPcs = 0;
        data.remainingNumPcs = 0;
    }
};

}  // namespace

int choose_sampling_period(double kernel_ms, int sm_count, int sub_partitions_per_sm,
                           int sm_clock_khz, std::uint64_t target_samples) {
    constexpr int kMin = 5;
    constexpr int kMax = 31;
    if (kernel_ms <= 0 || sm_count <= 0 || sub_partitions_per_sm <= 0 || sm_clock_khz <= 0 ||
        target_samples == 0) {
        return kMin;
    }
    const double cycles = kernel_ms * 1e-3 * sm_clock_khz * 1e3;
    const double samplers = static_cast<double>(sm_count) * sub_partitions_per_sm;
    const double needed = cycles * samplers / static_cast<double>(target_samples);
    int period = kMin;
    while (period < kMax && std::ldexp(1.0, period) < needed) ++period;
    return period;
}

struct PcSampler::State {
    int device = 0;
    bool enabled = false;
    detail::OpenOnce once;
    CUcontext context = nullptr;
    std::vector<std::string> reason_names;
    std::vector<std::uint32_t> reason_indices;         // CUPTI's index of reason_names[i]
    std::map<std::uint32_t, std::size_t> position_of;  // CUPTI index -> position in reason_names
    SamplingBuffer buffer;  // the configured data buffer; CUPTI writes it until Disable
    bool configured = false;
    PcSamplingOptions configured_with;

    ProfilerError open_once();
    ProfilerError configure(const PcSamplingOptions& options);
    // Adds the records in `buffer` to `by_pc` and the counts to `result`.
    void take_records(detail::ValuesByPc& by_pc, PcSamplingResult& result);
};

ProfilerError PcSampler::State::open_once() {
    ProfilerError error = detail::start_cuda(device);
    CUdevice cu_device = 0;
    if (error.ok()) error = detail::current_context(context, cu_device);
    if (!error.ok()) return error;
    std::uint32_t version = 0;
    TCLENS_CUPTI(cuptiGetVersion(&version));
    if (version < CUPTI_API_VERSION) {
        // CUpti_PCSamplingPCData grew a field in CUPTI 12.4: an older library would write records
        // of another layout into our buffers.
        return profiler_error(ProfilerProblem::kUnsupported,
                              "the CUPTI library found (API version " + std::to_string(version) +
                                  ") is older than the one tclens was built with (" +
                                  std::to_string(CUPTI_API_VERSION) +
                                  "); put the toolkit's libcupti first on LD_LIBRARY_PATH");
    }

    auto enable = pc_params<CUpti_PCSamplingEnableParams>(CUpti_PCSamplingEnableParamsSize);
    enable.ctx = context;
    TCLENS_CUPTI(cuptiPCSamplingEnable(&enable));
    enabled = true;

    std::size_t count = 0;
    auto number = pc_params<CUpti_PCSamplingGetNumStallReasonsParams>(
        CUpti_PCSamplingGetNumStallReasonsParamsSize);
    number.ctx = context;
    number.numStallReasons = &count;
    TCLENS_CUPTI(cuptiPCSamplingGetNumStallReasons(&number));
    if (count == 0) {
        return profiler_error(ProfilerProblem::kUnsupported,
                              "cuptiPCSamplingGetNumStallReasons: this GPU reports no stall "
                              "reasons, so PC sampling cannot say why warps wait");
    }
    std::vector<std::vector<char>> names(count, std::vector<char>(CUPTI_STALL_REASON_STRING_SIZE));
    std::vector<char*> name_pointers;
    for (std::vector<char>& name : names) name_pointers.push_back(name.data());
    reason_indices.assign(count, 0);
    auto reasons =
        pc_params<CUpti_PCSamplingGetStallReasonsParams>(CUpti_PCSamplingGetStallReasonsParamsSize);
    reasons.ctx = context;
    reasons.numStallReasons = count;
    reasons.stallReasonIndex = reason_indices.data();
    reasons.stallReasons = name_pointers.data();
    TCLENS_CUPTI(cuptiPCSamplingGetStallReasons(&reasons));
    for (std::size_t i = 0; i < count; ++i) {
        names[i].back() = '\0';
        reason_names.emplace_back(names[i].data());
        position_of[reason_indices[i]] = i;
    }
    buffer.allocate(count);
    return ProfilerError{};
}

ProfilerError PcSampler::State::configure(const PcSamplingOptions& options) {
    if (configured && configured_with.period_log2 == options.period_log2 &&
        configured_with.scratch_buffer_bytes == options.scratch_buffer_bytes &&
        configured_with.hardware_buffer_bytes == options.hardware_buffer_bytes) {
        return ProfilerError{};
    }
    if (options.period_log2 != 0 && (options.period_log2 < 5 || options.period_log2 > 31)) {
        return profiler_error(ProfilerProblem::kInvalidRequest,
                              "PC sampling period 2^" + std::to_string(options.period_log2) +
                                  " cycles is out of range: the exponent must be 5..31");
    }
    std::vector<CUpti_PCSamplingConfigurationInfo> attributes;
    auto add = [&attributes](CUpti_PCSamplingConfigurationAttributeType type) {
        CUpti_PCSamplingConfigurationInfo info{};
        info.attributeType = type;
        attributes.push_back(info);
        return &attributes.back();
    };
    attributes.reserve(8);
    add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON)->attributeData.stallReasonData = {
        reason_indices.size(), reason_indices.data()};
    if (options.period_log2 != 0) {
        add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD)
            ->attributeData.samplingPeriodData.samplingPeriod =
            static_cast<std::uint32_t>(options.period_log2);
    }
    add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE)
        ->attributeData.scratchBufferSizeData.scratchBufferSize = options.scratch_buffer_bytes;
    add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_HARDWARE_BUFFER_SIZE)
        ->attributeData.hardwareBufferSizeData.hardwareBufferSize = options.hardware_buffer_bytes;
    add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE)
        ->attributeData.collectionModeData.collectionMode =
        CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS;
    add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL)
        ->attributeData.enableStartStopControlData.enableStartStopControl = 1;
    add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_OUTPUT_DATA_FORMAT)
        ->attributeData.outputDataFormatData.outputDataFormat =
        CUPTI_PC_SAMPLING_OUTPUT_DATA_FORMAT_PARSED;
    add(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER)
        ->attributeData.samplingDataBufferData.samplingDataBuffer = &buffer.data;

    auto params = pc_params<CUpti_PCSamplingConfigurationInfoParams>(
        CUpti_PCSamplingConfigurationInfoParamsSize);
    params.ctx = context;
    params.numAttributes = attributes.size();
    params.pPCSamplingConfigurationInfo = attributes.data();
    const ProfilerError error = from_cupti(cuptiPCSamplingSetConfigurationAttribute(&params),
                                           "cuptiPCSamplingSetConfigurationAttribute");
    if (!error.ok()) return error;
    for (const CUpti_PCSamplingConfigurationInfo& attribute : attributes) {
        if (attribute.attributeStatus != CUPTI_SUCCESS) {
            return from_cupti(attribute.attributeStatus,
                              ("cuptiPCSamplingSetConfigurationAttribute (attribute " +
                               std::to_string(static_cast<int>(attribute.attributeType)) + ")")
                                  .c_str());
        }
    }
    configured = true;
    configured_with = options;
    return ProfilerError{};
}

void PcSampler::State::take_records(detail::ValuesByPc& by_pc, PcSamplingResult& result) {
    const CUpti_PCSamplingData& data = buffer.data;
    result.cupti_total_samples = std::max(result.cupti_total_samples, data.totalSamples);
    result.dropped_samples = std::max(result.dropped_samples, data.droppedSamples);
    result.non_user_samples = std::max(result.non_user_samples, data.nonUsrKernelsTotalSamples);
    const std::size_t count = std::min(data.totalNumPcs, buffer.pcs.size());
    for (std::size_t i = 0; i < count; ++i) {
        const CUpti_PCSamplingPCData& pc = data.pPcData[i];
        // CUPTI may share functionName between records and with activity records; it is left to
        // CUPTI rather than freed here (a few bytes per function per profile).
        const std::string function = pc.functionName != nullptr ? pc.functionName : "";
        std::vector<std::uint64_t>& samples = by_pc[{function, pc.pcOffset}];
        samples.resize(reason_names.size(), 0);
        const std::size_t reasons = std::min(pc.stallReasonCount, reason_names.size());
        for (std::size_t r = 0; r < reasons; ++r) {
            const auto position = position_of.find(pc.stallReason[r].pcSamplingStallReasonIndex);
            if (position != position_of.end())
                samples[position->second] += pc.stallReason[r].samples;
        }
    }
}

PcSampler::PcSampler(int device) : state_(std::make_unique<State>()) { state_->device = device; }

PcSampler::~PcSampler() { close(); }

ProfilerError PcSampler::open() {
    return state_->once.open([this] { return state_->open_once(); }, [this] { close(); });
}

void PcSampler::close() {
    if (state_->enabled) {
        auto disable = pc_params<CUpti_PCSamplingDisableParams>(CUpti_PCSamplingDisableParamsSize);
        disable.ctx = state_->context;
        cuptiPCSamplingDisable(&disable);
        state_->enabled = false;
    }
    state_->once.closed();
    state_->configured = false;
    state_->reason_names.clear();
    state_->reason_indices.clear();
    state_->position_of.clear();
}

PcSamplingResult PcSampler::sample(const Workload& workload, const PcSamplingOptions& options) {
    PcSamplingResult result;
    result.period_log2 = options.period_log2;
    auto run = [&]() -> ProfilerError {
        ProfilerError error = open();
        if (!error.ok()) return error;
        result.reasons = state_->reason_names;
        error = state_->configure(options);
        if (!error.ok()) return error;
        error = from_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize before PC sampling");
        if (!error.ok()) return error;
        const auto started = std::chrono::steady_clock::now();
        state_->buffer.clear_counts();
        auto start = pc_params<CUpti_PCSamplingStartParams>(CUpti_PCSamplingStartParamsSize);
        start.ctx = state_->context;
        TCLENS_CUPTI(cuptiPCSamplingStart(&start));
        const std::string failure = detail::run_workload(workload);
        auto stop = pc_params<CUpti_PCSamplingStopParams>(CUpti_PCSamplingStopParamsSize);
        stop.ctx = state_->context;
        const ProfilerError stopped = from_cupti(cuptiPCSamplingStop(&stop), "cuptiPCSamplingStop");
        if (!failure.empty()) {
            return profiler_error(ProfilerProblem::kFailed,
                                  "the sampled workload failed: " + failure);
        }
        if (!stopped.ok()) return stopped;

        // Stop leaves the first records in the configured buffer; GetData hands out the rest.
        detail::ValuesByPc by_pc;
        bool full = state_->buffer.data.hardwareBufferFull != 0;
        state_->take_records(by_pc, result);
        for (int round = 0; round < kMaxDrainRounds; ++round) {
            state_->buffer.clear_counts();
            auto get = pc_params<CUpti_PCSamplingGetDataParams>(CUpti_PCSamplingGetDataParamsSize);
            get.ctx = state_->context;
            get.pcSamplingData = &state_->buffer.data;
            const CUptiResult status = cuptiPCSamplingGetData(&get);
            if (status == CUPTI_ERROR_OUT_OF_MEMORY) {
                full = true;
                break;
            }
            TCLENS_CUPTI(status);
            full = full || state_->buffer.data.hardwareBufferFull != 0;
            state_->take_records(by_pc, result);
            if (state_->buffer.data.remainingNumPcs == 0) break;
        }
        state_->buffer.clear_counts();
        if (full) {
            return profiler_error(
                ProfilerProblem::kFailed,
                "PC sampling's hardware buffer filled up, so samples were lost; sample less often "
                "(a larger period than 2^" +
                    std::to_string(options.period_log2) + " cycles) or run a smaller problem");
        }
        result.records = detail::records_by_pc<PcSampleRecord>(by_pc);
        result.collect_ms = common::ms_since(started);
        return ProfilerError{};
    };
    result.error = run();  // records only when it succeeded
    return result;
}

}  // namespace tclens::profiling
