#!/usr/bin/env bash
# Copies the header-only libraries, zlib and GoogleTest sources that scripts/gpu_check.sh needs into
# .carry/ (git-ignored), from this machine's Debian packages, for a GPU server that lacks them;
# Dear ImGui's headers and static library, for the headless GUI there (tclens headless); and the
# checkout's commit (.carry/source_commit.txt), which `tclens --version` built there prints.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .carry
mkdir -p .carry/include/stb
cp -r /usr/include/nlohmann /usr/include/CLI .carry/include/
cp /usr/include/stb/stb_image_write.h /usr/include/stb/stb_image.h \
    /usr/include/stb/stb_easy_font.h .carry/include/stb/
cp -r /usr/src/googletest .carry/googletest
# zlib (recordings read and write gzip, common/gzip.h): its two headers and static library.
mkdir -p .carry/zlib
cp /usr/include/zlib.h /usr/include/zconf.h .carry/include/
cp /usr/lib/x86_64-linux-gnu/libz.a .carry/zlib/
mkdir -p .carry/imgui/include .carry/imgui/lib
cp /usr/include/imgui/*.h .carry/imgui/include/
cp /usr/lib/x86_64-linux-gnu/libimgui.a /usr/lib/x86_64-linux-gnu/libstb.a .carry/imgui/lib/
# The commit of this checkout, for a copy of it without .git (cmake/SourceCommit.cmake reads it).
cmake -D SOURCE_DIR="$PWD" -D STAMP=1 -P cmake/SourceCommit.cmake >.carry/source_commit.txt 2>&1
echo "source commit: $(head -1 .carry/source_commit.txt)"
du -sh .carry
