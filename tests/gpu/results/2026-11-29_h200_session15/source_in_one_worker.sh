#!/usr/bin/env bash
# The experiment of README.md: requests sent to one `tclens worker` (built by gpu_check.sh into
# build-gpu/), each worker's answers summarised by summarise.py (PC samples, counted executions).
set -u
cd "$(dirname "$0")/../../../.."
T=build-gpu/bin/tclens
S=2048x2048x2048
here=tests/gpu/results/2026-11-29_h200_session15
run_worker() {  # NAME REQUEST...: one worker, hello, the requests, shutdown
    local name=$1 i=2
    shift
    {
        echo '{"id":1,"type":"hello","protocol":1}'
        for r in "$@"; do echo "{\"id\":$i,$r}"; i=$((i + 1)); done
        echo '{"id":99,"type":"shutdown"}'
    } | timeout 300 $T worker >"$OUT/$name.jsonl" 2>"$OUT/$name.err"
    echo "== $name (rc $?)"
    python3 "$here/summarise.py" "$OUT/$name.jsonl"
}
src() { echo "\"type\":\"source\",\"kernel\":\"$1\",\"problem\":\"$S\""; }
prof() { echo "\"type\":\"profile\",\"kernel\":\"$1\",\"problem\":\"$S\",\"metrics\":[\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"dram__throughput.avg.pct_of_peak_sustained_elapsed\"],\"drop_unavailable\":true"; }
tl() { echo "\"type\":\"profile\",\"kernel\":\"$1\",\"problem\":\"$S\",\"timeline\":{\"duration_ms\":200}"; }
K1=mma_cp_async.f16 K2=wgmma_ws.bf16 K3=smem_tiled.f32
run_worker three_sources "$(src $K1)" "$(src $K2)" "$(src $K3)"
run_worker source_twice "$(src $K1)" "$(src $K1)"
run_worker profile_then_source "$(prof $K1)" "$(src $K1)"
run_worker timeline_then_source "$(tl $K1)" "$(src $K1)"
run_worker profile_source_source "$(prof $K1)" "$(src $K1)" "$(src $K2)"
run_worker source_profile_source "$(src $K1)" "$(prof $K1)" "$(src $K2)"
