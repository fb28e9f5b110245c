#!/usr/bin/env bash
# Session 24, first GPU call, two H200s of one host (tree: session 23's + the consumers' slot
# release moved before their K-tile trace record). GPU 0: every GPU test (ctest -L gpu), odd
# test numbers. GPU 1: the trace overhead (scripts/gpu_trace_overhead.sh); every kernel's
# duration under Nsight Compute for dispatch.bf16 and cuBLAS at three small shapes; --set full on
# rung 9's kernel, the sum of split-K's ranges and cuBLAS's kernels at 512^3 and 128x3072x3072;
# rung 8 against cuBLAS at 4096^3; then the even test numbers of ctest -L gpu. All in
# $OUT/call1.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call1.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$out/times.txt"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
suite() {  # gpu shard(1 or 2): every other test number of ctest -L gpu
    local left=$((585 - $(elapsed)))
    mkdir -p "$out/suite$2"
    CUDA_VISIBLE_DEVICES=$1 TCLENS_RESULTS_DIR="$out/suite$2" timeout "$left" ctest \
        --test-dir build-gpu --output-on-failure -L gpu -LE ui -I "$2,,2" >"$out/suite$2/ctest.log" 2>&1
    echo "gpu $1 suite $2 exit $? at $(elapsed) s" >>"$out/times.txt"
}
durations() {  # gpu shape: every kernel's duration, dispatch.bf16 and cuBLAS
    CUDA_VISIBLE_DEVICES=$1 timeout 90 "$ncu" --metrics gpu__time_duration.sum,launch__grid_size \
        --csv --log-file "$out/ncu/durations_$2.csv" "$t" bench --kernels dispatch.bf16,cublas.bf16 \
        --mnk "$2" --runs 20 --warmup 0 --no-peak >"$out/ncu/durations_$2.log" 2>&1
    echo "durations $2 exit $? at $(elapsed) s" >>"$out/times.txt"
}
full() {  # gpu name kernel shape regex count
    CUDA_VISIBLE_DEVICES=$1 timeout 90 "$ncu" --set full --import-source no -k "regex:$5" \
        --launch-skip 2 --launch-count "$6" -f -o "$out/ncu/$2" "$t" bench --kernels "$3" --mnk "$4" \
        --runs 20 --warmup 0 --no-peak >"$out/ncu/$2.log" 2>&1
    echo "ncu $2 exit $? at $(elapsed) s" >>"$out/times.txt"
    "$ncu" --import "$out/ncu/$2.ncu-rep" --page details --print-details all >"$out/ncu/$2.details.txt" 2>&1
    "$ncu" --import "$out/ncu/$2.ncu-rep" --page source --print-source sass --csv >"$out/ncu/$2.source.csv" 2>/dev/null
}
lane1() {
    OUT=$out BUDGET_S=150 timeout 200 scripts/gpu_trace_overhead.sh >"$out/trace_overhead.log" 2>&1
    echo "trace overhead exit $? at $(elapsed) s" >>"$out/times.txt"
    mkdir -p "$out/ncu"
    for shape in 512x512x512 128x3072x3072 16x8192x8192; do durations 1 "$shape"; done
    full 1 rung9_512 dispatch.bf16 512x512x512 "wgmma_tma_gemm" 1
    full 1 splitk_128x3072 dispatch.bf16 128x3072x3072 "wgmma_tma_gemm|sum_ranges" 2
    full 1 cublas_512 cublas.bf16 512x512x512 "^(nvjet|Kernel|splitK|sm90|cutlass)" 2
    full 1 cublas_128x3072 cublas.bf16 128x3072x3072 "^(nvjet|Kernel|splitK|sm90|cutlass)" 2
    CUDA_VISIBLE_DEVICES=1 timeout 60 "$t" bench --kernels mma_cp_async.bf16,cublas.bf16 \
        --mnk 4096x4096x4096 --runs 50 --warmup 5 --json >"$out/rung8_4096.json" 2>"$out/rung8_4096.err"
    echo "rung 8 exit $? at $(elapsed) s" >>"$out/times.txt"
    suite 1 2
}
suite 0 1 &
lane1 &
wait
"$t" --version >"$out/version.txt" 2>&1
(cd "$out" && tar -czf ncu.tgz ncu && rm -rf ncu)
gzip -f "$out"/suite*/ctest.log
tar -czf "$final/call1.tgz" -C "$out" .
cat "$out/times.txt"
for s in 1 2; do zcat "$out/suite$s/ctest.log.gz" | grep -E "tests passed|\(Failed\)|\*\*\*Failed|Timeout|Not Run" | head -12; done
tail -12 "$out/trace_overhead.md" 2>/dev/null
