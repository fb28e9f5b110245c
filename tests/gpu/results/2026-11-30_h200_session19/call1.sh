#!/usr/bin/env bash
# Session 19, first GPU call (tree: main at the session's start, 08cbc4b): rung 11's intermittent
# wrong C at 9136x3680x80 (session 18, call 3) looked at from every side: how often, at which
# K, which tiles (error map), and compute-sanitizer's racecheck/synccheck on a small persistent
# shape with the same partial second K tile; then rung 8's Nsight Compute profile at 4096^3
# (issue 34: 480 TFLOP/s or the profile that says why not), tarred so that it comes back.
set -u
out=${OUT:-gpu-out}
work=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens" OUT=$work scripts/gpu_check.sh >"$work/build.log" 2>&1 || {
    tar -czf "$out/call1.tgz" -C "$work" .; exit 1; }
t=build-gpu/bin/tclens
export PATH=/usr/local/cuda/bin:$PATH
echo "built at $(elapsed) s" >>"$work/times.txt"
bench1() {  # kernel mnk seed: one line "kernel mnk seed rel_error verified"
    $t bench --kernels "$1" --mnk "$2" --runs 20 --warmup 0 --no-peak --no-reference --seed "$3" --json 2>/dev/null |
        python3 -c 'import json,sys
d=json.load(sys.stdin)
for r in d["results"]: print(sys.argv[1], sys.argv[2], sys.argv[3], r.get("rel_rms_error"), r.get("input_sets"), r.get("verified"), r.get("error",""))' "$1" "$2" "$3"
}
# 1. How often, at the session-18 shape, and at K = 16..208 around it (one to four K tiles).
for seed in $(seq 1 12); do bench1 wgmma_persistent.bf16 9136x3680x80 $seed; done >>"$work/r11_repeat.txt" 2>&1
echo "repeat at $(elapsed) s" >>"$work/times.txt"
for k in 16 48 64 112 128 144 208; do
    for seed in 1 2 3 4; do bench1 wgmma_persistent.bf16 9136x3680x$k $seed; done
done >>"$work/r11_k.txt" 2>&1
for mnk in 2048x2048x80 4096x4096x80 9136x3680x4096; do
    for seed in 1 2 3 4; do bench1 wgmma_persistent.bf16 $mnk $seed; done
done >>"$work/r11_k.txt" 2>&1
for seed in 1 2 3 4 5 6; do bench1 wgmma_persistent.f16 9136x3680x80 $seed; bench1 wgmma_fp8.e4m3 9136x3680x80 $seed; done >>"$work/r11_other.txt" 2>&1
echo "shapes at $(elapsed) s" >>"$work/times.txt"
# 2. Where: the error map of the first failing run among 12 seeds.
for seed in $(seq 20 31); do
    $t bench --kernels wgmma_persistent.bf16 --mnk 9136x3680x80 --runs 20 --warmup 0 --no-peak \
        --no-reference --seed $seed --error-map "$work/r11_error_map_$seed.png" >>"$work/r11_map.txt" 2>&1
    [ -f "$work/r11_error_map_$seed.png" ] && break
done
echo "map at $(elapsed) s" >>"$work/times.txt"
# 3. compute-sanitizer on a persistent shape with a partial second K tile (176 tiles > 132 SMs).
for tool in racecheck synccheck; do
    timeout 150 compute-sanitizer --tool $tool --print-limit 40 $t bench --kernels wgmma_persistent.bf16 \
        --mnk 2048x2048x80 --runs 20 --warmup 0 --no-peak --no-reference --time-limit 140 \
        >"$work/sanitize_$tool.txt" 2>&1
    echo "sanitize $tool exit $? at $(elapsed) s" >>"$work/times.txt"
done
# 4. Rung 8 at 4096^3 under Nsight Compute (one timed launch, full set).
timeout 150 ncu --set full -k regex:mma_cp_async -c 1 --launch-skip 3 -o "$work/rung8_4096" \
    $t bench --kernels mma_cp_async.bf16 --mnk 4096x4096x4096 --runs 20 --no-peak --no-reference \
    >"$work/rung8_ncu.log" 2>&1
echo "ncu exit $? at $(elapsed) s" >>"$work/times.txt"
ncu --import "$work/rung8_4096.ncu-rep" --page details >"$work/rung8_4096_details.txt" 2>&1
ncu --import "$work/rung8_4096.ncu-rep" --page raw --csv >"$work/rung8_4096_raw.csv" 2>&1
$t bench --kernels mma_cp_async.bf16,cublas.bf16 --mnk 4096x4096x4096 --runs 200 >"$work/rung8_bench.txt" 2>&1
$t --version >"$work/version.txt" 2>&1
nvidia-smi >"$work/nvidia_smi.txt" 2>&1
tar -czf "$out/call1.tgz" -C "$work" .
cat "$work/times.txt"; cat "$work/r11_repeat.txt"
