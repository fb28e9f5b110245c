#include <cuda_runtime.h>

#include <vector>

#include "kernels/cuda_util.h"
#include "kernels/trace_capture.h"
#include "kernels/trace_decode.h"

namespace tclens::kernels {

TraceCapture capture_trace(GemmRunner& runner, const KernelDescriptor& kernel,
                           const GemmProblem& problem, int blocks, const RunOptions& options) {
    TraceCapture capture;
    if (!kernel.traced.launch) {
        capture.error = missing_launch_text(kernel.id + " traced");
        return capture;
    }
    capture.untraced = runner.run(kernel, problem, options);
    if (!capture.untraced.counts()) {
        capture.error = kernel.id + " untraced: " + run_status(capture.untraced);
        return capture;
    }

    const TracedShape shape = kernel.traced.shape(problem);
    TraceSink sink;
    sink.blocks = blocks;
    sink.warps_per_block = shape.warps_per_block;
    sink.records_per_warp = trace_records_per_warp(kernel, problem);
    const std::size_t warps = static_cast<std::size_t>(blocks) * sink.warps_per_block;
    const std::size_t records = warps * static_cast<std::size_t>(sink.records_per_warp);
    DeviceBuffer record_buffer;
    DeviceBuffer count_buffer;
    cudaError_t status =
        record_buffer.allocate(static_cast<std::int64_t>(records * sizeof(TraceRecord)));
    if (status == cudaSuccess) {
        status = count_buffer.allocate(static_cast<std::int64_t>(warps * sizeof(std::uint32_t)));
    }
    sink.records = static_cast<TraceRecord*>(record_buffer.get());
    sink.counts = static_cast<std::uint32_t*>(count_buffer.get());
    if (status == cudaSuccess) status = cudaMemset(sink.counts, 0, warps * sizeof(std::uint32_t));
    if (status != cudaSuccess) {
        capture.error = "trace buffers: " + cuda_text(status);
        return capture;
    }

    // The runner verifies and times this descriptor like any other: its launch is the traced one.
    KernelDescriptor traced = kernel;
    const TraceSink bound = sink;
    traced.launch = [launch = kernel.traced.launch, bound](const GemmOperands& operands,
                                                           cudaStream_t stream) {
        return launch(operands, bound, stream);
    };
    capture.traced = runner.run(traced, problem, options);
    if (!capture.traced.counts()) {
        capture.error = kernel.id + " traced: " + run_status(capture.traced);
        return capture;
    }

    std::vector<TraceRecord> host_records(records);
    std::vector<std::uint32_t> counts(warps);
    status = cudaMemcpy(host_records.data(), sink.records, records * sizeof(TraceRecord),
                        cudaMemcpyDeviceToHost);
    if (status == cudaSuccess) {
        status = cudaMemcpy(counts.data(), sink.counts, warps * sizeof(std::uint32_t),
                            cudaMemcpyDeviceToHost);
    }
    if (status != cudaSuccess) {
        capture.error = "reading the trace back: " + cuda_text(status);
        return capture;
    }
    viz::WarpTrace& trace = capture.trace;
    trace.kernel = kernel.id;
    trace.m = problem.m;
    trace.n = problem.n;
    trace.k = problem.k;
    trace.blocks_launched = static_cast<int>(shape.grid_blocks);
    trace.blocks_traced = blocks;
    trace.warps_per_block = shape.warps_per_block;
    trace.wgmma_per_phase = kernel.traced.wgmma_per_phase;
    trace.kernel_ms = capture.traced.median_ms;
    trace.untraced_ms = capture.untraced.median_ms;
    capture.error = decode_trace(host_records, counts, sink, trace);
    return capture;
}

}  // namespace tclens::kernels
