#!/bin/sh
# `openssl speed -evp` through the blockcrypt provider against OpenSSL's default provider, in the same run.
# Usage: sh bench/provider_speed.sh [seconds [rounds]]   (after `make`; prints a Markdown table of MB/s and ratios)
#
# Each figure is the best of ROUNDS runs, the two providers alternated run by run, so a change of load
# on a shared machine falls on both sides rather than on one.
#
# OpenSSL 3.0's speed resolves -evp names without the -propquery option, so the blockcrypt runs select
# the provider the way an application's openssl.cnf would: default_properties = ?provider=blockcrypt.
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
SECS=${1:-2}
ROUNDS=${2:-3}
SO=$(pwd)/$BUILD/provider/blockcrypt.so
[ -f "$SO" ] || { echo "build the provider first (make; needs libssl-dev)"; exit 1; }
CNF=$(mktemp) || exit 1
trap 'rm -f "$CNF"' EXIT
cat >"$CNF" <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = algorithm_sect
[provider_sect]
default = default_sect
blockcrypt = blockcrypt_sect
[default_sect]
activate = 1
[blockcrypt_sect]
module = $SO
activate = 1
[algorithm_sect]
default_properties = ?provider=blockcrypt
CNF

# kB/s (OpenSSL's "1000s of bytes per second") of one algorithm at one size, or "-" if unavailable.
speed() {
	out=$(env "$@" 2>/dev/null | grep '^+F:' | tail -n 1)
	[ -n "$out" ] && echo "$out" | awk -F: '{ printf "%.0f", $NF / 1e6 }' || echo "-"
}

# The larger of two figures, where "-" (unavailable) loses to any number.
best() {
	[ "$2" = "-" ] && { [ "$1" = 0 ] && echo "-" || echo "$1"; return; }
	[ "$1" = "-" ] && { echo "$2"; return; }
	awk -v a="$1" -v b="$2" 'BEGIN { print (b + 0 > a + 0) ? b : a }'
}

echo "| algorithm | bytes | default MB/s | blockcrypt MB/s | ratio |"
echo "|---|---|---|---|---|"
for a in aes-256-xts aes-128-gcm aes-128-ctr sm4-ctr "sm4-cbc -decrypt" sm4-xts sm4-gcm; do
	for b in 8192 16; do
		d=0 p=0 i=0
		while [ $i -lt "$ROUNDS" ]; do
			# shellcheck disable=SC2086
			d=$(best "$d" "$(speed OPENSSL_CONF=/dev/null openssl speed -mr -seconds "$SECS" -bytes $b -evp $a)")
			# shellcheck disable=SC2086
			p=$(best "$p" "$(speed OPENSSL_CONF="$CNF" openssl speed -mr -seconds "$SECS" -bytes $b -evp $a)")
			i=$((i + 1))
		done
		r=$(awk -v d="$d" -v p="$p" 'BEGIN { if (d + 0 > 0 && p + 0 > 0) printf "%.1fx", p / d; else print "-" }')
		echo "| $a | $b | $d | $p | $r |"
	done
done
