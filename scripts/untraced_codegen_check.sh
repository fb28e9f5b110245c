#!/usr/bin/env bash
# Checks that trace points (kernels/trace.cuh) leave the timed kernels alone: compiles each traced
# rung (and rung 13, which shares rung 11's kernel) to a cubin from git ref REF (default main) and
# from the working tree, and compares the .text section of every untraced kernel of REF byte for
# byte with the working tree's (kTraced false: a template argument "Lb0E" that REF may not have
# yet; the file's unnamed-namespace hash, which differs per source, masked). Traced
# instantiations ("Lb1E") are not compared.
# Usage: scripts/untraced_codegen_check.sh [REF] [ARCH] (default main sm_90a). Prints SAME, DIFF
# or MISSING per kernel of REF; exit 1 on any DIFF or MISSING.
set -euo pipefail
cd "$(dirname "$0")/.."
ref=${1:-main}
arch=${2:-sm_90a}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ref"
git archive "$ref" kernels viz common | tar -x -C "$work/ref"
status=0
for name in 08_mma_cp_async 09_wgmma_tma 10_wgmma_warp_specialized 11_wgmma_persistent \
    12_wgmma_stream_k 13_wgmma_fp8; do
    "$nvcc" -I"$work/ref" -O2 -DNDEBUG -std=c++17 -cubin -arch="$arch" \
        "$work/ref/kernels/$name.cu" -o "$work/$name.ref.cubin"
    "$nvcc" -I. -O2 -DNDEBUG -std=c++17 -cubin -arch="$arch" "kernels/$name.cu" \
        -o "$work/$name.tree.cubin"
    python3 - "$work/$name.ref.cubin" "$work/$name.tree.cubin" <<'PY' || status=1
import re, sys
sys.path.insert(0, 'scripts')
from cubin_text import text_sections
def untraced(sections):
    return {re.sub(r'Lb0E(EEv)', r'\1', k): v for k, v in sections.items()
            if not re.search(r'Lb1EEEv', k)}
ref, tree = untraced(text_sections(sys.argv[1])), untraced(text_sections(sys.argv[2]))
ok = True
for key, digest in ref.items():
    verdict = 'SAME' if tree.get(key) == digest else ('DIFF' if key in tree else 'MISSING')
    ok = ok and verdict == 'SAME'
    print(verdict, key[:110])
sys.exit(0 if ok else 1)
PY
done
exit $status
