#!/usr/bin/env bash
# openssh for a GPU server that has none (the device machines of tests/gpu/results/), so that
# scripts/live_rate.sh can measure the live profile through a real `ssh localhost`:
#   scripts/ssh_kit.sh pack      here (Debian, openssh installed): copies ssh, sshd, ssh-keygen
#                                and the libraries they load (not libc) into .carry/ssh/
#   scripts/ssh_kit.sh install   there, as root: /usr/sbin/sshd, ssh and ssh-keygen on PATH
#                                (/usr/local/bin) as wrappers that run the packed binaries with
#                                their libraries, and sshd's privilege-separation user
set -euo pipefail
cd "$(dirname "$0")/.."
kit=$PWD/.carry/ssh
case "${1:-}" in
pack)
    rm -rf "$kit" && mkdir -p "$kit/bin" "$kit/lib"
    for binary in /usr/bin/ssh /usr/sbin/sshd /usr/bin/ssh-keygen; do
        cp "$binary" "$kit/bin/"
        ldd "$binary" | awk '/=> \// { print $3 }' | grep -v -e '/libc\.so' -e '/ld-linux' |
            xargs -r cp -n -t "$kit/lib/"
    done
    du -sh "$kit"
    ;;
install)
    [ -d "$kit" ] || { echo "ssh_kit: no $kit (run scripts/ssh_kit.sh pack first)" >&2; exit 1; }
    for name in ssh sshd ssh-keygen; do
        target=/usr/local/bin/$name
        [ "$name" = sshd ] && target=/usr/sbin/sshd
        printf '#!/bin/bash\nLD_LIBRARY_PATH=%s exec -a %s %s "$@"\n' "$kit/lib" "$target" \
            "$kit/bin/$name" >"$target"
        chmod 755 "$target"
    done
    id sshd >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin sshd
    mkdir -p /run/sshd /var/empty
    ;;
*)
    echo "usage: scripts/ssh_kit.sh pack|install" >&2
    exit 2
    ;;
esac
