#!/bin/sh
# The provider test group once more in a Debian 13 (trixie) chroot: built there with its gcc against its OpenSSL 3.5,
# and run against that OpenSSL's default provider (512-bit AES-GCM and AES-XTS, SM4-GCM, SM4-XTS, newer EVP rules).
#
# The chroot is BC_DEBIAN13_ROOT when set (an existing one with gcc, libc6-dev, make, pkg-config, openssl and libssl-dev), else
# $BUILD/debian13, made here once with debootstrap: root, debootstrap and the network to deb.debian.org (or
# BC_DEBIAN13_MIRROR), a few minutes. What stops it from running fails it, with the reason: it is never skipped.
NAME=provider_debian13
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
MIRROR=${BC_DEBIAN13_MIRROR:-http://deb.debian.org/debian}
root=${BC_DEBIAN13_ROOT:-$BUILD/debian13}
LOG=$BUILD/test-logs/debian13-setup.log
mkdir -p "$BUILD/test-logs" || exit 1

fail() {
	echo "FAIL: $*"
	echo "$NAME: 0 passed, 1 failed"
	exit 1
}

[ "$(id -u)" = 0 ] || fail "the Debian 13 chroot needs root (debootstrap, chroot); run the provider group as root"
if [ -z "$BC_DEBIAN13_ROOT" ] && [ ! -f "$root/.blockcrypt-ready" ]; then
	command -v debootstrap >/dev/null || fail "debootstrap is not installed (apt-get install debootstrap)"
	# a chroot left half-made is made again (debootstrap's own mounts in it are gone with its process)
	grep -q " $(cd "$(dirname "$root")" && pwd)/$(basename "$root")/" /proc/mounts &&
		fail "something is mounted inside $root: unmount it first"
	rm -rf "$root"
	echo "debootstrap of Debian 13 into $root (log: $LOG)"
	timeout 1200 debootstrap --variant=minbase --include=gcc,libc6-dev,make,pkg-config,openssl,libssl-dev trixie "$root" \
		"$MIRROR" >"$LOG" 2>&1 || fail "debootstrap trixie from $MIRROR failed: $(tail -n 3 "$LOG" | tr '\n' ' ')"
	touch "$root/.blockcrypt-ready"
fi
[ -x "$root/usr/bin/openssl" ] && [ -f "$root/usr/include/openssl/core_dispatch.h" ] && [ -x "$root/usr/bin/make" ] &&
	[ -f "$root/usr/include/stdio.h" ] ||
	fail "$root lacks openssl, libssl-dev, libc6-dev or make"

# What it runs: a copy of this checkout (its working tree) with its own build directory, which is kept.
rm -rf "$root/root/blockcrypt" && mkdir -p "$root/root/blockcrypt" || fail "cannot write $root/root"
tar --exclude=./build --exclude='./build-*' --exclude=./.git -cf - . | tar -C "$root/root/blockcrypt" -xf - ||
	fail "cannot copy the checkout into $root"
in_root() {
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root BUILD=/root/bc-build sh -c "$1"
}
version=$(in_root 'openssl version') || fail "the openssl of $root does not run"
echo "$version"
echo "$version" | awk '{ split($2, v, "."); exit !(v[1] > 3 || (v[1] == 3 && v[2] >= 5)) }' ||
	fail "$root has $version, not OpenSSL 3.5 or later"
in_root 'cd /root/blockcrypt && make -s -j2 $BUILD/blockcrypt $BUILD/provider/blockcrypt.so $BUILD/provider/provider_evp \
	$BUILD/provider/provider_stream' >"$BUILD/test-logs/debian13-build.log" 2>&1 ||
	fail "the build in $root failed: $(tail -n 5 "$BUILD/test-logs/debian13-build.log" | tr '\n' ' ')"

# The provider group there, through the same runner; its last line is the total.
out=$(in_root 'cd /root/blockcrypt && BC_GROUPS=provider BC_DEBIAN13_INSIDE=1 sh tests/run.sh 2>&1')
echo "$out"
line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
[ -n "$line" ] || fail "the provider group in $root printed no total"
echo "$out" | grep -q '^SKIPPED' && fail "the provider group in $root skipped a test"
echo "$NAME: $line"
case $line in *" 0 failed") exit 0 ;; *) exit 1 ;; esac
