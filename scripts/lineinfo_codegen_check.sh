#!/usr/bin/env bash
# Checks that -lineinfo leaves the ladder's code alone: compiles every rung to a cubin with and
# without it and compares each function's .text section byte for byte (the ELF is read by the
# Python below, so no cuobjdump is needed). Usage: scripts/lineinfo_codegen_check.sh [ARCH]
# (default sm_90a). Prints SAME/DIFF per rung; exit 1 on any difference.
set -euo pipefail
cd "$(dirname "$0")/.."
arch=${1:-sm_90a}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for source in kernels/[0-9][0-9]_*.cu; do
    name=$(basename "$source" .cu)
    "$nvcc" -I. -O2 -DNDEBUG -std=c++17 -cubin -arch="$arch" "$source" -o "$work/$name.plain.cubin"
    "$nvcc" -I. -O2 -DNDEBUG -std=c++17 -cubin -arch="$arch" -lineinfo "$source" \
        -o "$work/$name.lineinfo.cubin"
    python3 - "$work/$name.plain.cubin" "$work/$name.lineinfo.cubin" "$name" <<'PY' || status=1
import sys
sys.path.insert(0, 'scripts')
from cubin_text import text_sections
plain, lined = text_sections(sys.argv[1]), text_sections(sys.argv[2])
print('%s %s: %d functions' % ('SAME' if plain == lined else 'DIFF', sys.argv[3], len(plain)))
sys.exit(0 if plain == lined else 1)
PY
done
exit $status
