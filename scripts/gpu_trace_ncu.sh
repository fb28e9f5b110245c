#!/usr/bin/env bash
# After scripts/gpu_check.sh (which builds build-gpu/): Nsight Compute on the persistent rung's
# traced and untraced kernel, to say where the trace's remaining cost goes (issue 34;
# scripts/gpu_trace_overhead.sh measures how much it is). One launch of each of KERNEL (default
# rung 11, wgmma_persistent.bf16; rung 12 is wgmma_streamk.bf16), every block traced, as the
# overhead script traces it, at SIZE (default 4096x4096x4096), the first of its kind after the
# verification launch, with --set full (the
# source counters and warp stall sampling included):
#   $OUT/trace_ncu/{untraced,traced}.ncu-rep     open in the Nsight Compute GUI
#   $OUT/trace_ncu/{untraced,traced}.details.txt --page details: duration, pipes, stall reasons
#   $OUT/trace_ncu/{untraced,traced}.source.csv  per SASS instruction: stall samples by reason
#                                                (where the traced one's %clock reads and record
#                                                stores stall), when this ncu can print it
#   $OUT/trace_ncu/*.log                         ncu's own output
# ncu locks the SM clock at base (--clock-control base, its default), so its durations are not
# the bench's; compare the two reports with each other. Environment: TCLENS (default
# build-gpu/bin/tclens), NCU (default: ncu on PATH or in the CUDA toolkit), KERNEL, SIZE, OUT
# (default gpu-out). Exit 0 when both reports were written, 1 otherwise, 77 without a GPU or ncu.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${OUT:-gpu-out}/trace_ncu
mkdir -p "$out"
tclens=${TCLENS:-build-gpu/bin/tclens}
size=${SIZE:-4096x4096x4096}
kernel=${KERNEL:-wgmma_persistent.bf16}
# The kernel's __global__ function, as ncu names it.
case "$kernel" in
    wgmma_streamk.*) function=stream_k_gemm ;;
    *) function=persistent_gemm ;;
esac
ncu=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu \
    /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)}
if [ ! -x "$tclens" ]; then echo "gpu_trace_ncu: $tclens not built (run scripts/gpu_check.sh)" >&2; exit 1; fi
if ! "$tclens" --version 2>/dev/null | grep -q '^GPU 0:'; then echo "skipped: no GPU"; exit 77; fi
if [ -z "$ncu" ] || [ ! -x "$ncu" ]; then echo "skipped: ncu not found; set NCU=/path/to/ncu"; exit 77; fi

# The blocks the launch runs: every one is traced, as gpu_trace_overhead.sh and the GPU test do.
"$tclens" trace --kernel "$kernel" --mnk "$size" --blocks 1 --json "$out/probe.json" \
    >"$out/probe.log" 2>&1 || { echo "gpu_trace_ncu: tclens trace failed: see $out/probe.log" >&2; exit 1; }
blocks=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["blocks_launched"])' "$out/probe.json")

# name ; the kernel's last template argument (kTraced) as ncu's demangler may print it (this
# ncu: "(bool)0") ; the command that launches it
runs=(
    "untraced;(\\(bool\\)0|false);$tclens bench --kernels $kernel --mnk $size --runs 20 --warmup 0 --no-peak"
    "traced;(\\(bool\\)1|true);$tclens trace --kernel $kernel --mnk $size --blocks $blocks"
)
status=0
for run in "${runs[@]}"; do
    IFS=';' read -r name traced command <<<"$run"
    # shellcheck disable=SC2086  # $command is a command line, split on purpose
    "$ncu" --set full --import-source no --target-processes all --kernel-name-base demangled \
        -k "regex:$function<.*, $traced>(\\(.*)?$" --launch-skip 1 --launch-count 1 \
        -f -o "$out/$name" $command >"$out/$name.log" 2>&1
    if [ ! -f "$out/$name.ncu-rep" ]; then
        echo "gpu_trace_ncu: no $name report: see $out/$name.log" >&2
        status=1
        continue
    fi
    "$ncu" --import "$out/$name.ncu-rep" --page details --print-details all \
        >"$out/$name.details.txt" 2>>"$out/$name.log" ||
        "$ncu" --import "$out/$name.ncu-rep" --page details \
            >"$out/$name.details.txt" 2>>"$out/$name.log"
    "$ncu" --import "$out/$name.ncu-rep" --page source --print-source sass --csv \
        >"$out/$name.source.csv" 2>>"$out/$name.log" ||
        echo "(this ncu prints no source page)" >"$out/$name.source.csv"
done
for name in untraced traced; do
    echo "== $name"
    grep -E '^ +(Duration|Elapsed Cycles|SM Frequency|Compute \(SM\) Throughput|Issue Slots Busy|No Eligible|Executed Ipc Active)' \
        "$out/$name.details.txt" 2>/dev/null | head -8
done
exit "$status"
