#!/usr/bin/env bash
# Fails when a C++/CUDA file of the repository differs from .clang-format: lists each such file
# and the command that fixes it. The ctest entry format.ClangFormat runs it, so the test command
# (scripts/dev.sh test) fails on drift. scripts/dev.sh installs Debian's clang-format (14); a
# machine without it (a GPU server) reports the check as skipped (exit code 77,
# cmake/GoogleTests.cmake).
set -uo pipefail
cd "$(dirname "$0")/.."
formatter=${CLANG_FORMAT:-clang-format}
if ! command -v "$formatter" >/dev/null; then
    echo "skipped: $formatter not found (Debian package clang-format)"
    exit 77
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.cu' '*.cuh')
else
    mapfile -t files < <(find app kernels profiling viz tests bench -type f \
        \( -name '*.cpp' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) | sort)
fi
# One clang-format process for the whole tree; each warning line starts with its file's path.
mapfile -t drift < <("$formatter" --dry-run "${files[@]}" 2>&1 |
    sed -n 's/^\(.*\):[0-9]*:[0-9]*: warning: .*clang-format-violations.*/\1/p' | sort -u)
if [ ${#drift[@]} -gt 0 ]; then
    printf '%s\n' "${drift[@]}"
    echo "tclens: ${#drift[@]} of ${#files[@]} files differ from .clang-format;" \
         "fix: $formatter -i ${drift[*]}" >&2
    exit 1
fi
echo "tclens: ${#files[@]} files match .clang-format"
