#!/usr/bin/env bash
# Session 23, second GPU call, two H200s of one host (tree: call 1's + dispatch_candidates, the
# trace profile's kernel names). GPU 0: every configuration rung 14 could pick, timed beside its
# choice and cuBLAS on the presets' shapes where it lost in call 1 and on 16 of the sweep's small
# shapes (tests/gpu/tools/dispatch_candidates.cpp); Nsight Compute --set full on the short-K GEMM
# and on cuBLAS at 9991x6207x24; the traced rung 11's profile (scripts/gpu_trace_ncu.sh).
# GPU 1: the 1000-shape sweep of dispatch.bf16, seed 1, timed behind the stream gate. All in
# $OUT/call2.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call2.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$out/times.txt"
shapes="512x512x512 1024x1024x1024 16x3072x3072 32x3072x3072 64x3072x3072 128x3072x3072
256x3072x3072 512x3072x3072 16x8192x8192 128x8192x8192 128x128x128 256x256x256 768x768x768
64x64x64 277x38x38 128x16x240 480x64x64 23x414x266 64x128x512 41x313x547 3264x64x64
63x546x1301 8167x132x71 624x176x720 64x448x12736 1520x3776x96 8096x656x112 96x512x15216
1568x688x1008"
lane0() {
    # shellcheck disable=SC2086  # the shapes, one argument each
    CUDA_VISIBLE_DEVICES=0 timeout 280 build-gpu/bin/dispatch_candidates bf16 $shapes \
        >"$out/candidates.md" 2>"$out/candidates.err"
    echo "candidates exit $? at $(elapsed) s" >>"$out/times.txt"
    local ncu
    ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
    mkdir -p "$out/short_k_ncu"
    for run in "ours;dispatch.bf16;short_k_gemm" "cublas;cublas.bf16;tensorop"; do
        IFS=';' read -r name kernel regex <<<"$run"
        CUDA_VISIBLE_DEVICES=0 timeout 60 "$ncu" --set full --import-source no -k "regex:$regex" \
            --launch-skip 1 --launch-count 1 -f -o "$out/short_k_ncu/$name" "$t" bench \
            --kernels "$kernel" --mnk 9991x6207x24 --runs 20 --warmup 0 --no-peak \
            >"$out/short_k_ncu/$name.log" 2>&1
        "$ncu" --import "$out/short_k_ncu/$name.ncu-rep" --page details --print-details all \
            >"$out/short_k_ncu/$name.details.txt" 2>&1
        "$ncu" --import "$out/short_k_ncu/$name.ncu-rep" --page source --print-source sass --csv \
            >"$out/short_k_ncu/$name.source.csv" 2>/dev/null
        echo "ncu $name at $(elapsed) s" >>"$out/times.txt"
    done
    local left=$((575 - $(elapsed)))
    [ "$left" -gt 60 ] && CUDA_VISIBLE_DEVICES=0 OUT=$out timeout "$left" scripts/gpu_trace_ncu.sh \
        >"$out/trace_ncu.log" 2>&1
    echo "trace ncu exit $? at $(elapsed) s" >>"$out/times.txt"
}
lane1() {
    local s left
    s=$(date +%s)
    left=$((580 - $(elapsed)))
    CUDA_VISIBLE_DEVICES=1 timeout "$left" "$t" bench --kernels dispatch.bf16 --sweep 1000 \
        --seed 1 --runs 20 --warmup 2 --json >"$out/sweep1000_seed1.json" 2>"$out/sweep_seed1.err"
    echo "gpu 1 sweep seed 1 exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$out/times.txt"
}
lane0 &
lane1 &
wait
"$t" --version >"$out/version.txt" 2>&1
gzip -f "$out/sweep1000_seed1.json" "$out/sweep_seed1.err"
(cd "$out" && tar -czf short_k_ncu.tgz short_k_ncu && rm -rf short_k_ncu)
[ -d "$out/trace_ncu" ] && (cd "$out" && tar -czf trace_ncu.tgz trace_ncu && rm -rf trace_ncu)
tar -czf "$final/call2.tgz" -C "$out" .
cat "$out/times.txt"; cat "$out/candidates.err"; tail -3 "$out/trace_ncu.log"
zcat "$out/sweep1000_seed1.json.gz" | python3 -c 'import json,sys; d=json.load(sys.stdin); print({k: v for k, v in d.get("sweep", {}).items() if k != "worst"})' 2>&1 | tail -1
