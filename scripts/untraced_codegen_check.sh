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
import hashlib, re, struct, sys
def text_sections(path):
    data = open(path, 'rb').read()
    offset, = struct.unpack_from('<Q', data, 0x28)
    size, count, names_index = struct.unpack_from('<HHH', data, 0x3A)
    headers = [struct.unpack_from('<IIQQQQIIQQ', data, offset + i * size) for i in range(count)]
    table = headers[names_index]
    names = data[table[4]:table[4] + table[5]]
    sections = {}
    for h in headers:
        name = names[h[0]:names.index(b'\0', h[0])].decode()
        if name.startswith('.text.'):
            key = re.sub(r'_GLOBAL__N__[0-9a-f]+_', '_GLOBAL__N__', name[len('.text.'):])
            sections[key] = hashlib.sha256(data[h[4]:h[4] + h[5]]).hexdigest()
    return sections
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
