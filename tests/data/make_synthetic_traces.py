#!/usr/bin/env python3
"""Writes tests/data/synthetic_trace_rung9.json and synthetic_trace_rung10.json: made-up warp
traces in the format of `tclens trace --json` (docs/json-formats.md, viz/warp_trace_json.h) for
the Timeline panel's ui tests. SYNTHETIC: no GPU measured these times; they only have the shape
of the two rungs, so the pictures can be checked without one.

Rung 9 (wgmma_tma.bf16): one warpgroup, 4 warps; per K tile warp 0 issues the TMA loads, all
four wait on the full barrier, multiply, then meet at a block barrier: the tensor pipe idles
while the bytes land.
Rung 10 (wgmma_ws.bf16): warp 0 of the producer warpgroup issues loads and waits on empty
barriers; the 8 warps of two consumer warpgroups (4..11) multiply back to back, waiting on a
full barrier only briefly: loads overlap the wgmma.
Two blocks each, on SMs 0 and 1, 8 K tiles, an epilogue and a store at the end."""
import json
import os

K_TILES = 8
HERE = os.path.dirname(os.path.abspath(__file__))


def trace(kernel, warps_per_block, phases):
    return {"kernel": kernel, "m": 256, "n": 256, "k": 64 * K_TILES,
            "blocks_launched": 4, "blocks_traced": 2, "warps_per_block": warps_per_block,
            "wgmma_per_phase": 4, "dropped": 0, "kernel_ms": 0, "untraced_ms": 0,
            "phases": phases}


def rung9():
    phases = []
    for block in range(2):
        for warp in range(4):
            t = 100 * block
            for k in range(K_TILES):
                if warp == 0:
                    phases.append([block, warp, block, "load_issue", k, t, t + 60, 110])
                phases.append([block, warp, block, "full_wait", k, t + 60, t + 400, 620])
                phases.append([block, warp, block, "wgmma", k, t + 400, t + 700, 550])
                phases.append([block, warp, block, "block_sync", k, t + 700, t + 760, 110])
                t += 760
            phases.append([block, warp, block, "epilogue", -1, t, t + 200, 370])
            phases.append([block, warp, block, "store", -1, t + 200, t + 600, 730])
    return trace("wgmma_tma.bf16", 4, phases)


def rung10():
    phases = []
    for block in range(2):
        start = 100 * block
        # Producer: loads run ahead by the 4 stages, then wait for consumers to free a stage.
        t = start
        for k in range(K_TILES):
            if k >= 4:
                phases.append([block, 0, block, "empty_wait", k, t, t + 240, 440])
                t += 240
            phases.append([block, 0, block, "load_issue", k, t, t + 60, 110])
            t += 60
        for warp in range(4, 12):
            t = start + 400
            phases.append([block, warp, block, "full_wait", 0, start, t, 730])
            for k in range(K_TILES):
                if k > 0:
                    phases.append([block, warp, block, "full_wait", k, t, t + 20, 40])
                    t += 20
                phases.append([block, warp, block, "wgmma", k, t, t + 300, 550])
                t += 300
            phases.append([block, warp, block, "epilogue", -1, t, t + 200, 370])
            phases.append([block, warp, block, "store", -1, t + 200, t + 600, 730])
    return trace("wgmma_ws.bf16", 12, phases)


def write(name, document):
    with open(os.path.join(HERE, name), "w") as out:
        json.dump(document, out, separators=(",", ":"))
        out.write("\n")


if __name__ == "__main__":
    write("synthetic_trace_rung9.json", rung9())
    write("synthetic_trace_rung10.json", rung10())
