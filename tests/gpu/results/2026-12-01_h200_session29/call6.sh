#!/usr/bin/env bash
# Session 29, sixth GPU call, one H200, rung 14 as session 28 left it: dispatch_candidates
# (every configuration verified, then timed beside same-run cuBLAS) on two classes whose rules
# calls 1 and 5 questioned:
#   - M <= 64 over 16-22 tiles of 64 x 128 (kFewRowsMinTiles = 16 keeps 64 x 128 from 16 tiles;
#     48x2048x4096 ran 64 x 64 split 4 at 107 / 102 % against 98 / 94 on 64 x 128);
#   - M of 129-256 over a deep K, where rung 14 runs 64 x 128 tiles (split or not) or 128 x 128
#     unsplit (224x3536x14896: 64 x 128 split 2 at 60 % against 84 on 128 x 128 split 2;
#     144x5936x13776: 128 x 128 at 47 against 61 on 64 x 128).
# All in $OUT/call6.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call6.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
few="16x2048x4096 48x2048x4096 64x2048x4096 16x2304x4096 48x2304x4096 64x2304x4096
     16x2560x4096 48x2560x4096 64x2560x4096 16x2816x4096 48x2816x4096 64x2816x4096
     32x2048x2048 32x2560x8192"
deep="144x5936x13776 176x5936x13776 208x5936x13776 240x5936x13776
      144x3536x14896 176x3536x14896 208x3536x14896 240x3536x14896
      144x4096x4096 176x4096x4096 208x4096x4096 240x4096x4096
      144x2048x8192 176x2048x8192 208x2048x8192 240x2048x8192 256x4096x8192 192x3072x6144"
CUDA_VISIBLE_DEVICES=0 timeout 200 stdbuf -oL build-gpu/bin/dispatch_candidates bf16 $few $deep \
    >"$out/candidates.md" 2>"$out/candidates.err"
echo "candidates exit $? at $(elapsed) s" >>"$out/times.txt"
tar -czf "$final/call6.tgz" -C "$out" .
cat "$out/times.txt"
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
    best = sorted((x for x in r if not x[1].startswith(("rung 14", "cuBLAS"))), reverse=True)[:4]
    print(shape, "r14 %.1f" % r14[0][0] if r14 else "", "|", "; ".join("%s %.1f" % (n[7:], p) for p, n in best))
PY
