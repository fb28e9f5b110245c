#!/usr/bin/env bash
# 30-minute GUI soak under Xvfb with no GPU: the shipped recording open and a tour that visits
# every view every 16 s. Run from the repository root with the GUI built in BUILD (default build).
# Writes app_output.txt and rss.csv (resident memory every 30 s) next to this script.
set -u
here=$(dirname "$0")
binary=${BUILD:-build}/bin/tclens
start=$(date +%s)
xvfb-run -a -n 400 "$binary" --open assets/recordings/h100.json --tour "$here/all_views_tour.json" \
    --tour-autoplay 2 --seconds 1830 --frame-stats > "$here/app_output.txt" 2>&1 &
sleep 3
pid=$(pgrep -f "^$binary --open" | head -1)
echo "t_s,rss_kb" > "$here/rss.csv"
while kill -0 "$pid" 2>/dev/null; do
    echo "$(( $(date +%s) - start )),$(awk '/VmRSS/ {print $2}' /proc/$pid/status)" >> "$here/rss.csv"
    sleep 30
done
wait
echo "exit=$? after $(( $(date +%s) - start )) s" >> "$here/app_output.txt"
