#pragma once
// Who else has a CUDA context on a GPU, by NVML (libnvidia-ml.so.1, opened at run time, so the
// worker runs where there is none): what a bench checks before and after it times, so a median
// taken while another program (not a tclens worker: those take turns, gpu_turns.h) held the GPU
// is not reported as if the GPU were idle. NVML counts compute contexts, not work: a program that
// holds a context but runs nothing is counted; graphics (a display server) is not; a program that
// came and went between the two looks is missed.
#include <string>

namespace tclens::worker {

struct GpuNeighbours {
    int others = 0;       // compute processes on the GPU besides this one
    std::string unknown;  // why NVML could not tell ("" when it could); `others` is 0 then
};

// The compute processes with a context on the GPU of PCI bus id `pci_bus_id`, this process (which
// holds one) not counted.
GpuNeighbours gpu_neighbours(const std::string& pci_bus_id);

// "1 other process had a CUDA context on this GPU while it was timed (NVML): times may be slower
// than on an idle GPU"; "" when neither look saw one.
std::string shared_gpu_note(const GpuNeighbours& before, const GpuNeighbours& after);

}  // namespace tclens::worker
