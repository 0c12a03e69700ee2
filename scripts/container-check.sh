#!/usr/bin/env bash
# What deploy/Dockerfile's image holds, checked without a Docker engine (docs/container.md): the release
# binary, Swift's standard library linked in, started in a bare Debian root file system (debootstrap
# minbase, plus only the packages the Dockerfile installs) as an unprivileged user, answering /ready.
# Prints `ldd` of the binary, on this machine and in the root file system. Needs root (chroot, mounts)
# and Debian's package mirror; the root file system and the build are cached under $ENTITLE_CONTAINER_CACHE.
#
#     scripts/container-check.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${ENTITLE_CONTAINER_CACHE:-$HOME/.cache/entitle-container}
rootfs=$cache/rootfs-bookworm
build=$cache/build
packages=ca-certificates,libcurl4,zlib1g,tzdata
port=${ENTITLE_CONTAINER_PORT:-18190}
mkdir -p "$cache"

echo "== the release binary, Swift's standard library linked in (swift build -c release --static-swift-stdlib)"
# Foundation's URLSession, linked in statically, calls libcurl, which it names to the linker by -lcurl.
[ -e /usr/lib/x86_64-linux-gnu/libcurl.so ] || apt-get install -y -qq libcurl4-openssl-dev >/dev/null
swift build --package-path "$root/server" --scratch-path "$build" -c release --static-swift-stdlib -Xlinker -lcurl --product entitle >"$cache/build.log" 2>&1 \
    || { grep -E "error:" "$cache/build.log" | head -20; exit 1; }
tail -1 "$cache/build.log"
binary=$build/release/entitle
ls -l "$binary"
echo "== ldd on this machine"
ldd "$binary"

if [ ! -x "$rootfs/usr/bin/ldd" ]; then
    echo "== a bare Debian bookworm root file system (debootstrap --variant=minbase --include=$packages)"
    command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
    rm -rf "$rootfs.partial"
    debootstrap --variant=minbase --include="$packages" bookworm "$rootfs.partial" http://deb.debian.org/debian >"$cache/debootstrap.log" 2>&1 \
        || { tail -20 "$cache/debootstrap.log"; exit 1; }
    mv "$rootfs.partial" "$rootfs"
fi
echo "== the root file system: $(du -sh "$rootfs" | cut -f1), $(chroot "$rootfs" dpkg-query -W | wc -l) packages"

install -D -m 0755 "$binary" "$rootfs/usr/local/bin/entitle"
rm -rf "$rootfs/etc/entitle" "$rootfs/var/lib/entitle"
mkdir -p "$rootfs/etc/entitle" "$rootfs/var/lib/entitle"
cp -R "$root/server/Examples/ScreenTimeRewards" "$rootfs/etc/entitle/app"
chown -R 10001:10001 "$rootfs/var/lib/entitle"
echo "== ldd in the root file system (every library found there)"
chroot "$rootfs" ldd /usr/local/bin/entitle | tee "$cache/ldd-rootfs.txt"
if grep -q "not found" "$cache/ldd-rootfs.txt"; then echo "missing libraries in the root file system"; exit 1; fi

mount -t proc proc "$rootfs/proc"
mount --bind /dev "$rootfs/dev"
server=""
cleanup() {
    [ -n "$server" ] && kill -KILL "$server" 2>/dev/null || true
    umount "$rootfs/dev" 2>/dev/null || true
    umount "$rootfs/proc" 2>/dev/null || true
}
trap cleanup EXIT
echo "== entitle serve in the root file system as user 10001, its ledger in /var/lib/entitle"
chroot --userspec=10001:10001 "$rootfs" /usr/bin/env -i HOME=/var/lib/entitle \
    /bin/sh -c "cd /var/lib/entitle && exec /usr/local/bin/entitle serve --host 127.0.0.1 --port $port --catalog /etc/entitle/app --secret-key sk_container_check_0001 --log-format json" \
    >"$cache/serve.log" 2>&1 &
server=$!
ready=""
for _ in $(seq 1 100); do
    if ready=$(curl -fsS "http://127.0.0.1:$port/ready" 2>/dev/null); then break; fi
    sleep 0.2
done
[ -n "$ready" ] || { echo "no answer from /ready"; cat "$cache/serve.log"; exit 1; }
echo "GET /ready: $ready"
echo "GET /v1/subscribers/u1: $(curl -fsS -H 'Authorization: Bearer sk_container_check_0001' "http://127.0.0.1:$port/v1/subscribers/u1" | head -c 120)…"
kill -TERM "$server"
wait "$server" && echo "stopped on SIGTERM (exit 0)"
server=""
echo "ledger: $(ls "$rootfs/var/lib/entitle/entitle-data")"
