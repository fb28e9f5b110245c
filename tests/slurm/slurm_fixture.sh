#!/usr/bin/env bash
# A single-node Slurm on 127.0.0.1 for the tests of workers started by `srun`
# (tests/slurm/slurm_test.cpp): munged, slurmctld and slurmd with every file (key, sockets,
# state, logs, slurm.conf) in one folder; nothing outside it is changed.
#   slurm_fixture.sh start DIR   starts the three and waits until the node is idle; DIR/slurm.conf
#                                is the configuration (give its path in SLURM_CONF to srun);
#                                the node has 4 CPUs and 2 fake GPUs (--gres=gpu:1 works)
#   slurm_fixture.sh stop DIR    stops them (slurmd and slurmctld before munged), ~2 s
# Exit 77, with "skipped: no slurm (...)" on stderr, when this machine cannot run them (no
# slurm-wlm or munge: scripts/dev.sh installs both); 1 on any other failure.
# Facts behind the settings: /work/shared/reference/SLURM-SSH.md (NodeName must be `hostname -s`,
# munged refuses a socket folder of mode 0700, no cgroup plugins without systemd).
set -euo pipefail

skip() { echo "skipped: no slurm ($1)" >&2; exit 77; }
[ $# -eq 2 ] || { echo "usage: slurm_fixture.sh start|stop DIR" >&2; exit 2; }
mode=$1
dir=$2

# Ends the processes whose ids are in DIR/<name> for each name: SIGTERM to all at once, then
# waits for them (at most 5 s) and SIGKILLs what is left.
stop_pids() {
    local pids=() name pid
    for name in "$@"; do
        [ -s "$dir/$name" ] || continue
        pid=$(cat "$dir/$name")
        kill "$pid" 2>/dev/null && pids+=("$pid")
    done
    for _ in $(seq 1 100); do
        local alive=0
        for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ $alive -eq 0 ] && return 0
        sleep 0.05
    done
    for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
}

if [ "$mode" = stop ]; then
    stop_pids slurmd.pid slurmctld.pid  # before munged: they use it to the end
    # munged keeps nothing worth its 2 s of orderly shutdown (its key and seed die with DIR).
    if [ -s "$dir/munged.pid" ]; then kill -9 "$(cat "$dir/munged.pid")" 2>/dev/null || true; fi
    exit 0
fi
[ "$mode" = start ] || { echo "usage: slurm_fixture.sh start|stop DIR" >&2; exit 2; }

for program in /usr/sbin/munged /usr/sbin/mungekey /usr/sbin/slurmctld /usr/sbin/slurmd; do
    [ -x "$program" ] || skip "$program is not installed: apt-get install slurm-wlm munge"
done
for program in srun sinfo; do
    command -v "$program" >/dev/null || skip "$program is not installed: apt-get install slurm-wlm"
done

mkdir -p "$dir"/{state,spool,log}
chmod 755 "$dir"  # munged refuses a socket folder of mode 0700
node=$(hostname -s)
user=$(id -un)

/usr/sbin/mungekey -c -k "$dir/munge.key"
chmod 600 "$dir/munge.key"
# Every daemon in a session of its own: whoever ran this script may end its process group.
setsid /usr/sbin/munged -F --key-file="$dir/munge.key" --socket="$dir/munge.socket" \
    --pid-file="$dir/munged.pid.file" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge.seed" </dev/null >/dev/null 2>&1 &
echo $! > "$dir/munged.pid"
for _ in $(seq 1 100); do  # up to 5 s
    [ -S "$dir/munge.socket" ] && break
    sleep 0.05
done
[ -S "$dir/munge.socket" ] || {
    echo "slurm_fixture: munged did not start: $(tail -n 1 "$dir/log/munged.log" 2>/dev/null)" >&2
    exit 1
}

# Two fake GPUs for --gres=gpu:1 (Slurm sets the task's CUDA_VISIBLE_DEVICES; no GPU behind
# them): gres.conf beside slurm.conf names a device file for each.
for gpu in 0 1; do mknod "$dir/gpu$gpu" c 1 3; done
printf 'Name=gpu File=%s\n' "$dir/gpu0" "$dir/gpu1" > "$dir/gres.conf"

# Two ports in a range away from the usual ones (and from ssh_fixture.sh's).
base=$((50000 + (RANDOM * 32768 + RANDOM + $$) % 7000 * 2))
cat > "$dir/slurm.conf" <<CONFIG
ClusterName=tclens-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$dir/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
# CPUs only: with memory counted, each job takes all of it and a second worker waits forever
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
MailProg=/bin/true
EnforcePartLimits=ALL
SchedulerParameters=batch_sched_delay=0
SlurmdParameters=config_overrides
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid.file
SlurmdPidFile=$dir/slurmd.pid.file
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
GresTypes=gpu
NodeName=$node NodeAddr=127.0.0.1 CPUs=4 Gres=gpu:2 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONFIG
export SLURM_CONF="$dir/slurm.conf"

setsid /usr/sbin/slurmctld -D </dev/null >"$dir/log/slurmctld.out" 2>&1 &
echo $! > "$dir/slurmctld.pid"
setsid /usr/sbin/slurmd -D </dev/null >"$dir/log/slurmd.out" 2>&1 &
echo $! > "$dir/slurmd.pid"
for _ in $(seq 1 200); do  # up to 10 s
    if [ "$(timeout 2 sinfo -h -o %T 2>/dev/null)" = idle ]; then exit 0; fi
    sleep 0.05
done
echo "slurm_fixture: the node did not become idle: $(tail -n 1 "$dir/log/slurmctld.log" 2>/dev/null)" >&2
"$0" stop "$dir"
exit 1
