#!/usr/bin/env bash
# Copies the header-only libraries and GoogleTest sources that scripts/gpu_check.sh needs into
# .carry/ (git-ignored), from this machine's Debian packages, for a GPU server that lacks them.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .carry
mkdir -p .carry/include/stb
cp -r /usr/include/nlohmann /usr/include/CLI .carry/include/
cp /usr/include/stb/stb_image_write.h /usr/include/stb/stb_image.h \
    /usr/include/stb/stb_easy_font.h .carry/include/stb/
cp -r /usr/src/googletest .carry/googletest
du -sh .carry
