#pragma once
// Holds a stream at one point until the host opens the gate, so that the work enqueued behind it
// runs back to back on the GPU whatever the host does meanwhile (nvbench's "blocking kernel").
// Two events recorded behind a closed gate then measure GPU time only: no gap from a host thread
// that was descheduled, or blocked in the driver by another thread (a PM-sampling decode thread),
// while it was still enqueuing the launches.
//
// Use: close(stream) -> enqueue at most kMaxGatedLaunches launches -> open(). Enqueuing more
// could fill the launch queue and block the host before it opens the gate; the waiting kernel
// gives up after its time-out in any case (kGateTimeoutNs unless close() is given another), so a
// forgotten open() costs time, not a hang. The destructor opens the gate and frees the flag once
// the device is done with it (cudaFreeHost waits for the device).

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

namespace tclens::kernels {

class StreamGate {
  public:
    static constexpr int kMaxGatedLaunches = 256;
    static constexpr std::uint64_t kGateTimeoutNs = 5'000'000'000;  // 5 s

    StreamGate() = default;
    ~StreamGate();
    StreamGate(const StreamGate&) = delete;
    StreamGate& operator=(const StreamGate&) = delete;

    // Enqueues a one-thread kernel on `stream` that waits until open(); allocates the mapped
    // host flag on first use. "" or the CUDA error.
    std::string close(cudaStream_t stream);
    // The same with its own time-out: the gate opens by itself after `timeout_ns`.
    std::string close(cudaStream_t stream, std::uint64_t timeout_ns);
    // Releases the waiting kernel.
    void open();

  private:
    volatile int* host_flag_ = nullptr;  // pinned, mapped into the device's address space
    int* device_flag_ = nullptr;
};

}  // namespace tclens::kernels
