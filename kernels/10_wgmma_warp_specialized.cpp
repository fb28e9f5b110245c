// Rung 10's descriptor (its kernel and launch: 10_wgmma_warp_specialized.cu).
#include "kernels/10_wgmma_warp_specialized.h"

#include <string>

#include "kernels/block_order.h"
#include "kernels/ladder.h"
#include "kernels/sixteen_bit_rung.h"
#include "kernels/tma_rung_descriptor.h"
#include "kernels/tma_tile_limits.h"

namespace tclens::kernels {

using namespace wgmma_warp_specialized;

// kF16 and kBF16 give "wgmma_ws.f16" / ".bf16", both ChosenWarpSpecializedConfig; any other
// precision a descriptor that refuses every problem (set_sixteen_bit_inputs).
KernelDescriptor wgmma_warp_specialized_kernel(Precision precision) {
    using C = ChosenWarpSpecializedConfig;
    const std::string n = std::to_string(C::kWgmmaN);
    KernelDescriptor d;
    d.rung = 10;
    d.title = "warp-specialised TMA producer + 2 wgmma m64n" + n + "k16 consumers, " +
              std::to_string(C::kBlockM) + " x " + std::to_string(C::kBlockN) + " tiles";
    d.adds =
        "a producer warpgroup issuing TMA and two consumer warpgroups, full/empty mbarrier "
        "pairs per stage, setmaxnreg " +
        std::to_string(hopper::kProducerRegisters) + "/" +
        std::to_string(hopper::kConsumerRegisters) + ", " + std::to_string(C::kGroupM) +
        "-row raster bands";
    describe_tma_rung<C>(d, 1, C::kConsumers, 16);  // warpgroup 0 is the producer
    d.schedule.raster = viz::RasterOrder::kColumnBands;
    d.schedule.raster_group = C::kGroupM;
    d.schedule.load_instruction = "TMA 2-D box (cp.async.bulk.tensor) from the producer";
    d.schedule.pipeline_note = "the producer refills a stage as soon as all " +
                               std::to_string(C::kConsumers * 4) +
                               " consumer warps release it (empty mbarrier); no block-wide barrier";
    d.block_tile_of = config_block_tile<C>;
    set_sixteen_bit_inputs(d, precision, "wgmma_ws", tma_tile_can_run<C>);
    // Per K tile the producer's thread 0 waits on an empty barrier and issues; each consumer
    // warp waits on a full barrier and multiplies. Outside the loop: epilogue and store.
    describe_tma_trace<C>(d, C::kSteps, 2, 2);
    return d;
}

}  // namespace tclens::kernels
