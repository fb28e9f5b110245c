#!/usr/bin/env bash
cd /work/main
start=$(date +%s)
xvfb-run -a -n 400 /tmp/b/bin/tclens --open assets/recordings/h100.json --tour-autoplay 2 --frames 30000 --frame-stats > /tmp/soak/app.out 2> /tmp/soak/app.err &
sleep 3
pid=$(pgrep -f "^/tmp/b/bin/tclens --open" | head -1)
echo "t_s,rss_kb" > /tmp/soak/rss.csv
while kill -0 $pid 2>/dev/null; do
  echo "$(( $(date +%s) - start )),$(grep VmRSS /proc/$pid/status | awk '{print $2}')" >> /tmp/soak/rss.csv
  sleep 30
done
wait
echo "exit=$? after $(( $(date +%s) - start )) s" >> /tmp/soak/app.out
