#!/usr/bin/env bash
# Session 29, third GPU call, one H200: the cluster sum of call 1 with its exchange and sum as
# loops over groups (call 2: the fully unrolled code spent most of its time on instruction
# fetch). Rung 14's GPU tests (the cluster sum bit for bit against the second kernel's in every
# tile), dispatch_candidates on call 1's shapes, then the presets three times.
# All in $OUT/call3.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call3.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
"$t" --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 timeout 90 build-gpu/bin/gpu_tests \
    --gtest_filter='Dispatch/*:DispatchOnGpu.*' >"$out/verify.log" 2>&1
echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 timeout 170 stdbuf -oL build-gpu/bin/dispatch_candidates bf16 \
    64x3072x3072 128x3072x3072 256x3072x3072 512x3072x3072 16x3072x3072 32x3072x3072 \
    16x8192x8192 128x8192x8192 1024x1024x1024 768x320x15552 200x200x3000 48x2048x4096 \
    144x5936x13776 224x3536x14896 432x16x7696 48x512x4096 14199x28x4767 \
    >"$out/candidates.md" 2>"$out/candidates.err"
echo "candidates exit $? at $(elapsed) s" >>"$out/times.txt"
for i in 1 2 3; do
    CUDA_VISIBLE_DEVICES=0 timeout 40 "$t" bench --kernels dispatch.bf16 \
        --preset square,lab6,llm --runs 20 --warmup 2 --seed "$i" --json >"$out/presets_$i.json" 2>/dev/null
    echo "presets $i exit $? at $(elapsed) s" >>"$out/times.txt"
done
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
square='regex:wgmma_tma_gemm.*WgmmaTmaConfigILi128ELi128ELi4ELi16ELi1EEELb0ELb[01]E'
small='regex:wgmma_tma_gemm.*WgmmaTmaConfigILi64ELi64ELi6ELi16ELi2EEELb0ELb[01]E'
for shape in 1024x1024x1024:$square 128x3072x3072:$small; do
    mnk=${shape%%:*}; k=${shape#*:}
    CUDA_VISIBLE_DEVICES=0 timeout 60 "$ncu" --kernel-name-base mangled -k "$k" --csv --page raw \
        --metrics gpu__time_duration.sum,launch__grid_size,launch__cluster_dim_y,sm__cycles_active.avg \
        build-gpu/bin/dispatch_candidates bf16 "$mnk" >"$out/durations_$mnk.csv" 2>/dev/null
    echo "durations $mnk exit $? at $(elapsed) s" >>"$out/times.txt"
done
gzip -f "$out/verify.log" "$out"/durations_*.csv
python3 scripts/bench_median.py "$out/presets_median.json" "$out"/presets_[123].json >/dev/null 2>&1
tar -czf "$final/call3.tgz" -C "$out" .
cat "$out/times.txt"; zcat "$out/verify.log.gz" | grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran|Failure|expected|Which is" | head -30
python3 - "$out/candidates.md" <<'PY'
import sys
rows = {}
for line in open(sys.argv[1]):
    f = [x.strip() for x in line.strip().strip("|").split("|")]
    if len(f) < 4 or f[0] in ("shape", "---") or f[3] in ("-", ""):
        continue
    rows.setdefault(f[0], []).append((float(f[3]), f[1]))
for shape, r in rows.items():
    r14 = [x for x in r if x[1].startswith("rung 14")]
    best = sorted((x for x in r if not x[1].startswith(("rung 14", "cuBLAS"))), reverse=True)[:6]
    print(shape, "rung14 %.1f" % r14[0][0] if r14 else "", "|", "; ".join("%s %.1f" % (n, p) for p, n in best))
    named = {n: p for p, n in r}
    print("   pairs:", " ".join("%s %.0f->%.0f" % (n[7:-8], named[n[:-8]], p) for p, n in r
                                if n.endswith(" cluster") and n[:-8] in named))
PY
python3 scripts/bench_table.py --best16 "$out/presets_median.json" 2>&1 | head -40
