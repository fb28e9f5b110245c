#!/bin/sh
# A stand-in for `tclens worker` in CPU tests of the CLI (tests/e2e/app/cli/): it speaks just
# enough of docs/worker-protocol.md to answer hello and load (a kernel "yours.scripted", loaded),
# then does to the first request that runs kernels (bench, profile, source, trace, bank_measure,
# layout_verify, clock_skew) what $SCRIPTED_WORKER says:
#   crash    dies of SIGSEGV            hang     never answers
#   garbage  writes a line that is no protocol
#   fault    answers an error of kind "fault" and exits 1
# With SCRIPTED_BENCH (SCRIPTED_PROFILE, SCRIPTED_EXERCISE, SCRIPTED_SOURCE, SCRIPTED_TRACE,
# SCRIPTED_BANK_MEASURE, SCRIPTED_LAYOUT_VERIFY, SCRIPTED_CLOCK_SKEW) naming a file that holds a bench (profile,
# exercise, source, trace, bank_measure, layout_verify, clock_skew) result object on one line, such a
# request gets that result instead (the GUI's CPU ui tests: tests/data/make_user_fixtures.py
# writes them; the CLI's source and trace tests write their own). A live_profile request streams
# the update in SCRIPTED_LIVE_UPDATE (below) until the client's stop. Every other request gets a
# protocol error. With SCRIPTED_LOG naming a file, the type of each request is appended to it as it comes
# (tests wait for a request instead of a time). With SCRIPTED_SYSTEM naming a file that holds
# device JSON (as tclens device --json) on one line, hello names those GPUs instead of none; with
# SCRIPTED_MIXES naming a file that holds a JSON array of instruction mixes
# (profiling/recorded_mix.h entries) on one line, hello carries them as its build's census
# ("instruction_mixes"; without it, none, as a worker of an earlier tclens). It
# exists because loading a real kernel needs a
# GPU, and the CLI's reporting of a broken worker must be tested without one.
# Usage: tclens bench --kernel any.cu --worker 'SCRIPTED_WORKER=crash sh tests/data/scripted_worker.sh'

system='{"devices":[],"driver_cuda_version":0,"driver_version":"","gpu_found":false,"no_gpu_reason":"scripted","runtime_version":13000}'
[ -n "$SCRIPTED_SYSTEM" ] && system=$(cat "$SCRIPTED_SYSTEM")
mixes=""
[ -n "$SCRIPTED_MIXES" ] && mixes=',"instruction_mixes":'$(cat "$SCRIPTED_MIXES")',"instruction_mixes_missing":""'
descriptor='{"id":"yours.scripted","rung":0,"title":"yours: scripted","adds":"","precision":"f32","accumulate":"f32","block_tile":{"m":0,"n":0,"k":0},"warp_tile":{"m":0,"n":0,"k":0},"thread_tile":{"m":0,"n":0,"k":0},"mma_tile":{"m":0,"n":0,"k":0},"stages":1,"swizzle":"","layout_ids":[],"threads":0,"min_sm":80,"reference_id":"cublas.sgemm"}'

while IFS= read -r line; do
    id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
    type=$(printf '%s' "$line" | sed -n 's/.*"type":"\([a-z_]*\)".*/\1/p')
    [ -n "$SCRIPTED_LOG" ] && printf '%s\n' "$type" >>"$SCRIPTED_LOG"
    case "$type" in
        hello)
            printf '{"id":%s,"type":"result","result":{"protocol":2,"tclens_version":"scripted","pid":%s,"host":"scripted","system":%s%s}}\n' "$id" "$$" "$system" "$mixes" ;;
        load)
            printf '{"id":%s,"type":"result","result":{"kernel":%s,"form":"directive kernel","path":"scripted.cu","function":"scripted","compile_ms":1,"load_ms":1,"loaded":true,"can_run":[],"warnings":[]}}\n' "$id" "$descriptor" ;;
        exercise)
            if [ -n "$SCRIPTED_EXERCISE" ]; then
                printf '{"id":%s,"type":"result","result":%s}\n' "$id" "$(cat "$SCRIPTED_EXERCISE")"
            else
                printf '{"id":%s,"type":"error","kind":"protocol","message":"scripted worker: no exercise","exits":false}\n' "$id"
            fi ;;
        bench|profile|source|trace|bank_measure|layout_verify|clock_skew)
            # SCRIPTED_<TYPE> (SCRIPTED_BENCH, SCRIPTED_BANK_MEASURE, ...) names a canned result.
            canned=$(eval "printf '%s' \"\${SCRIPTED_$(printf '%s' "$type" | tr a-z A-Z)}\"")
            if [ -n "$canned" ]; then
                printf '{"id":%s,"type":"result","result":%s}\n' "$id" "$(cat "$canned")"
                continue
            fi
            printf '{"id":%s,"type":"progress","stage":"run","text":"yours.scripted 64x64x64","index":0,"total":1,"allow_s":0}\n' "$id"
            case "$SCRIPTED_WORKER" in
                crash) kill -SEGV $$ ;;
                hang) while :; do sleep 1; done ;;
                garbage) echo "Segmentation fault (core dumped)"; while :; do sleep 1; done ;;
                fault)
                    printf '{"id":%s,"type":"error","kind":"fault","message":"yours.scripted on 64x64x64 faulted: an illegal memory access was encountered (cudaErrorIllegalAddress); the CUDA context is lost","exits":true}\n' "$id"
                    exit 1 ;;
            esac ;;
        live_profile)
            # SCRIPTED_LIVE_UPDATE names a file holding one update object: it is streamed three
            # times, then the worker waits for the client's stop and answers the result (with
            # SCRIPTED_WORKER=crash it dies of SIGSEGV after the updates instead). A request with
            # max_updates 1-3 gets that many and its result at once.
            if [ -z "$SCRIPTED_LIVE_UPDATE" ]; then
                printf '{"id":%s,"type":"error","kind":"protocol","message":"scripted worker: no live_profile","exits":false}\n' "$id"
                continue
            fi
            update=$(cat "$SCRIPTED_LIVE_UPDATE")
            most=$(printf '%s' "$line" | sed -n 's/.*"max_updates":\([0-9]*\).*/\1/p')
            case "$most" in 1|2|3) ;; *) most=0 ;; esac
            for n in 1 2 3; do
                [ "$most" -gt 0 ] && [ "$n" -gt "$most" ] && break
                printf '{"id":%s,"type":"update","update":%s}\n' "$id" "$update"
            done
            [ "$SCRIPTED_WORKER" = crash ] && kill -SEGV $$
            if [ "$most" -gt 0 ]; then
                printf '{"id":%s,"type":"result","result":{"updates":%s,"stopped":false,"timeline":null}}\n' "$id" "$most"
                continue
            fi
            IFS= read -r stop
            stop_type=$(printf '%s' "$stop" | sed -n 's/.*"type":"\([a-z_]*\)".*/\1/p')
            [ -n "$SCRIPTED_LOG" ] && printf '%s\n' "$stop_type" >>"$SCRIPTED_LOG"
            printf '{"id":%s,"type":"result","result":{"updates":3,"stopped":true,"timeline":null}}\n' "$id" ;;
        stop) ;;  # it crossed the result of the request it stops: the real worker ignores it too
        shutdown)
            printf '{"id":%s,"type":"result","result":{}}\n' "$id"
            exit 0 ;;
        *)
            printf '{"id":%s,"type":"error","kind":"protocol","message":"scripted worker: no %s","exits":false}\n' "${id:-0}" "$type" ;;
    esac
done
