#!/usr/bin/env bash
# An ssh server on 127.0.0.1 for the tests of `--remote` (tests/remote/remote_test.cpp), with
# keys it generates and every file in one folder; nothing outside it is changed but /run/sshd
# (sshd's privilege-separation folder, made when missing).
#   ssh_fixture.sh start DIR   starts sshd on a free port; writes DIR/ssh_config, in which
#                              host "tclens-test-host" is that server (key, port, user) and
#                              "tclens-refused-host" a port of 127.0.0.1 where nobody listens
#   ssh_fixture.sh stop DIR    stops it
# Exit 77, with "skipped: no sshd (...)" on stderr, when this machine cannot run one (no
# openssh-server or openssh-client: scripts/dev.sh installs both); 1 on any other failure.
set -euo pipefail

skip() { echo "skipped: no sshd ($1)" >&2; exit 77; }
[ $# -eq 2 ] || { echo "usage: ssh_fixture.sh start|stop DIR" >&2; exit 2; }
mode=$1
dir=$2

if [ "$mode" = stop ]; then
    # The shared connection first (ControlMaster: one log-in serves every test command).
    ssh -F "$dir/ssh_config" -O exit tclens-test-host >/dev/null 2>&1 || true
    if [ -s "$dir/sshd.pid" ]; then kill "$(cat "$dir/sshd.pid")" 2>/dev/null || true; fi
    exit 0
fi
[ "$mode" = start ] || { echo "usage: ssh_fixture.sh start|stop DIR" >&2; exit 2; }

sshd=/usr/sbin/sshd
[ -x "$sshd" ] || skip "$sshd is not installed: apt-get install openssh-server"
command -v ssh >/dev/null || skip "ssh is not installed: apt-get install openssh-client"
command -v ssh-keygen >/dev/null || skip "ssh-keygen is not installed"
if [ ! -d /run/sshd ]; then
    mkdir -p /run/sshd 2>/dev/null || skip "/run/sshd is missing and cannot be made"
fi

mkdir -p "$dir"
chmod 700 "$dir"
ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$dir/client_key"
user=$(id -un)

# A port from a range away from the usual ones; another one when it is taken.
for attempt in 1 2 3 4 5 6 7 8; do
    port=$((20000 + (RANDOM * 32768 + RANDOM + $$) % 30000))
    cat > "$dir/sshd_config" <<CONFIG
Port $port
ListenAddress 127.0.0.1
HostKey $dir/host_key
AuthorizedKeysFile $dir/client_key.pub
PidFile $dir/sshd.pid
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
UseDNS no
CONFIG
    rm -f "$dir/sshd.pid" "$dir/sshd.log"
    # A session of its own: whoever ran this script may end its process group when it exits.
    setsid "$sshd" -D -e -f "$dir/sshd_config" </dev/null >/dev/null 2> "$dir/sshd.log" &
    pid=$!
    for _ in $(seq 1 100); do  # up to 5 s
        if grep -q "Server listening" "$dir/sshd.log" 2>/dev/null; then
            echo "$pid" > "$dir/sshd.pid"
            cat > "$dir/ssh_config" <<CONFIG
Host tclens-test-host
    HostName 127.0.0.1
    Port $port
    User $user
    IdentityFile $dir/client_key
    IdentitiesOnly yes
    StrictHostKeyChecking no
    UserKnownHostsFile /dev/null
    ControlMaster auto
    ControlPath $dir/control-%C
    ControlPersist 60
Host tclens-refused-host
    HostName 127.0.0.1
    Port 1
    User $user
    IdentityFile $dir/client_key
    IdentitiesOnly yes
CONFIG
            exit 0
        fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
done
echo "ssh_fixture: sshd did not start: $(tail -n 1 "$dir/sshd.log" 2>/dev/null)" >&2
exit 1
