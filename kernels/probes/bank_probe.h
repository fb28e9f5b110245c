#pragma once
// Bank probe: one warp issues exactly the shared-memory instructions a bank model describes, so
// that a profiler can count their wavefronts (`tclens banks --measure`).
//
// The kernel runs in one block of one warp (32 threads). Every iteration issues each request in
// order: one warp-wide instruction whose lane l uses shared-memory byte address byte_addr[l]
// (relative to the start of the block's dynamic shared memory). The instructions are the SASS
// ones the model prices:
//   kLoad 4/8/16      ld.shared.b32 / .v2.b32 / .v4.b32        -> LDS.32 / LDS.64 / LDS.128
//   kStore 4/8/16     st.shared.b32 / .v2.b32 / .v4.b32        -> STS.32 / STS.64 / STS.128
//   kLdmatrix x1/2/4  ldmatrix.sync.aligned.m8n8.xN[.trans].shared.b16  -> LDSM
//   kCpAsync 16       cp.async.cg.shared.global 16 bytes       -> LDGSTS (source: global memory)
// Each is inline PTX (asm volatile, "memory" clobber) whose address also carries
// `iteration & zero` with zero a kernel argument that is 0 at run time: no compiler pass can
// prove two iterations use the same address, so none can hoist, merge or drop an access, and
// every loaded value feeds a checksum stored to global memory at the end. The kernel touches
// shared memory only through these instructions (no fill, no staging); a run with 0 iterations
// measures whatever the launch itself adds, the baseline to subtract. cp.async groups are
// waited for at the end of every iteration.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tclens::kernels {

enum class SharedAccessKind {
    kLoad,      // LDS
    kStore,     // STS
    kLdmatrix,  // LDSM (ldmatrix)
    kCpAsync,   // LDGSTS (cp.async), global -> shared
};

constexpr int kBankProbeLanes = 32;
constexpr int kBankProbeMaxRequests = 64;
// The most dynamic shared memory a spec may ask for; the GPU may allow less (H100: 227 KiB per
// block with opt-in), which prepare() reports.
constexpr std::int64_t kBankProbeMaxSmemBytes = 256 * 1024;

// One warp-wide instruction.
struct BankProbeRequest {
    // Lane -> byte address in shared memory, aligned to the access width. Entries of lanes
    // outside active_lanes are ignored.
    std::array<std::uint32_t, kBankProbeLanes> byte_addr{};
    // Bit l set: lane l takes part. kLoad/kStore/kCpAsync: the other lanes skip the instruction.
    // kLdmatrix: must be exactly the lanes that supply row addresses (x1: 0-7, x2: 0-15,
    // x4: 0-31); every lane still executes the instruction, as ldmatrix requires.
    std::uint32_t active_lanes = 0xffffffffu;
};

struct BankProbeSpec {
    SharedAccessKind kind = SharedAccessKind::kLoad;
    int access_bytes = 4;     // bytes per lane: 4, 8 or 16 for kLoad/kStore; 16 otherwise
    int matrices = 1;         // kLdmatrix only: 1, 2 or 4 (x1, x2, x4)
    bool transposed = false;  // kLdmatrix only: .trans
    // Dynamic shared memory of the block, 1..kBankProbeMaxSmemBytes; every access must end
    // inside it. Rounded up to 16 bytes when launched.
    std::int64_t smem_bytes = 0;
    std::vector<BankProbeRequest> requests;  // 1..kBankProbeMaxRequests, issued in this order
};

// "" when `spec` is well formed (the rules in the comments above), else one line naming the
// first bad field and what is allowed. Pure; needs no GPU.
std::string check_bank_probe(const BankProbeSpec& spec);

// A prepared probe: its inputs live on the GPU, so run() launches nothing but the kernel (a
// profiler around run() sees only the probe's own work). Not copyable; frees its device memory
// when destroyed. Uses the current CUDA device.
class BankProbe {
  public:
    BankProbe() = default;
    ~BankProbe();
    BankProbe(const BankProbe&) = delete;
    BankProbe& operator=(const BankProbe&) = delete;

    // Checks `spec` (check_bank_probe), checks that the device can give the block smem_bytes of
    // shared memory (opting in above 48 KiB), copies the addresses to the device and runs the
    // kernel once with 1 iteration, so that module loading and any launch error happen here and
    // not inside a profiled region. Returns "" or one line; may be called once. Fails with the
    // reason when this build has no code for the instruction on this GPU (cp.async needs
    // sm_80, ldmatrix sm_75, and a build for an older architecture leaves them out).
    std::string prepare(const BankProbeSpec& spec);

    // True when prepare() failed only because this GPU has less shared memory per block than the
    // spec asks for (a usage problem, not a failure).
    bool too_much_shared_memory() const { return too_much_smem_; }

    // Launches the kernel with `iterations` (>= 0) iterations and waits for it. Returns "" or
    // one line with the CUDA error. Precondition: prepare() returned "".
    std::string run(int iterations);

  private:
    BankProbeSpec spec_;
    bool prepared_ = false;
    bool too_much_smem_ = false;
    std::uint32_t* device_addrs_ = nullptr;   // requests x 32 byte addresses
    std::uint32_t* device_masks_ = nullptr;   // one lane mask per request
    std::uint32_t* device_source_ = nullptr;  // cp.async source: 32 lanes x 16 bytes
    std::uint32_t* device_sink_ = nullptr;    // one checksum per lane, then the "no code" flag
};

}  // namespace tclens::kernels
