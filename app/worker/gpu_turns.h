#pragma once
// Turns on one GPU across the processes and users of one host (a shared GPU server, each
// student with a worker of their own): work that times or profiles a kernel takes the GPU's turn
// first, so no two tclens workers time or profile one GPU at once (docs/remote.md, "A shared GPU
// server").
//
// In `folder` (default /tmp/tclens-gpu-turns, made mode 1777 like /tmp; symlinks refused):
//   <key>.lock                 the turn: whoever holds its flock holds the GPU; it says who
//                              ("pid user since") while held. The kernel drops a flock when its
//                              holder dies, so a killed worker cannot keep the turn.
//   <key>.t.<ns>.<pid>         one ticket per waiter, flocked by it while it waits: tickets
//                              whose flock is held and whose name sorts first are ahead. A ticket
//                              whose flock can be taken is stale (its waiter died): skipped, and
//                              removed by whoever may (its owner; anyone in a folder without the
//                              sticky bit).
// Files are made mode 0666 whatever the umask, so every user can lock them. TCLENS_GPU_TURNS=off
// turns all this off (a private machine): take() then returns at once, holding nothing.
#include <functional>
#include <string>

namespace tclens::worker {

inline constexpr const char* kGpuTurnsFolder = "/tmp/tclens-gpu-turns";

// Where a waiter stands, as honestly as the files tell.
struct TurnPlace {
    int place = 1;       // 1: next when the turn is free; 2: one waiter ahead ...
    int holder_pid = 0;  // who holds the turn; 0 when unknown (or it is being handed over)
    std::string holder_user;
    double held_s = 0;    // how long the holder has held it
    double waited_s = 0;  // how long this waiter has waited
};

// Called about every `report_s` while waiting; returning false cancels the wait.
using TurnWaiting = std::function<bool(const TurnPlace&)>;

struct TurnOptions {
    std::string folder = kGpuTurnsFolder;
    double report_s = 0.5;
};

class GpuTurn {
  public:
    GpuTurn() = default;  // holds nothing
    GpuTurn(GpuTurn&& other) noexcept;
    GpuTurn& operator=(GpuTurn&& other) noexcept;
    GpuTurn(const GpuTurn&) = delete;
    GpuTurn& operator=(const GpuTurn&) = delete;
    ~GpuTurn();  // gives the turn back

    // Waits in ticket order for the turn on GPU `gpu_key` (a PCI bus id or UUID: any text; it is
    // made a file name) and holds it; "" then, or when TCLENS_GPU_TURNS is "off" (holding
    // nothing). Else one line: the folder or its files cannot be used, or "cancelled" when
    // `waiting` said so. A turn already held is given back first.
    std::string take(const std::string& gpu_key, const TurnWaiting& waiting,
                     const TurnOptions& options = {});

    bool held() const { return lock_fd_ >= 0; }

  private:
    void release();
    int lock_fd_ = -1;
};

// The lock file of GPU `gpu_key`'s turn in `folder` (the file the header describes).
std::string gpu_turn_lock_file(const std::string& gpu_key,
                               const std::string& folder = kGpuTurnsFolder);

// Whether turns are on: TCLENS_GPU_TURNS is unset or anything but "off".
bool gpu_turns_enabled();

// "waiting for the GPU (NVIDIA H200, 0000:06:00.0): 2nd in line, held by pid 1234 (ana) for 12 s"
std::string turn_wait_text(const std::string& gpu, const TurnPlace& place);

}  // namespace tclens::worker
